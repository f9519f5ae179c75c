/// Requires text that is not empty once leading and trailing white space is removed.
public struct NonEmptyText: Validator {
  /// The field name used in the message.
  public let field: String

  /// Creates the rule.
  ///
  /// - Parameter field: The field name used in the message, such as `"title"`.
  public init(field: String) { self.field = field }

  /// An issue if `value` is empty or only white space.
  ///
  /// - Parameter value: The text to check.
  /// - Returns: One issue, or none.
  public func issues(in value: String) -> [ValidationIssue] {
    let isBlank = value.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    return isBlank
      ? [ValidationIssue(field: field, message: "The \(field) must not be empty.")] : []
  }
}

/// Limits text to a number of characters (grapheme clusters, as a person counts them).
public struct MaximumLength: Validator {
  /// The field name used in the message.
  public let field: String
  /// The largest number of characters allowed.
  public let limit: Int

  /// Creates the rule.
  ///
  /// - Parameters:
  ///   - field: The field name used in the message.
  ///   - limit: The largest number of characters allowed.
  public init(field: String, limit: Int) {
    self.field = field
    self.limit = limit
  }

  /// An issue if `value` has more than ``limit`` characters.
  ///
  /// - Parameter value: The text to check.
  /// - Returns: One issue, or none.
  public func issues(in value: String) -> [ValidationIssue] {
    // Counting stops at limit + 1, so a huge string costs no more than a short one.
    guard value.utf8.count > limit, value.prefix(limit + 1).count > limit else { return [] }
    return [
      ValidationIssue(field: field, message: "The \(field) must be at most \(limit) characters.")
    ]
  }
}

/// Rejects control characters (including escape, tab and newlines) in single-line text.
public struct NoControlCharacters: Validator {
  /// The field name used in the message.
  public let field: String

  /// Creates the rule.
  ///
  /// - Parameter field: The field name used in the message.
  public init(field: String) { self.field = field }

  /// An issue if `value` contains a control character.
  ///
  /// - Parameter value: The text to check.
  /// - Returns: One issue, or none.
  public func issues(in value: String) -> [ValidationIssue] {
    let hasControl = value.unicodeScalars.contains { $0.properties.generalCategory == .control }
    return hasControl
      ? [
        ValidationIssue(field: field, message: "The \(field) must not contain control characters.")
      ]
      : []
  }
}
