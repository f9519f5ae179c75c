import Airframe
import Foundation

/// The search filter: a notebook and a search text as the lens's keyed filter.
///
/// The filter's closures are formed outside the main actor (these functions are
/// nonisolated), so calling them for every row makes no isolation check.
extension NoteListController {
  nonisolated static func filter(_ notebook: NotebookID?, _ search: String)
    -> ListFilter<NoteRow>
  {
    let words = matchedWords(in: search)
    let key = FilterKey(notebook: notebook, words: words)
    let matchers = words.map(WordMatcher.init)
    switch (notebook, matchers.count) {
    case (nil, 0): return .all
    case (let notebook?, 0): return ListFilter(key: key) { $0.notebookID == notebook }
    // One word (every key of a first word) is matched without walking an array of
    // matchers, whose elements' references would be retained for every row.
    case (nil, 1):
      let matcher = matchers[0]
      return ListFilter(key: key) { matcher.matches($0) }
    case (let notebook?, 1):
      let matcher = matchers[0]
      return ListFilter(key: key) { $0.notebookID == notebook && matcher.matches($0) }
    case (nil, _):
      return ListFilter(key: key) { row in Self.all(matchers, match: row) }
    case (let notebook?, _):
      return ListFilter(key: key) { row in
        row.notebookID == notebook && Self.all(matchers, match: row)
      }
    }
  }

  /// Whether every matcher matches `row`, reading the matchers in place.
  private nonisolated static func all(_ matchers: [WordMatcher], match row: NoteRow) -> Bool {
    matchers.withUnsafeBufferPointer { matchers in
      for index in matchers.indices where !matchers[index].matches(row) { return false }
      return true
    }
  }

  /// The words a search looks for: its words, or (for a search with only punctuation or
  /// symbols, such as "%") its trimmed text; none for an empty search.
  nonisolated static func matchedWords(in search: String) -> [String] {
    let words = searchWords(in: search)
    guard words.isEmpty else { return words }
    let trimmed = search.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? [] : [trimmed]
  }

  /// The words of a search text: its runs of letters and digits.
  ///
  /// - Parameter search: The search text.
  /// - Returns: The words, in order.
  public nonisolated static func searchWords(in search: String) -> [String] {
    search.split { !$0.isLetter && !$0.isNumber }.map(String.init)
  }
}
