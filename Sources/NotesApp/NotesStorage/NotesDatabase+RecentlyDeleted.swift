// NotesDatabase+RecentlyDeleted: the notes in Recently Deleted, in the `deleted_notes` table.
//
// A deleted note's row moves from `notes` to `deleted_notes` in the commit that deletes it,
// with its uid: restoring it (in this library, or on another device, which syncs the note
// back under that uid) puts it back as the same entity, so sync sees one note deleted and
// brought back, not a new one.

public import NotesCore

extension SQL {
  /// Migration 9: Recently Deleted.
  static let recentlyDeletedScript = """
    CREATE TABLE deleted_notes(
      id INTEGER PRIMARY KEY,
      notebook_id INTEGER NOT NULL,
      title TEXT NOT NULL,
      body TEXT NOT NULL,
      created REAL NOT NULL,
      modified REAL NOT NULL,
      pinned INTEGER NOT NULL,
      notebook_title TEXT NOT NULL,
      deleted REAL NOT NULL,
      uid TEXT
    );
    CREATE INDEX deleted_notes_by_uid ON deleted_notes(uid);
    """

  /// An entry written from the model: the uid is the note's (deleted in the same commit,
  /// after this), or the entry's own when it is only written again.
  static let upsertDeletedNote = """
    INSERT OR REPLACE INTO deleted_notes(
      id, notebook_id, title, body, modified, pinned, created, notebook_title, deleted, uid)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, COALESCE(
      (SELECT uid FROM notes WHERE id = ?1), (SELECT uid FROM deleted_notes WHERE id = ?1)))
    """
  static let deleteDeletedNote = "DELETE FROM deleted_notes WHERE id = ?1"
  /// A note written from the model: a restored one takes back its uid.
  static let insertNoteRestoringUID = """
    INSERT INTO notes(id, notebook_id, title, body, modified, pinned, created, uid)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,
      COALESCE((SELECT uid FROM deleted_notes WHERE id = ?1), ?8))
    """
  /// A note deleted on another device (pulled), kept as this library last had it:
  /// ?1 its id, ?2 when the deletion arrived.
  static let keepPulledDeletion = """
    INSERT OR REPLACE INTO deleted_notes(
      id, notebook_id, title, body, created, modified, pinned, notebook_title, deleted, uid)
    SELECT n.id, n.notebook_id, n.title, n.body, n.created, n.modified, n.pinned,
      COALESCE(b.title, ''), ?2, n.uid
    FROM notes n LEFT JOIN notebooks b ON b.id = n.notebook_id WHERE n.id = ?1
    """
  static let selectDeletedNotes = """
    SELECT id, notebook_id, title, body, created, modified, pinned, notebook_title, deleted
    FROM deleted_notes
    """
  static let selectDeletedNote = selectDeletedNotes + " WHERE id = ?1"
}

extension NotesDatabase {
  /// Every note in Recently Deleted.
  static func readDeletedNotes(
    _ connection: SQLiteConnection, dates: StoredDates
  ) throws(NotesStorageError) -> [DeletedNote] {
    try connection.withStatement(SQL.selectDeletedNotes) { statement throws(NotesStorageError) in
      var entries: [DeletedNote] = []
      while try statement.step() { entries.append(deletedNote(at: statement, dates: dates)) }
      return entries
    }
  }

  /// The entries with `ids` as stored, `nil` for each one that is no longer there.
  static func readDeletedNotes(
    ids: Set<Int64>, connection: SQLiteConnection, dates: StoredDates
  ) throws(NotesStorageError) -> [NoteID: DeletedNote?] {
    try connection.withStatement(SQL.selectDeletedNote) {
      statement throws(NotesStorageError) -> [NoteID: DeletedNote?] in
      var rows: [NoteID: DeletedNote?] = [:]
      for id in ids {
        statement.reset()
        try statement.bind(id, at: 1)
        rows[NoteID(rawValue: id)] = .some(
          try statement.step() ? deletedNote(at: statement, dates: dates) : nil)
      }
      return rows
    }
  }

  /// The entry in the current row of a statement with the columns of
  /// `SQL.selectDeletedNotes`.
  static func deletedNote(at statement: Statement, dates: StoredDates) -> DeletedNote {
    DeletedNote(
      note: note(at: statement, dates: dates), notebookTitle: statement.string(at: 7),
      deleted: dates.date(statement.double(at: 8)))
  }

  /// Writes `entry` (before its note's row is deleted, whose uid it takes).
  func write(_ entry: DeletedNote, into connection: SQLiteConnection) throws(NotesStorageError) {
    try connection.withStatement(SQL.upsertDeletedNote) { statement throws(NotesStorageError) in
      try bindColumns(of: entry.note, to: statement)
      try statement.bind(dates.value(entry.note.created), at: 7)
      try statement.bind(entry.notebookTitle, at: 8)
      try statement.bind(dates.value(entry.deleted), at: 9)
      try statement.step()
    }
  }

  /// The notes in Recently Deleted, read from the file (empty for a file whose schema has
  /// none), for a program that does not load the library.
  ///
  /// - Returns: Every entry, in no particular order.
  /// - Throws: A ``NotesStorageError`` if the file cannot be read.
  public func recentlyDeletedNotes() throws(NotesStorageError) -> [DeletedNote] {
    guard hasRecentlyDeleted else { return [] }
    let connection = try openConnection()
    let dates = dates
    return try connection.read { () throws(NotesStorageError) in
      try Self.readDeletedNotes(connection, dates: dates)
    }
  }
}
