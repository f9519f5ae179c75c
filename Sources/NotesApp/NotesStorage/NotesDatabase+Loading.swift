// NotesDatabase+Loading: reading the whole library into a `NotesState`.

internal import Foundation
public import NotesCore

extension NotesDatabase {
  /// Reads every notebook and note, the last assigned id and the last sync time.
  ///
  /// ## Guarantees
  ///
  /// - The state is read inside one read transaction, so it is one consistent snapshot even
  ///   if another process writes meanwhile.
  /// - Each table is read by one cached SELECT, column by column; per note the only
  ///   allocations are the note's own strings.
  /// - The loaded sync status is `.idle(lastSynced:)` with the stored date; the last assigned
  ///   id is the stored one, or the largest id present if that is larger.
  ///
  /// - Returns: The stored state; its sync status is always `.idle(lastSynced:)`.
  /// - Throws: A ``NotesStorageError`` if the file cannot be read.
  /// - Complexity: O(*n*) in the number of rows.
  public func loadState() throws(NotesStorageError) -> NotesState {
    let connection = try openConnection()
    return try connection.read { () throws(NotesStorageError) in
      // The state read here includes every change the log holds so far.
      if keepsChangeLog {
        cursor = try ChangeLog.head(on: connection)
        dataVersion = try connection.int64("PRAGMA data_version") ?? 0
      }
      let lastAssignedID = try Self.meta(MetaKey.lastAssignedID, in: connection) {
        $0.int64(at: 0)
      }
      let lastSynced = try Self.meta(MetaKey.lastSynced, in: connection) {
        dates.date($0.double(at: 0))
      }
      let days = try Self.recentlyDeletedDays(in: connection)
      let notebooks = try Self.readNotebooks(connection, dates: dates)
      let notes = try Self.readNotes(connection, dates: dates)
      let deleted = hasRecentlyDeleted ? try Self.readDeletedNotes(connection, dates: dates) : []
      var state = NotesState(
        notebooks: notebooks, notes: notes, recentlyDeleted: deleted,
        sync: .idle(lastSynced: lastSynced), lastAssignedID: lastAssignedID)
      state.recentlyDeletedDays = days
      return state
    }
  }

  /// How many days the library keeps deleted notes: as stored, when it is a number the
  /// app allows (another program may have written anything), else the default.
  static func recentlyDeletedDays(
    in connection: SQLiteConnection
  ) throws(NotesStorageError) -> Int {
    let stored = try meta(MetaKey.recentlyDeletedDays, in: connection) { $0.int64(at: 0) }
    guard let stored, let days = Int(exactly: stored), RecentlyDeleted.allowedDays.contains(days)
    else { return RecentlyDeleted.defaultDays }
    return days
  }

  static func meta<Value>(
    _ key: String, in connection: SQLiteConnection, read: (Statement) -> Value
  ) throws(NotesStorageError) -> Value? {
    try connection.withStatement(SQL.getMeta) { statement throws(NotesStorageError) in
      try statement.bind(key, at: 1)
      guard try statement.step(), !statement.isNull(at: 0) else { return nil }
      return read(statement)
    }
  }

  static func readNotebooks(
    _ connection: SQLiteConnection, dates: StoredDates
  ) throws(NotesStorageError) -> [Notebook] {
    try connection.withStatement(SQL.selectNotebooks) { statement throws(NotesStorageError) in
      var notebooks: [Notebook] = []
      while try statement.step() {
        notebooks.append(
          Notebook(
            id: NotebookID(rawValue: statement.int64(at: 0)),
            title: statement.string(at: 1),
            created: dates.date(statement.double(at: 2))))
      }
      return notebooks
    }
  }

  static func readNotes(
    _ connection: SQLiteConnection, dates: StoredDates
  ) throws(NotesStorageError) -> [Note] {
    var notes: [Note] = []
    notes.reserveCapacity(Int(try connection.int64(SQL.countNotes) ?? 0))
    try connection.withStatement(SQL.selectNotes) { statement throws(NotesStorageError) in
      while try statement.step() { notes.append(note(at: statement, dates: dates)) }
    }
    return notes
  }

  /// The note in the current row of a statement whose columns are those of
  /// `SQL.selectNotes`.
  static func note(at statement: Statement, dates: StoredDates) -> Note {
    Note(
      id: NoteID(rawValue: statement.int64(at: 0)),
      notebookID: NotebookID(rawValue: statement.int64(at: 1)),
      title: statement.string(at: 2),
      body: statement.string(at: 3),
      created: dates.date(statement.double(at: 4)),
      modified: dates.date(statement.double(at: 5)),
      isPinned: statement.int64(at: 6) != 0)
  }
}
