/// One reason an input or an action is not allowed, with a message a person can read.
///
/// A message may quote what the user wrote (`A notebook title "Work" already exists.`). It
/// comes in two forms: ``message``, plain, for logs, files and the command line, and
/// ``displayMessage``, with each quoted text isolated (``BidiIsolation``) so that a title
/// in a right-to-left script cannot reorder the sentence around it when a status bar or a
/// dialog shows it.
public struct ValidationIssue: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// What was checked, such as `"title"`.
  public let field: String
  /// Why it failed, as a sentence for a status bar or a disabled menu item.
  public let message: String
  /// ``message`` with each text it quotes from the user isolated, for display.
  public let displayMessage: String

  /// Creates an issue whose message quotes nothing the user wrote.
  ///
  /// - Parameters:
  ///   - field: What was checked.
  ///   - message: Why it failed.
  public init(field: String, message: String) {
    self.field = field
    self.message = message
    self.displayMessage = message
  }

  /// Creates an issue whose message quotes what the user wrote.
  ///
  /// `message` is called twice: given a function that returns a text as it is, for
  /// ``message``, and one that isolates it, for ``displayMessage``.
  ///
  /// ```swift
  /// ValidationIssue(field: "notebook title") { user in
  ///   "A notebook title \"\(user(taken))\" already exists."
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - field: What was checked.
  ///   - message: Why it failed, given how to show a text the user wrote.
  public init(field: String, message: (_ user: (String) -> String) -> String) {
    self.field = field
    self.message = message { $0 }
    self.displayMessage = message { BidiIsolation.isolate($0) }
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

  /// The first issue's message for display, what it quotes from the user isolated.
  public var displaySummary: String? { issues.first?.displayMessage }
}
