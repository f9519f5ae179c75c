// NotesDatabase+Search: finding notes by words in their titles and bodies.

public import NotesCore

extension NotesDatabase {
  /// The most words of a query that are used; later words are ignored.
  public static let maximumSearchWords = 16

  /// The ids of notes whose title or body contains every word of `query`, best first.
  ///
  /// ```swift
  /// try database.search("groc list")  // notes with words starting "groc" and "list"
  /// try database.search("50% off; \"sale\"")  // special characters are just text
  /// ```
  ///
  /// ## Guarantees
  ///
  /// - Any text is a valid query: it never reaches SQL as code (it is a bound parameter) and
  ///   never reaches FTS5 as syntax (each word becomes a quoted phrase). Quotes, `;`, `%`,
  ///   `*`, `--`, `OR`, `NEAR` and non-Latin text are searched for, not interpreted.
  /// - A query is split at whitespace (and at NUL, which would end an FTS5 expression
  ///   early) into words; a note matches when it contains every word (as a word prefix with
  ///   full text; as a substring with the fallback). Full text ignores a word in which the
  ///   index's own tokenizer finds no token (FTS5's unicode61 knows Unicode 6.1 and has its
  ///   own rules for marks, so only it can say); the fallback ignores a word with no letter
  ///   or digit. A query with no words finds nothing.
  /// - Results reflect every commit persisted so far, by this or any other connection: a
  ///   full-text search first checks, in the same read snapshot as its query, whether
  ///   commits recorded changes the index does not reflect yet; if so it brings the index up
  ///   to date and queries it in one write transaction (see `FullTextIndex`).
  /// - Full text ranks by bm25 relevance (title words weigh four times body words); the
  ///   substring fallback orders newest-modified first. Both return at most `limit` ids.
  ///
  /// - Parameters:
  ///   - query: What the person typed; any text.
  ///   - limit: The most ids to return.
  /// - Returns: Matching note ids, most relevant (full text) or newest (fallback) first.
  /// - Throws: A ``NotesStorageError`` if the database cannot be read, or the full-text
  ///   index cannot be brought up to date (for instance while another process holds the
  ///   write lock for longer than the busy timeout).
  /// - Complexity: Full text: proportional to the number of matching notes, plus the text
  ///   of the notes changed since the last search (the index is brought up to date
  ///   first). Fallback: proportional to the size of all titles and bodies.
  public func search(_ query: String, limit: Int = 50) throws(NotesStorageError) -> [NoteID] {
    let connection = try openConnection()
    let words = try searchedWords(in: query, on: connection)
    guard !words.isEmpty, limit > 0 else { return [] }
    switch searchMethod {
    case .fullText:
      let expression = Self.fullTextExpression(words)
      // One snapshot for the check and the query, so a commit made in between (by
      // another connection) cannot be missed.
      let upToDate = try connection.read { () throws(NotesStorageError) -> [NoteID]? in
        if recordsIndexChanges, try FullTextIndex.hasRecordedChanges(on: connection) {
          return nil
        }
        return try Self.fullTextSearch(expression, limit: limit, in: connection)
      }
      if let upToDate { return upToDate }
      if isReadOnly { return try Self.searchInMemory(expression, limit: limit, in: connection) }
      return try connection.transaction { () throws(NotesStorageError) in
        try FullTextIndex.update(on: connection)
        return try Self.fullTextSearch(expression, limit: limit, in: connection)
      }
    case .substring:
      return try connection.withStatement(Self.substringSQL(wordCount: words.count)) {
        statement throws(NotesStorageError) in
        for (index, word) in words.enumerated() {
          try statement.bind(Self.likePattern(word), at: Int32(index + 1))
        }
        try statement.bind(Int64(limit), at: Int32(words.count + 1))
        return try Self.ids(from: statement)
      }
    }
  }

  /// The ids of up to `limit` notes matching the FTS5 `expression`, most relevant first.
  private static func fullTextSearch(
    _ expression: String, limit: Int, in connection: SQLiteConnection
  ) throws(NotesStorageError) -> [NoteID] {
    try connection.withStatement(SQL.searchFullText) { statement throws(NotesStorageError) in
      try statement.bind(expression, at: 1)
      try statement.bind(Int64(limit), at: 2)
      return try ids(from: statement)
    }
  }

  /// The ids of up to `limit` notes matching `expression`, from an index of every note
  /// built in memory: for a file opened read-only whose own index misses recorded changes
  /// it may not write.
  ///
  /// Built from the notes as they are, with the file index's tokenizer and weights, so it
  /// finds and ranks what the file's index would once brought up to date.
  /// - Complexity: Proportional to the text of every note.
  private static func searchInMemory(
    _ expression: String, limit: Int, in connection: SQLiteConnection
  ) throws(NotesStorageError) -> [NoteID] {
    try connection.run(SQL.createMemoryIndex)
    try connection.run(SQL.clearMemoryIndex)
    try connection.run(SQL.fillMemoryIndex)
    return try connection.withStatement(SQL.searchMemoryIndex) {
      statement throws(NotesStorageError) in
      try statement.bind(expression, at: 1)
      try statement.bind(Int64(limit), at: 2)
      return try ids(from: statement)
    }
  }

  /// The tokenizer of the full-text index, as its `tokenize` option names it.
  static let fullTextTokenizer = ["unicode61", "remove_diacritics", "2"]

  /// The words of `query` this library's search method looks for (see the guarantees of
  /// `search(_:limit:)`).
  func searchedWords(in query: String) throws(NotesStorageError) -> [Substring] {
    try searchedWords(in: query, on: openConnection())
  }

  private func searchedWords(
    in query: String, on connection: SQLiteConnection
  ) throws(NotesStorageError) -> [Substring] {
    var words: [Substring] = []
    for word in Self.queryWords(in: query) where words.count < Self.maximumSearchWords {
      let isSearched: Bool
      switch searchMethod {
      case .fullText:
        isSearched =
          try connection.fullTextTokenCount(in: String(word), tokenizer: Self.fullTextTokenizer)
          > 0
      case .substring:
        isSearched = word.contains { $0.isLetter || $0.isNumber }
      }
      if isSearched { words.append(word) }
    }
    return words
  }

  /// The words of a query, before either method's filter: separated by whitespace or NUL.
  ///
  /// (FTS5 reads an expression only up to a NUL, so a NUL inside a quoted word would leave
  /// the quote open.)
  ///
  /// Splitting and escaping work on Unicode scalars, not characters: a quote, NUL or `%`
  /// followed by a combining mark is one Swift `Character` but still the bare byte to
  /// SQLite (split by characters, `N"ۖ` would leave a quote unescaped).
  static func queryWords(in query: String) -> [Substring] {
    query.unicodeScalars.split { $0.properties.isWhitespace || $0 == "\0" }
      .map { Substring(String(String.UnicodeScalarView($0))) }
  }

  /// An FTS5 expression matching every word as a prefix: `"word"* "it""s"*`.
  static func fullTextExpression(_ words: [Substring]) -> String {
    words.map { "\"" + escaping($0, ["\""], with: "\"") + "\"*" }.joined(separator: " ")
  }

  /// A LIKE pattern matching `word` anywhere, with `%`, `_` and `\` escaped.
  static func likePattern(_ word: Substring) -> String {
    "%" + escaping(word, ["%", "_", "\\"], with: "\\") + "%"
  }

  /// `text` with `escape` put before every scalar in `special`.
  private static func escaping(
    _ text: Substring, _ special: Set<Unicode.Scalar>, with escape: Unicode.Scalar
  ) -> String {
    var escaped = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if special.contains(scalar) { escaped.append(escape) }
      escaped.append(scalar)
    }
    return String(escaped)
  }

  /// The fallback query for `wordCount` words; one cached statement per count.
  static func substringSQL(wordCount: Int) -> String {
    let conditions = (1...wordCount).map {
      "(title LIKE ?\($0) ESCAPE '\\' OR body LIKE ?\($0) ESCAPE '\\')"
    }
    return "SELECT id FROM notes WHERE " + conditions.joined(separator: " AND ")
      + " ORDER BY modified DESC, id DESC LIMIT ?\(wordCount + 1)"
  }

  private static func ids(from statement: Statement) throws(NotesStorageError) -> [NoteID] {
    var ids: [NoteID] = []
    while try statement.step() { ids.append(NoteID(rawValue: statement.int64(at: 0))) }
    return ids
  }
}
