extension NotesDatabase {
  /// How ``NotesDatabase/search(_:limit:)`` finds notes.
  ///
  /// ## Guarantees
  ///
  /// - Decided once when the database opens: full text if the file has the FTS5 index,
  ///   otherwise substring matching. Both accept any text without error.
  public enum SearchMethod: Sendable {
    /// The FTS5 index: word-prefix matching, ranked by relevance (bm25, titles weigh
    /// more), case- and accent-insensitive. Cost grows with the number of matches.
    case fullText
    /// The fallback when the SQLite library lacks FTS5: case-insensitive (ASCII only)
    /// substring matching with `LIKE`, newest first.
    ///
    /// Every search reads every note's title and body: about linear in the library's
    /// text size (tens of milliseconds for 100,000 notes).
    case substring
  }
}
