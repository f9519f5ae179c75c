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
