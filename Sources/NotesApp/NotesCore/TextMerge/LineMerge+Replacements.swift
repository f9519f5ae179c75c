extension LineMerge {
  /// One part of a text replaced by another: what a text view must replace to show a new
  /// version of its text without touching the rest.
  ///
  /// ``LineMerge/replacements(from:to:)`` gives the lines a shortest line diff changed,
  /// each narrowed to the characters that differ.
  ///
  /// ## Guarantees
  /// - Applying the replacements to the old text, last first (or first to last with offsets
  ///   shifted), gives the new text byte for byte.
  /// - Only what changed is replaced: a line both versions share is never inside a range,
  ///   so a cursor or a selection a view keeps on it stays where it was.
  /// - Ranges are UTF-8 offsets into the old text, on Unicode scalar boundaries, in
  ///   increasing order and apart from each other.
  public struct Replacement: Equatable, Sendable {
    /// The replaced part of the old text, as UTF-8 offsets on Unicode scalar boundaries.
    public var range: Range<Int>
    /// What replaces it.
    public var text: String

    /// Creates a replacement.
    ///
    /// - Parameters:
    ///   - range: The replaced part of the old text, as UTF-8 offsets.
    ///   - text: What replaces it.
    public init(range: Range<Int>, text: String) {
      self.range = range
      self.text = text
    }
  }

  /// The replacements that turn `old` into `new`, changing only the lines that differ.
  ///
  /// A view that shows a text (a text view, an editor pane) applies them when the text
  /// changes underneath it, instead of replacing everything, so the user's cursor, selection
  /// and scroll position stay on the lines nobody changed:
  ///
  /// ```swift
  /// for change in LineMerge.replacements(from: shown, to: stored).reversed() {
  ///   view.replace(utf8Range: change.range, with: change.text)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - old: The text shown now.
  ///   - new: The text to show.
  /// - Returns: The replacements, in increasing order of `range`; empty when the texts are
  ///   equal byte for byte.
  /// - Complexity: O((N + M)·D) for texts of N and M bytes whose lines differ in D lines.
  public static func replacements(from old: String, to new: String) -> [Replacement] {
    let oldBytes = Array(old.utf8)
    let newBytes = Array(new.utf8)
    guard oldBytes != newBytes else { return [] }
    // Each line with its newline is one element, so the elements joined are the text.
    let oldStarts = lineStarts(oldBytes)
    let newStarts = lineStarts(newBytes)
    var table: [LineKey: Int] = [:]
    let oldIDs = ids(oldBytes, oldStarts, &table)
    let newIDs = ids(newBytes, newStarts, &table)
    return editScript(from: oldIDs, to: newIDs).compactMap { hunk in
      narrowed(
        old: oldBytes[oldStarts[hunk.ancestorStart]..<oldStarts[hunk.ancestorEnd]],
        new: newBytes[newStarts[hunk.sideStart]..<newStarts[hunk.sideEnd]])
    }
  }

  /// Where a UTF-8 offset into the old text is after `replacements`: moved by what was
  /// replaced before it, and to the end of a replacement it was inside of or at the end of.
  ///
  /// Text inserted right at the offset comes after it: a cursor stays in front of what
  /// somebody else adds where it is, so the user's own typing goes on where it was. Whole
  /// lines are the exception: lines inserted where the offset's line starts go above that
  /// line, and the offset stays on it.
  ///
  /// - Parameters:
  ///   - offset: A UTF-8 offset into the old text, such as a cursor.
  ///   - replacements: ``replacements(from:to:)`` of the old text.
  /// - Returns: The offset into the new text.
  public static func offset(_ offset: Int, mappedThrough replacements: [Replacement]) -> Int {
    var shift = 0
    for change in replacements {
      let isBefore =
        change.range.isEmpty
        ? change.range.lowerBound < offset
          || (change.range.lowerBound == offset && change.text.hasSuffix("\n"))
        : change.range.upperBound <= offset
      if isBefore {
        shift += change.text.utf8.count - change.range.count
      } else if change.range.lowerBound < offset {
        return change.range.lowerBound + shift + change.text.utf8.count
      } else {
        break
      }
    }
    return offset + shift
  }

  /// Where each line (with its newline) starts, then the end of the text.
  private static func lineStarts(_ bytes: [UInt8]) -> [Int] {
    var starts = [0]
    for (index, byte) in bytes.enumerated() where byte == 0x0A && index + 1 < bytes.count {
      starts.append(index + 1)
    }
    if bytes.isEmpty { return [0] }
    starts.append(bytes.count)
    return starts
  }

  private static func ids(_ bytes: [UInt8], _ starts: [Int], _ table: inout [LineKey: Int])
    -> [Int]
  {
    (0..<(starts.count - 1)).map { index in
      let key = LineKey(bytes: bytes[starts[index]..<starts[index + 1]])
      if let id = table[key] { return id }
      table[key] = table.count
      return table.count - 1
    }
  }

  /// The replacement of `old` by `new` without their common first and last bytes (kept on
  /// scalar boundaries), or `nil` if nothing is left to replace.
  private static func narrowed(old: ArraySlice<UInt8>, new: ArraySlice<UInt8>) -> Replacement? {
    var prefix = 0
    while prefix < old.count, prefix < new.count,
      old[old.startIndex + prefix] == new[new.startIndex + prefix]
    {
      prefix += 1
    }
    // Back to the start of a scalar: a continuation byte (10xxxxxx) is inside one.
    while prefix > 0, prefix < old.count, old[old.startIndex + prefix] & 0xC0 == 0x80 {
      prefix -= 1
    }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.endIndex - 1 - suffix] == new[new.endIndex - 1 - suffix]
    {
      suffix += 1
    }
    while suffix > 0, old[old.endIndex - suffix] & 0xC0 == 0x80 {
      suffix -= 1
    }
    let range = (old.startIndex + prefix)..<(old.endIndex - suffix)
    let text = new[(new.startIndex + prefix)..<(new.endIndex - suffix)]
    guard !range.isEmpty || !text.isEmpty else { return nil }
    return Replacement(range: range, text: String(decoding: text, as: UTF8.self))
  }
}
