/// A three-way merge of texts, line by line, against their common ancestor (diff3).
///
/// Lines are split at "\n" and compared by their bytes. A region of lines changed by only
/// one side takes that side's version; a region both sides changed identically takes it
/// once. Any other region both sides changed, including edits of adjacent lines, is merged
/// again by tokens (words, and the separators between them, kept byte for byte) with the
/// same rule, git's: changes that overlap or touch conflict. The token merge is kept only if
/// it passes a check after the fact; otherwise the merge is a conflict.
///
/// Sync uses it when this device and another both changed a body (`SyncMerge`), and the
/// editor when a note changed elsewhere under an unsaved draft (`EditorMachine`).
///
/// ```swift
/// let outcome = LineMerge.merge(ancestor: "a\nb\nc\n", ours: "A\nb\nc\n", theirs: "a\nb\nC\n")
/// // outcome == .merged("A\nb\nC\n")
/// let words = LineMerge.merge(
///   ancestor: "One. Two. Three.", ours: "One! Two. Three.", theirs: "One. Two. Three?")
/// // words == .merged("One! Two. Three?")
/// ```
///
/// ## Guarantees
/// - Lines are split at every "\n" and compared by their UTF-8 bytes, and the merged text
///   is made of the inputs' own bytes (see `Lines`).
/// - Shortcuts, byte for byte: `ours == theirs` gives that text, `ours == ancestor` gives
///   `theirs`, `theirs == ancestor` gives `ours`. The general merge gives the same results;
///   the shortcuts only save time.
/// - Regions: each side is diffed against the ancestor with Myers' shortest edit script,
///   giving hunks (see `Hunk`); hunks of the two sides that overlap or touch form one
///   region (see `Regions`). Touching counts, as in git and GNU diff3: edits of adjacent
///   lines, an insertion right before or after a line the other side changed, and two
///   insertions at the same place are one region. Edits separated by at least one line that
///   neither side changed are separate regions.
/// - A region only one side changed takes that side's lines. A region both sides changed
///   takes their lines if both sides' lines for the whole region are identical; otherwise
///   it is merged again token by token (words and separators, see `Tokens`), with the same
///   rule at that grain and a check of the result. If that fails too, the merge is a
///   conflict: no partial result and no conflict markers. Hence deleting a line on one side
///   and editing it on the other conflicts, and so do different insertions at the same
///   place; edits of different words of one line, or of adjacent lines, merge. Lines
///   outside every region are unchanged on both sides and are kept.
/// - Token by token, the rule is git's at that grain: each side's token changes against the
///   ancestor region (Myers, as for lines) that overlap or touch form one group, and a group
///   both sides changed differently fails the region. Two insertions at the same point
///   touch; so do edits of adjacent words (the separator between them is a token, so edits
///   of words one space apart do not touch).
/// - Placement: a pure insertion or deletion among equal tokens ("a a" → "a a a") could be
///   placed at any point of that run. Each such change is placed leftmost, and the span it
///   could slide over (its envelope) is what must not touch the other side's changes. Then
///   every placement gives the same result: inside an envelope the other side kept the
///   ancestor's tokens, so the result there is this side's text. A change whose envelope
///   touches the other side's changes only because of the slide fails as `.ambiguous`.
/// - Bounds: a region with more than ``maximumRegionTokens`` tokens in any of its versions
///   is not merged by token (`.tooLong`).
/// - Checked after the fact: the merged region is diffed again against each side; that diff
///   must be exactly the other side's changes (the same tokens removed and inserted, at the
///   same place), less the changes both sides made identically. So each side's changes
///   appear exactly once, nothing else changed, and the unchanged text between them is the
///   ancestor's. If not, the region fails (`.unverified`), and a failed region leaves the
///   whole merge a conflict.
/// - The cursor of `ours` stays on its character when its line came from `ours`, and in a
///   region merged token by token when its token came from `ours` (see `Output`).
/// - Cost: O(N) to split and compare lines (N: bytes of the three texts), then per side
///   O((L + M)·D) time and O(L + M) memory for the diff (L, M: lines, D: lines that differ),
///   so small edits in big notes cost little. A conflicting region adds O(T) to cut it into
///   tokens (T: its bytes) and four diffs of its tokens, at most ``maximumRegionTokens`` per
///   version. The merge is a pure function of its inputs, and symmetric: swapping `ours` and
///   `theirs` gives the same text.
public enum LineMerge {
  /// What merging produced.
  ///
  /// A merge either fits every change of both sides into one text or reports a conflict;
  /// there is no partial result.
  public enum Outcome: Equatable, Sendable {
    /// Every change of both sides fits: the merged text.
    case merged(String)
    /// Both sides changed the same words differently (or inserted different text at the same
    /// place), or the region they changed could not be merged word by word safely.
    case conflict
  }

  /// Merges `ours` and `theirs`, both edited from `ancestor`.
  ///
  /// Changes of different lines both survive, as long as at least one line neither side
  /// changed lies between them. Changes of the same or of adjacent lines survive if both
  /// sides made the identical change, or if, merged token by token, at least one token
  /// neither side changed lies between them (a space between two edited words is enough)
  /// and the result passes the check. A region over ``maximumRegionTokens`` tokens, or
  /// whose changes touch when an insertion or deletion among equal tokens is placed
  /// elsewhere, stays a conflict.
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
  /// `theirs` deleted them, at the start of the next line (the end of the text if none). In
  /// lines merged token by token, the same holds for tokens: the cursor stays on its
  /// character in a token from `ours` or unchanged, and goes to the start of the replacement
  /// of a token `theirs` replaced.
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

  /// Merges like ``merge(ancestor:ours:theirs:)`` and, on a conflict, says why the region
  /// that conflicted could not be merged token by token.
  ///
  /// - Parameters:
  ///   - ancestor: The version both sides were edited from.
  ///   - ours: This side's version.
  ///   - theirs: The other side's version.
  /// - Returns: The outcome, and for a conflict the reason.
  @_spi(Instrumentation) public static func mergeExplained(
    ancestor: String, ours: String, theirs: String
  ) -> (outcome: Outcome, fallback: TokenFallback?) {
    let outcome = merge(ancestor: ancestor, ours: ours, theirs: theirs)
    guard outcome == .conflict else { return (outcome, nil) }
    var fallback: TokenFallback?
    _ = threeWay(
      ancestor: ancestor, ours: ours, theirs: theirs, cursor: nil, refining: true,
      fallback: &fallback)
    return (outcome, fallback)
  }
}
