// LineMerge: the three-way merge of two versions of a note's body against the version both
// were edited from (diff3), line by line. Sync uses it when this device and another both
// changed a body (`SyncMerge`).
//
// Guarantees (each stated in full where it is kept)
// - Lines are split at every "\n" and compared by their UTF-8 bytes, and the merged text
//   is made of the inputs' own bytes (LineMerge.Lines.swift).
// - Shortcuts, byte for byte: `ours == theirs` gives that text, `ours == ancestor` gives
//   `theirs`, `theirs == ancestor` gives `ours`. The general merge gives the same results;
//   the shortcuts only save time.
// - Each side is diffed against the ancestor with Myers' shortest edit script
//   (MyersDiff.swift), giving hunks (LineMerge+EditScript.swift); hunks of the two sides
//   that overlap or touch form one region, and a region both sides changed differently is
//   a conflict, never a partial result (LineMerge+ThreeWay.swift).
// - The cursor of `ours` stays on its character when its line came from `ours`
//   (LineMerge.Output.swift).
// - Cost: O(N) to split and compare lines (N: bytes of the three texts), then per side
//   O((L + M)·D) time and O(L + M) memory for the diff (L, M: lines, D: lines that differ),
//   so small edits in big notes cost little. The merge is a pure function of its inputs.

/// A three-way merge of texts, line by line, against their common ancestor (diff3).
///
/// Lines are split at "\n" and compared by their bytes. A region of lines changed by only
/// one side takes that side's version; a region both sides changed identically takes it
/// once; any other region both sides changed, including edits of adjacent lines, is a
/// conflict (git's rule).
///
/// ```swift
/// let outcome = LineMerge.merge(ancestor: "a\nb\nc\n", ours: "A\nb\nc\n", theirs: "a\nb\nC\n")
/// // outcome == .merged("A\nb\nC\n")
/// ```
public enum LineMerge {
  /// What merging produced.
  ///
  /// A merge either fits every change of both sides into one text or reports a conflict;
  /// there is no partial result.
  public enum Outcome: Equatable, Sendable {
    /// Every change of both sides fits: the merged text.
    case merged(String)
    /// Both sides changed the same lines differently (or inserted different text at the same place).
    case conflict
  }

  /// Merges `ours` and `theirs`, both edited from `ancestor`.
  ///
  /// Changes of different lines both survive, as long as at least one line neither side
  /// changed lies between them; changes of the same or of adjacent lines survive only if
  /// both sides made the identical change.
  ///
  /// - Parameters:
  ///   - ancestor: The version both sides were edited from.
  ///   - ours: This side's version.
  ///   - theirs: The other side's version.
  /// - Returns: The merged text, or `.conflict`.
  public static func merge(ancestor: String, ours: String, theirs: String) -> Outcome {
    if ours.utf8.elementsEqual(theirs.utf8) || theirs.utf8.elementsEqual(ancestor.utf8) {
      return .merged(ours)
    }
    if ours.utf8.elementsEqual(ancestor.utf8) {
      return .merged(theirs)
    }
    guard let result = threeWay(ancestor: ancestor, ours: ours, theirs: theirs, cursor: nil)
    else { return .conflict }
    return .merged(result.text)
  }

  /// Merges like ``merge(ancestor:ours:theirs:)`` and maps a cursor in `ours` into the result.
  ///
  /// `cursor` is a UTF-8 offset into `ours`, on a character boundary; values outside
  /// `0...ours.utf8.count` are clamped. In a line that comes from `ours` or is unchanged,
  /// the mapped cursor sits on the same character of that line. In lines that `theirs`
  /// changed (and `ours` did not), it sits at the start of what `theirs` put there, or, when
  /// `theirs` deleted them, at the start of the next line (the end of the text if none).
  ///
  /// - Parameters:
  ///   - ancestor: The version both sides were edited from.
  ///   - ours: This side's version, the one the cursor is in.
  ///   - theirs: The other side's version.
  ///   - cursor: A UTF-8 offset into `ours`.
  /// - Returns: The merged text and the cursor's UTF-8 offset in it, or `nil` on conflict.
  public static func merge(
    ancestor: String, ours: String, theirs: String, cursor: Int
  ) -> (text: String, cursor: Int)? {
    let cursor = min(max(cursor, 0), ours.utf8.count)
    if ours.utf8.elementsEqual(theirs.utf8) || theirs.utf8.elementsEqual(ancestor.utf8) {
      return (ours, cursor)
    }
    return threeWay(ancestor: ancestor, ours: ours, theirs: theirs, cursor: cursor)
  }
}
