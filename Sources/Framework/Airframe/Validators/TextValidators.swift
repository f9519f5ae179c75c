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
    Self.containsControlCharacter(in: value)
      ? [
        ValidationIssue(field: field, message: "The \(field) must not contain control characters.")
      ]
      : []
  }

  /// Whether `text` contains a control character (Unicode category Cc: U+0000–U+001F and
  /// U+007F–U+009F) other than the `allowed` ones.
  ///
  /// The scan reads UTF-8 bytes without looking up Unicode properties, so checking a long
  /// text on every keystroke stays cheap.
  ///
  /// - Parameters:
  ///   - text: The text to check.
  ///   - allowed: Control characters to accept, such as `"\n"` and `"\t"`.
  /// - Returns: `true` if a control character other than the allowed ones occurs.
  /// - Complexity: O(*n*) in the text's UTF-8 length.
  public static func containsControlCharacter(
    in text: String, allowing allowed: Set<Unicode.Scalar> = []
  ) -> Bool {
    // The allowed C0 controls as bits of one word, so the common case (a line break in a
    // long text) costs no hashing; DEL and C1 controls are rare enough for the set.
    var allowedC0: UInt32 = 0
    for scalar in allowed where scalar.value < 0x20 { allowedC0 |= 1 << scalar.value }
    func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      var previous: UInt8 = 0
      for byte in bytes {
        // C0 controls and DEL are single bytes; C1 controls are 0xC2 0x80–0x9F, and their
        // scalar value equals the second byte.
        if byte < 0x20 {
          if allowedC0 & (1 << UInt32(byte)) == 0 { return true }
        } else if byte == 0x7F || (previous == 0xC2 && byte <= 0x9F) {
          if !allowed.contains(Unicode.Scalar(byte)) { return true }
        }
        previous = byte
      }
      return false
    }
    if let found = text.utf8.withContiguousStorageIfAvailable(scan) { return found }
    var copy = text
    copy.makeContiguousUTF8()
    // A contiguous string always lends its storage.
    return copy.utf8.withContiguousStorageIfAvailable(scan)!
  }
}
