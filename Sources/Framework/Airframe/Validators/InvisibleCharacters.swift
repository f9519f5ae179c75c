/// Rejects characters that change how single-line text reads without being seen:
/// bidirectional controls, invisible format characters and noncharacters.
///
/// Each class gets its own reason, naming the first code point found:
/// - Bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) reorder
///   the text around them, so `"\u{202E}txt.exe"` reads as "exe.txt" — the "Trojan Source"
///   spoof.
/// - Invisible characters (U+00AD, U+180E, U+200B, U+2060–U+2064, U+FEFF) take no space, so
///   two texts that look the same can differ.
/// - Noncharacters (U+FDD0–U+FDEF and the last two code points of every plane, such as
///   U+FFFF) are reserved for a program's internal use and are not text to interchange.
///
/// The zero-width joiner and non-joiner (U+200D, U+200C) and variation selectors are
/// allowed: they join emoji sequences such as 👩‍👩‍👧 and shape scripts such as Persian.
/// Use the rule for names and titles; multi-line text such as a document body may contain
/// these characters legitimately and is better drawn safely than refused.
public struct NoInvisibleCharacters: Validator {
  /// The field name used in the messages.
  public let field: String

  /// Creates the rule.
  ///
  /// - Parameter field: The field name used in the messages, such as `"title"`.
  public init(field: String) { self.field = field }

  /// One issue for each class of character that `value` contains.
  ///
  /// - Parameter value: The text to check.
  /// - Returns: Up to three issues, in the order bidi controls, invisible characters,
  ///   noncharacters.
  /// - Complexity: O(*n*) in the text's scalars; ASCII text is passed over without looking
  ///   up Unicode properties.
  public func issues(in value: String) -> [ValidationIssue] {
    var bidi: Unicode.Scalar?
    var invisible: Unicode.Scalar?
    var noncharacter: Unicode.Scalar?
    for scalar in value.unicodeScalars where scalar.value >= 0xAD {
      if bidi == nil, Self.isBidiControl(scalar) { bidi = scalar }
      if invisible == nil, Self.isInvisible(scalar) { invisible = scalar }
      if noncharacter == nil, scalar.properties.isNoncharacterCodePoint { noncharacter = scalar }
    }
    var issues: [ValidationIssue] = []
    if let bidi {
      issues.append(issue("bidirectional controls (\(Self.name(bidi)))"))
    }
    if let invisible {
      issues.append(issue("invisible characters (\(Self.name(invisible)))"))
    }
    if let noncharacter {
      issues.append(issue("noncharacters (\(Self.name(noncharacter)))"))
    }
    return issues
  }

  private func issue(_ what: String) -> ValidationIssue {
    ValidationIssue(field: field, message: "The \(field) must not contain \(what).")
  }

  /// Whether a scalar is a bidirectional formatting control.
  static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// Whether a scalar is an invisible character that joins nothing.
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00AD, 0x180E, 0x200B, 0x2060...0x2064, 0xFEFF: true
    default: false
    }
  }

  /// A scalar as "U+XXXX".
  static func name(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }
}
