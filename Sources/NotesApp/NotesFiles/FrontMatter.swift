import Foundation

/// The fields of a note's (or a notebook's) front matter; `nil` where a field is absent.
///
/// The `---` block at the top of a Markdown note file (title, dates, pin), as `export --markdown`
/// writes it and `import DIR` reads it.
///
/// ## Guarantees
///
/// - `text` writes a block that `split` reads back to the same values, whatever the title
///   holds: it is always in YAML double quotes, with `"` and `\` escaped and every control
///   character, line separator and byte order mark written as an escape. Dates are
///   `ExactDates` text, so they read back exactly.
/// - `split` finds a block only when the text's first line is `---` (a byte order mark
///   before it is allowed) and a later line is `---` or `...`; the body is every byte
///   after that closing line's line break, untouched (CRLF, leading `---` lines, no final
///   line break: all kept). Text that does not start with `---` has no block: the whole
///   text is the body.
/// - Inside the block it reads the YAML that people and other tools write for these keys:
///   `key: value` lines, plain, 'single-quoted' or "double-quoted" values, `# comments`,
///   blank lines. Keys it does not know are ignored, with any indented or `- ` lines that
///   follow them (lists, nested maps), so front matter from Obsidian, Jekyll or nb reads.
///   A known key given twice, a value it cannot read or a block without its closing line
///   is an error naming the line, never a guess.
struct FrontMatter: Equatable {
  /// The title.
  var title: String?
  /// When it was created.
  var created: Date?
  /// When it last changed.
  var modified: Date?
  /// Whether the note is pinned.
  var pinned: Bool?

  /// Why a front matter block cannot be read, such as "line 3: no closing quote"; the
  /// message reads after the words "front matter".
  struct Problem: Error, Equatable {
    /// What is wrong and on which line of the file.
    let message: String
  }

  /// The block, from its opening `---` line to its closing one, with a final line break.
  var text: String {
    var lines = ["---"]
    if let title { lines.append("title: " + Self.quoted(title)) }
    if let created { lines.append("created: " + ExactDates.format(created)) }
    if let modified { lines.append("modified: " + ExactDates.format(modified)) }
    if let pinned { lines.append("pinned: \(pinned)") }
    lines.append("---")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `value` as a YAML double-quoted scalar.
  static func quoted(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\t": result += "\\t"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        result += "\\x" + hex(scalar.value, digits: 2)
      case "\u{2028}", "\u{2029}", "\u{FEFF}":
        result += "\\u" + hex(scalar.value, digits: 4)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }

  /// Splits a file's text into its front matter (`nil` when it has none) and its body.
  ///
  /// - Parameter text: The whole file.
  /// - Returns: The fields, and every byte after the block.
  /// - Throws: ``Problem`` if the text opens a block that cannot be read.
  static func split(_ text: String) throws(Problem) -> (FrontMatter?, body: Substring) {
    let utf8 = text.utf8
    var start = utf8.startIndex
    if text.unicodeScalars.first == "\u{FEFF}" { start = utf8.index(start, offsetBy: 3) }
    var lines = Lines(text: text, position: start)
    guard let opening = lines.next(), opening.ended, isFence(opening.content, "---")
    else { return (nil, text[...]) }
    var matter = FrontMatter()
    var seen: Set<String> = []
    var previousKey: String?
    var number = 1
    while let line = lines.next() {
      number += 1
      let content = line.content
      if isFence(content, "---") || isFence(content, "...") {
        return (matter, text[lines.position...])
      }
      let trimmed = blanksTrimmed(content)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      if content.first == " " || content.first == "\t" || content.hasPrefix("-") {
        // Part of the previous key's value: a list item or a nested map.
        guard let key = previousKey, !Self.keys.contains(key) else {
          throw Problem(message: "line \(number): \(where: previousKey) must be on one line")
        }
        continue
      }
      guard let colon = keyEnd(content) else {
        throw Problem(message: "line \(number) is not \"key: value\"")
      }
      let key = String(blanksTrimmed(content[..<colon]))
      let raw = content[content.index(after: colon)...]
      previousKey = key
      guard Self.keys.contains(key) else { continue }
      guard seen.insert(key).inserted else {
        throw Problem(message: "line \(number): \(key) is given twice")
      }
      let value: String?
      do {
        value = try scalar(raw)
      } catch {
        throw Problem(message: "line \(number): \(key): \(error.message)")
      }
      guard let value, !value.isEmpty else { continue }
      try matter.set(key, value, line: number)
    }
    throw Problem(message: "opened on line 1 has no closing --- line")
  }

  /// The keys read; any other is ignored.
  private static let keys: Set = ["title", "created", "modified", "pinned"]

  private mutating func set(_ key: String, _ value: String, line: Int) throws(Problem) {
    switch key {
    case "title":
      title = value
    case "created", "modified":
      guard let date = ExactDates.parse(value) else {
        throw Problem(
          message:
            "line \(line): \(key): \(DisplayText.quoted(value)) is not a date such as "
            + "2024-05-01T09:30:00Z")
      }
      if key == "created" { created = date } else { modified = date }
    default:
      switch value.lowercased() {
      case "true", "yes", "on": pinned = true
      case "false", "no", "off": pinned = false
      default:
        throw Problem(
          message: "line \(line): pinned must be true or false, not \(DisplayText.quoted(value))"
        )
      }
    }
  }

  /// `text` without leading and trailing spaces and tabs (YAML's white space; cheaper than
  /// Foundation's trimming, which goes through NSString).
  private static func blanksTrimmed(_ text: Substring) -> Substring {
    let blank = { (character: Character) in character == " " || character == "\t" }
    guard let first = text.firstIndex(where: { !blank($0) }) else { return text[text.endIndex...] }
    let last = text.lastIndex(where: { !blank($0) }) ?? first
    return text[first...last]
  }

  /// Whether `line` is `fence` followed by nothing but spaces or tabs.
  private static func isFence(_ line: Substring, _ fence: String) -> Bool {
    line.hasPrefix(fence) && line.dropFirst(fence.count).allSatisfy { $0 == " " || $0 == "\t" }
  }

  /// The colon that ends a key: the first one followed by white space or the line's end.
  private static func keyEnd(_ line: Substring) -> Substring.Index? {
    var index = line.startIndex
    while let colon = line[index...].firstIndex(of: ":") {
      let next = line.index(after: colon)
      if colon != line.startIndex, next == line.endIndex || line[next] == " " || line[next] == "\t"
      {
        return colon
      }
      index = next
    }
    return nil
  }

  /// The string a YAML scalar on one line stands for; `nil` for null (`~`, `null`).
  private static func scalar(_ raw: Substring) throws(Problem) -> String? {
    let text = String(blanksTrimmed(raw))
    guard let first = text.first else { return nil }
    switch first {
    case "\"": return try doubleQuoted(text)
    case "'": return try singleQuoted(text)
    case "[", "{", "|", ">", "&", "*", "!", "%", "@", "`":
      throw Problem(message: "\(DisplayText.quoted(text)) is not a plain value (quote it)")
    default:
      var plain = Substring(text)
      if let comment = plain.range(of: " #") ?? plain.range(of: "\t#") {
        plain = plain[..<comment.lowerBound]
      }
      let value = String(blanksTrimmed(plain))
      return value == "~" || value == "null" || value == "Null" || value == "NULL" ? nil : value
    }
  }

  private static func singleQuoted(_ text: String) throws(Problem) -> String {
    var result = ""
    var scalars = text.unicodeScalars.dropFirst()
    while let scalar = scalars.popFirst() {
      if scalar == "'" {
        if scalars.first == "'" {
          scalars.removeFirst()
          result += "'"
          continue
        }
        try expectEnd(scalars)
        return result
      }
      result.unicodeScalars.append(scalar)
    }
    throw Problem(message: "no closing ' quote")
  }

  private static func doubleQuoted(_ text: String) throws(Problem) -> String {
    var result = String.UnicodeScalarView()
    var scalars = text.unicodeScalars.dropFirst()
    while let scalar = scalars.popFirst() {
      switch scalar {
      case "\"":
        try expectEnd(scalars)
        return String(result)
      case "\\":
        guard let escape = scalars.popFirst() else { break }
        if let simple = simpleEscapes[escape] {
          result.append(simple)
          continue
        }
        let digits = escape == "x" ? 2 : escape == "u" ? 4 : escape == "U" ? 8 : 0
        let hex = String(String.UnicodeScalarView(scalars.prefix(digits)))
        guard digits > 0, hex.count == digits, let value = UInt32(hex, radix: 16),
          let decoded = Unicode.Scalar(value)
        else { throw Problem(message: "\\\(escape) is not an escape YAML knows") }
        scalars.removeFirst(digits)
        result.append(decoded)
      default:
        result.append(scalar)
      }
    }
    throw Problem(message: "no closing \" quote")
  }

  private static let simpleEscapes: [Unicode.Scalar: Unicode.Scalar] = [
    "0": "\0", "a": "\u{07}", "b": "\u{08}", "t": "\t", "\t": "\t", "n": "\n", "v": "\u{0B}",
    "f": "\u{0C}", "r": "\r", "e": "\u{1B}", " ": " ", "\"": "\"", "/": "/", "\\": "\\",
    "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
  ]

  /// Throws unless what follows a closing quote is white space or a comment.
  private static func expectEnd(_ rest: Substring.UnicodeScalarView) throws(Problem) {
    let tail = blanksTrimmed(Substring(rest))
    guard tail.isEmpty || tail.hasPrefix("#") else {
      throw Problem(message: "\(DisplayText.quoted(String(tail))) after the closing quote")
    }
  }
}

/// The lines of UTF-8 text, each without its line break (LF or CRLF).
private struct Lines {
  let text: String
  /// Where the next line starts.
  var position: String.Index

  /// The next line: its content, and whether a line break ended it.
  mutating func next() -> (content: Substring, ended: Bool)? {
    let utf8 = text.utf8
    guard position < utf8.endIndex else { return nil }
    let start = position
    guard let newline = utf8[start...].firstIndex(of: UInt8(ascii: "\n")) else {
      position = utf8.endIndex
      return (text[start...], false)
    }
    position = utf8.index(after: newline)
    var end = newline
    if end > start, utf8[utf8.index(before: end)] == UInt8(ascii: "\r") {
      end = utf8.index(before: end)
    }
    return (text[start..<end], true)
  }
}

extension String.StringInterpolation {
  /// "the value of KEY", or "a value" when no key came before.
  fileprivate mutating func appendInterpolation(where key: String?) {
    appendLiteral(key.map { "the value of \($0)" } ?? "a value")
  }
}
