/// Text from the library or the user made safe to show in a message.
///
/// The command line quotes titles and paths through it, and so do the messages of importing
/// and exporting, which every presentation shows: a title with a line break or an escape
/// sequence cannot break a line or drive the terminal.
public enum DisplayText {
  /// `text` on one line: every control character (tab and line break included), which
  /// could break a tab-separated line or drive the terminal, becomes U+FFFD.
  public static func line(_ text: String) -> String {
    replacingControls(in: text, keeping: [])
  }

  /// `text` with control characters other than tab and line breaks replaced by U+FFFD.
  public static func body(_ text: String) -> String {
    replacingControls(in: text, keeping: ["\n", "\t", "\r"])
  }

  /// `text` on one line (see ``line(_:)``), shortened to `limit` characters.
  public static func short(_ text: String, limit: Int = 80) -> String {
    line(text.count > limit ? String(text.prefix(limit - 1)) + "…" : text)
  }

  /// `text` in double quotes, on one line, shortened to `limit` characters (a path is
  /// shown whole).
  public static func quoted(_ text: String, limit: Int = 80) -> String {
    "\"" + short(text, limit: limit) + "\""
  }

  private static func replacingControls(
    in text: String, keeping allowed: Set<Unicode.Scalar>
  ) -> String {
    // Printable ASCII, most titles, needs no look at its scalars.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    // The control characters (general category Cc) are exactly U+0000–U+001F and
    // U+007F–U+009F.
    let isUnsafe = { (scalar: Unicode.Scalar) in
      (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) && !allowed.contains(scalar)
    }
    guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      scalars.append(isUnsafe(scalar) ? "\u{FFFD}" : scalar)
    }
    return String(scalars)
  }
}
