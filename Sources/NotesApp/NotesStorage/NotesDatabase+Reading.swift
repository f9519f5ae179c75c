// NotesDatabase+Reading: reading notes and the notebooks without loading the library into
// a state, for commands that print what they read once (`notes show`, `notes search`,
// `notes list`).

public import NotesCore

extension NotesDatabase {
  /// The notes with the given ids that exist, in the order of `ids`, and every notebook.
  ///
  /// ## Guarantees
  ///
  /// - Each read is one consistent snapshot (one read transaction) and costs what it reads:
  ///   a note by its primary key, the notebooks table (small); only `allNotes()` reads every
  ///   note, into a plain list (no tables keyed by id are built).
  /// - Rows come back as the same values `loadState()` builds.
  ///
  /// - Parameter ids: The notes to read; ids with no note are skipped.
  /// - Returns: The notes found, and the notebooks (to name each note's notebook).
  /// - Throws: A ``NotesStorageError`` if the file cannot be read.
  /// - Complexity: O(*k* log *n*) for *k* ids among *n* notes, plus the notebooks.
  public func notes(
    withIDs ids: [NoteID]
  ) throws(NotesStorageError) -> (notes: [Note], notebooks: [Notebook]) {
    let connection = try openConnection()
    let dates = dates
    return try connection.read { () throws(NotesStorageError) in
      let notebooks = try Self.readNotebooks(connection, dates: dates)
      let notes = try connection.withStatement(SQL.selectNote) {
        statement throws(NotesStorageError) -> [Note] in
        var notes: [Note] = []
        notes.reserveCapacity(ids.count)
        for id in ids {
          statement.reset()
          try statement.bind(id.rawValue, at: 1)
          if try statement.step() { notes.append(Self.note(at: statement, dates: dates)) }
        }
        return notes
      }
      return (notes, notebooks)
    }
  }

  /// Every note and every notebook, as lists.
  ///
  /// What ``loadState()`` reads, without building a state's tables keyed by id: for a
  /// command that prints the library once.
  ///
  /// - Returns: The notes (in no particular order) and the notebooks.
  /// - Throws: A ``NotesStorageError`` if the file cannot be read.
  /// - Complexity: O(*n*) in the number of rows.
  public func allNotes() throws(NotesStorageError) -> (notes: [Note], notebooks: [Notebook]) {
    let connection = try openConnection()
    let dates = dates
    return try connection.read { () throws(NotesStorageError) in
      (
        try Self.readNotes(connection, dates: dates),
        try Self.readNotebooks(connection, dates: dates)
      )
    }
  }
}
