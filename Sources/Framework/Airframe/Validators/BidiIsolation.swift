/// Keeps text a user wrote apart from an app's own words when both are shown in one line,
/// so that text in a right-to-left script cannot reorder the line around it.
///
/// Text is laid out by the Unicode Bidirectional Algorithm, which takes a line as a whole:
/// in `"\(title)  \(count)"` with a title in Arabic or Hebrew, the count after it joins the
/// title's right-to-left run and shows before or inside it, and a line that starts with a
/// right-to-left letter is laid out right to left as a whole. Wrapping the title in a
/// first-strong isolate (U+2068 … U+2069) makes it one neutral unit to the text around it,
/// laid out in its own direction inside:
///
/// ```swift
/// let row = BidiIsolation.isolate(notebook.title) + "  \(count)"
/// let message = "Deleted “\(BidiIsolation.isolate(note.title))”"
/// ```
///
/// Isolate where a line is composed for display, never in what is stored: the marks are
/// invisible formatting, and the title rules refuse them in titles
/// (``NoInvisibleCharacters``). A ``ValidationIssue`` keeps both forms of its message
/// (``ValidationIssue/message`` and ``ValidationIssue/displayMessage``).
///
/// ## Guarantees
///
/// - `isolate(text)` is `text` between one U+2068 and one U+2069, and nothing in `text` can
///   end that isolation early or carry it past the end: a U+2069 in `text` that closes no
///   isolate of `text` is left out, and every isolate `text` opens (U+2066, U+2067, U+2068)
///   and does not close is closed before the last U+2069. Everything else is kept as it is.
/// - Pure, and O(*n*) in the text's UTF-8 bytes.
public enum BidiIsolation {
  /// FIRST STRONG ISOLATE (U+2068): starts an isolate laid out in the direction of its first
  /// strong letter.
  public static let firstStrongIsolate: Unicode.Scalar = "\u{2068}"
  /// POP DIRECTIONAL ISOLATE (U+2069): ends the isolate the last initiator started.
  public static let popDirectionalIsolate: Unicode.Scalar = "\u{2069}"

  /// `text` as one unit inside a line of other text: between U+2068 and U+2069, its own
  /// isolates balanced (see the type's guarantees).
  ///
  /// - Parameter text: Text a user wrote, such as a title.
  /// - Returns: The isolated text, for display only.
  public static func isolate(_ text: some StringProtocol) -> String {
    var result = String.UnicodeScalarView()
    result.append(firstStrongIsolate)
    // Every isolate mark is three UTF-8 bytes starting with 0xE2: text without that byte
    // has none to balance.
    guard text.utf8.contains(0xE2) else {
      var plain = String(result) + text
      plain.unicodeScalars.append(popDirectionalIsolate)
      return plain
    }
    var open = 0
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x2066...0x2068:
        open += 1
      case 0x2069:
        // A pop that closes nothing of the text's own would close the isolation itself.
        guard open > 0 else { continue }
        open -= 1
      default:
        break
      }
      result.append(scalar)
    }
    for _ in 0..<open { result.append(popDirectionalIsolate) }
    result.append(popDirectionalIsolate)
    return String(result)
  }

  /// Whether `scalar` is U+2068 or U+2069, the marks ``isolate(_:)`` adds.
  ///
  /// - Parameter scalar: A scalar.
  /// - Returns: `true` for the first-strong isolate and the pop.
  public static func isIsolationMark(_ scalar: Unicode.Scalar) -> Bool {
    scalar == firstStrongIsolate || scalar == popDirectionalIsolate
  }
}
