extension LineMerge {
  /// One line of a comparison of two texts: in both, only in the old one, or only in the new.
  public enum LineDifference: Equatable, Sendable {
    /// A line both texts have.
    case kept(String)
    /// A line only the old text has.
    case removed(String)
    /// A line only the new text has.
    case added(String)
  }

  /// One run of a line compared word by word with another: words (with the spaces and
  /// signs between them) both lines have, only the old one has, or only the new one has.
  public enum WordDifference: Equatable, Sendable {
    /// A run both lines have.
    case kept(String)
    /// A run only the old line has.
    case removed(String)
    /// A run only the new line has.
    case added(String)
  }

  /// The runs of `old` and `new` in order, each marked kept, removed or added: a shortest
  /// edit script over their words, as the merge cuts them when it merges word by word.
  ///
  /// Words are cut as the merge cuts them (see `Tokens`): a run of letters and digits, a
  /// run of white space, or any other character on its own, an emoji and each CJK
  /// ideograph included; they are equal when their bytes are. A removed run comes before
  /// the added run that replaces it, and neighbouring runs of one kind are one run.
  ///
  /// - Parameters:
  ///   - old: The earlier line (without "\n"), such as a line of a kept version.
  ///   - new: The later line (without "\n"), such as the line that replaced it.
  /// - Returns: Every word of both lines once, kept words once for both; joined, the kept
  ///   and removed runs give `old`, and the kept and added runs give `new`.
  /// - Complexity: O((N + M)·D) for N and M words of which D differ.
  public static func wordDifferences(from old: String, to new: String) -> [WordDifference] {
    let oldLines = Lines(old)
    let newLines = Lines(new)
    let a = Tokens(oldLines, 0..<oldLines.count)
    let b = Tokens(newLines, 0..<newLines.count)
    var table: [LineKey: Int] = [:]
    let aIDs = a.ids(interning: &table)
    let bIDs = b.ids(interning: &table)
    // Every line ends in a "\n" token of its own; the last one is not the text's.
    let aEnd = a.count - 1
    let bEnd = b.count - 1
    func text(_ tokens: Tokens, _ range: Range<Int>, before end: Int) -> String {
      let range = range.clamped(to: 0..<end)
      guard !range.isEmpty else { return "" }
      return String(
        decoding: tokens.bytes[tokens.starts[range.lowerBound]..<tokens.starts[range.upperBound]],
        as: UTF8.self)
    }
    var result: [WordDifference] = []
    func append(_ difference: WordDifference) {
      switch (result.last, difference) {
      case (_, .kept("")), (_, .removed("")), (_, .added("")): return
      case (.kept(let first)?, .kept(let second)):
        result[result.count - 1] = .kept(first + second)
      case (.removed(let first)?, .removed(let second)):
        result[result.count - 1] = .removed(first + second)
      case (.added(let first)?, .added(let second)):
        result[result.count - 1] = .added(first + second)
      default: result.append(difference)
      }
    }
    var nextA = 0
    for hunk in editScript(from: aIDs, to: bIDs) {
      append(.kept(text(a, nextA..<hunk.ancestorStart, before: aEnd)))
      append(.removed(text(a, hunk.ancestorStart..<hunk.ancestorEnd, before: aEnd)))
      append(.added(text(b, hunk.sideStart..<hunk.sideEnd, before: bEnd)))
      nextA = hunk.ancestorEnd
    }
    append(.kept(text(a, nextA..<aEnd, before: aEnd)))
    return result
  }

  /// The lines of `old` and `new` in order, each marked kept, removed or added: a shortest
  /// edit script, as the merge diffs.
  ///
  /// Lines are split and compared as the merge does (see `Lines`): at "\n" only, byte for
  /// byte. In a replaced run, the removed lines come before the added ones.
  ///
  /// - Parameters:
  ///   - old: The earlier text, such as a kept version.
  ///   - new: The later text, such as the note's current one.
  /// - Returns: Every line of both texts once, kept lines once for both.
  /// - Complexity: O((N + M)·D) for N and M lines of which D differ.
  public static func differences(from old: String, to new: String) -> [LineDifference] {
    let a = Lines(old)
    let b = Lines(new)
    var table: [LineKey: Int] = [:]
    let aIDs = a.ids(interning: &table)
    let bIDs = b.ids(interning: &table)
    func text(_ lines: Lines, _ index: Int) -> String {
      String(decoding: lines.line(index), as: UTF8.self)
    }
    var result: [LineDifference] = []
    var nextA = 0
    for hunk in editScript(from: aIDs, to: bIDs) {
      for index in nextA..<hunk.ancestorStart { result.append(.kept(text(a, index))) }
      for index in hunk.ancestorStart..<hunk.ancestorEnd { result.append(.removed(text(a, index))) }
      for index in hunk.sideStart..<hunk.sideEnd { result.append(.added(text(b, index))) }
      nextA = hunk.ancestorEnd
    }
    for index in nextA..<a.count { result.append(.kept(text(a, index))) }
    return result
  }
}
