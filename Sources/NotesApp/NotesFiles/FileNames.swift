import Foundation

/// Hands out safe, unique names for the entries of one folder.
///
/// Note and notebook titles made into file and folder names that every common file system accepts,
/// unique within their folder.
///
/// ## Guarantees
///
/// - A name never holds `/ \ : * ? " < > |` or a control character (U+0000–U+001F,
///   U+007F–U+009F): each becomes `_`.
/// - A name never starts with `-`, which a shell command (`rm`, `cat`, `grep`) would read
///   as an option: each `-` at its start becomes `_` (`_rf.md` for "-rf"). The title
///   itself is kept in the file's front matter, so it reads back unchanged.
/// - A name never starts or ends with a dot or white space, is never empty ("Untitled"),
///   and its stem (before the extension) is never a name Windows reserves (CON, PRN, AUX,
///   NUL, COM0–COM9, LPT0–LPT9, in any case, with or without an extension): `_` is added
///   after the device name ("NUL_", "con_.txt").
/// - A stem is at most `stemLimit` UTF-8 bytes, cut between characters (never inside a
///   character or a grapheme cluster), so the whole name, with a " 99999" suffix and the
///   extension, stays under the 255 bytes most file systems allow.
/// - Within one `FileNames` value, no two names are equal ignoring case and Unicode
///   normalization: a later one gets " 2", " 3"… before its extension.
struct FileNames {
  /// The most UTF-8 bytes a stem (the name without the extension) keeps.
  static let stemLimit = 200
  /// The stem a title with nothing usable in it gets.
  static let fallback = "Untitled"

  /// The names handed out so far, folded as case-insensitive file systems compare them.
  private var taken: Set<String> = []

  /// Creates an allocator with no name taken.
  init() {}

  /// A safe name for `title` with `fileExtension` (such as `"md"`, or `""` for a folder),
  /// different from every name this allocator handed out before, ignoring case.
  ///
  /// - Parameters:
  ///   - title: The note or notebook title.
  ///   - fileExtension: The extension without its dot; empty for none.
  /// - Returns: The name, such as `"Groceries 2.md"`.
  mutating func name(for title: String, fileExtension: String) -> String {
    let stem = Self.safeStem(title)
    let suffix = fileExtension.isEmpty ? "" : "." + fileExtension
    var candidate = stem + suffix
    var number = 2
    while !taken.insert(Self.folded(candidate)).inserted {
      candidate = "\(stem) \(number)\(suffix)"
      number += 1
    }
    return candidate
  }

  /// `name` as case-insensitive file systems compare names: lowercased, composed.
  static func folded(_ name: String) -> String {
    name.precomposedStringWithCanonicalMapping.lowercased()
  }

  /// `title` made safe as a file name's stem (see the type's guarantees).
  static func safeStem(_ title: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in title.unicodeScalars {
      scalars.append(isUnsafe(scalar) ? "_" : scalar)
    }
    var stem = trimmed(String(scalars))
    stem = bounded(stem, bytes: stemLimit)
    // Not an option to a shell command; `_` keeps the length, so the bound still holds.
    let dashes = stem.prefix { $0 == "-" }.count
    if dashes > 0 { stem = String(repeating: "_", count: dashes) + stem.dropFirst(dashes) }
    if stem.isEmpty { stem = fallback }
    if isReserved(stem) {
      // After the device name itself: Windows reserves "NUL.txt" as well as "NUL".
      if let dot = stem.firstIndex(of: ".") { stem.insert("_", at: dot) } else { stem += "_" }
    }
    return stem
  }

  /// Whether `scalar` may not appear in a file name on some common file system.
  static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "/", "\\", ":", "*", "?", "\"", "<", ">", "|": true
    default: scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
  }

  /// Whether Windows reserves `stem` as a device name: the part before the first dot,
  /// without trailing spaces, is CON, PRN, AUX, NUL, COM0–9 or LPT0–9, in any case.
  static func isReserved(_ stem: String) -> Bool {
    let base =
      stem.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
      .first.map { String($0) } ?? stem
    let upper = base.trimmingCharacters(in: .whitespaces).uppercased()
    if ["CON", "PRN", "AUX", "NUL"].contains(upper) { return true }
    guard upper.count == 4, upper.hasPrefix("COM") || upper.hasPrefix("LPT") else {
      return false
    }
    return upper.last.map { $0.isASCII && $0.isNumber } ?? false
  }

  /// `text` without leading or trailing dots and white space.
  private static func trimmed(_ text: String) -> String {
    let edge = { (character: Character) in character == "." || character.isWhitespace }
    guard let first = text.firstIndex(where: { !edge($0) }),
      let last = text.lastIndex(where: { !edge($0) })
    else { return "" }
    return String(text[first...last])
  }

  /// The longest prefix of `text`, in whole characters, of at most `bytes` UTF-8 bytes,
  /// trimmed again (a cut can leave a space or a dot at the end).
  static func bounded(_ text: String, bytes: Int) -> String {
    guard text.utf8.count > bytes else { return text }
    var count = 0
    var end = text.startIndex
    for index in text.indices {
      let next = text.index(after: index)
      count += text[index..<next].utf8.count
      if count > bytes { break }
      end = next
    }
    return trimmed(String(text[..<end]))
  }
}
