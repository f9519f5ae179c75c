/// One reason an input or an action is not allowed, with a message a person can read.
public struct ValidationIssue: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// What was checked, such as `"title"`.
  public let field: String
  /// Why it failed, as a sentence for a status bar or a disabled menu item.
  public let message: String

  /// Creates an issue.
  ///
  /// - Parameters:
  ///   - field: What was checked.
  ///   - message: Why it failed.
  public init(field: String, message: String) {
    self.field = field
    self.message = message
  }

  /// The message.
  public var description: String { message }
}

/// The issues a validation found; empty means valid.
public struct ValidationResult: Equatable, Sendable {
  /// Every issue found, in the order the validators ran.
  public let issues: [ValidationIssue]

  /// Creates a result.
  ///
  /// - Parameter issues: The issues found.
  public init(_ issues: [ValidationIssue] = []) { self.issues = issues }

  /// Whether no validator found an issue.
  public var isValid: Bool { issues.isEmpty }

  /// The first issue's message, for a single-line status.
  public var summary: String? { issues.first?.message }
}
