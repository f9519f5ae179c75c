import NotesCore

/// What changed from a kept version of a note to its text now, as every presentation shows
/// it: the changed lines, each with the lines beside it, and a gap between runs far apart.
///
/// ```swift
/// let comparison = VersionComparison(from: version.body, to: editorState.body)
/// for line in comparison.lines { print(line.marked) }   // "- milk", "+ bread", "…"
/// ```
///
/// ## Guarantees
/// - Lines are compared as the merge compares them (`LineMerge.differences(from:to:)`):
///   split at "\n" only, byte for byte; in a replaced run, removed lines come first.
/// - A line is shown when it changed or a line beside it did (``context`` lines on each
///   side); lines left out between two shown runs become one ``Line/gap``, and none is
///   shown before the first run or after the last.
/// - Within a replaced run of as many removed lines as added ones, each removed line is
///   compared word by word with the added line in its place
///   (`LineMerge.wordDifferences(from:to:)`): the words only one of the two has are its
///   `changed` ranges, when the two lines kept a word. Other changed lines have none: the
///   whole line changed.
/// - A version whose text is the note's text now has no lines (``isUnchanged``).
public struct VersionComparison: Equatable, Sendable {
  /// One line of the comparison.
  public enum Line: Equatable, Sendable {
    /// A line both texts have, shown beside a change.
    case kept(String)
    /// A line only the version has: the note lost it since. `changed` are the words that
    /// went, when the line was replaced by one that kept the others.
    case removed(String, changed: [Range<String.Index>] = [])
    /// A line only the text now has: the note gained it since. `changed` are the words that
    /// came, when the line replaced one whose other words it kept.
    case added(String, changed: [Range<String.Index>] = [])
    /// Lines left out, none of them changed.
    case gap

    /// The words of a replaced line that changed, in order; none for other lines.
    public var changedWords: [Substring] {
      switch self {
      case .removed(let text, let changed), .added(let text, let changed):
        changed.map { text[$0] }
      case .kept, .gap: []
      }
    }

    /// The line with its marker, as a plain-text presentation shows it: "  " kept, "- "
    /// removed, "+ " added, "…" for a gap.
    public var marked: String {
      switch self {
      case .kept(let text): "  " + text
      case .removed(let text, _): "- " + text
      case .added(let text, _): "+ " + text
      case .gap: "…"
      }
    }
  }

  /// How many unchanged lines are shown on each side of a change.
  public static let context = 1

  /// What a presentation says above the lines.
  public static let heading = "From this version to the text now:"

  /// What a presentation says for a version without changes.
  public static let unchangedSentence = "Its text is the note's text now."

  /// The lines shown, in order.
  public let lines: [Line]

  /// Whether the version's text is the text now.
  public var isUnchanged: Bool { lines.isEmpty }

  /// Compares a version's text with the text now.
  ///
  /// - Parameters:
  ///   - version: The kept version's text.
  ///   - now: The note's text now.
  /// - Complexity: O((N + M)·D) for N and M lines of which D differ.
  public init(from version: String, to now: String) {
    let differences = LineMerge.differences(from: version, to: now)
    var shown = [Bool](repeating: false, count: differences.count)
    for (index, difference) in differences.enumerated() {
      if case .kept = difference { continue }
      let near = max(0, index - Self.context)...min(differences.count - 1, index + Self.context)
      for index in near { shown[index] = true }
    }
    let words = Self.changedWords(differences)
    var lines: [Line] = []
    var last: Int?
    for index in differences.indices where shown[index] {
      if let last, index > last + 1 { lines.append(.gap) }
      last = index
      switch differences[index] {
      case .kept(let text): lines.append(.kept(text))
      case .removed(let text): lines.append(.removed(text, changed: words[index] ?? []))
      case .added(let text): lines.append(.added(text, changed: words[index] ?? []))
      }
    }
    self.lines = lines
  }

  /// The changed words of each line of a replaced run of as many removed lines as added
  /// ones, by the line's index in `differences`.
  private static func changedWords(
    _ differences: [LineMerge.LineDifference]
  ) -> [Int: [Range<String.Index>]] {
    var words: [Int: [Range<String.Index>]] = [:]
    var index = 0
    while index < differences.count {
      var removed: [(Int, String)] = []
      while index < differences.count, case .removed(let text) = differences[index] {
        removed.append((index, text))
        index += 1
      }
      var added: [(Int, String)] = []
      while index < differences.count, case .added(let text) = differences[index] {
        added.append((index, text))
        index += 1
      }
      if removed.isEmpty, added.isEmpty { index += 1 }
      guard !removed.isEmpty, removed.count == added.count else { continue }
      for ((old, oldText), (new, newText)) in zip(removed, added) {
        var oldRanges: [Range<String.Index>] = []
        var newRanges: [Range<String.Index>] = []
        let runs = LineMerge.wordDifferences(from: oldText, to: newText)
        // A pair that kept no word is two different lines: the whole of each changed.
        let keepsAWord = runs.contains { run in
          if case .kept(let text) = run { text.contains { !$0.isWhitespace } } else { false }
        }
        guard keepsAWord else { continue }
        var oldAt = oldText.startIndex
        var newAt = newText.startIndex
        for run in runs {
          switch run {
          case .kept(let text):
            oldAt = oldText.utf8.index(oldAt, offsetBy: text.utf8.count)
            newAt = newText.utf8.index(newAt, offsetBy: text.utf8.count)
          case .removed(let text):
            let end = oldText.utf8.index(oldAt, offsetBy: text.utf8.count)
            oldRanges.append(oldAt..<end)
            oldAt = end
          case .added(let text):
            let end = newText.utf8.index(newAt, offsetBy: text.utf8.count)
            newRanges.append(newAt..<end)
            newAt = end
          }
        }
        words[old] = oldRanges
        words[new] = newRanges
      }
    }
    return words
  }
}
