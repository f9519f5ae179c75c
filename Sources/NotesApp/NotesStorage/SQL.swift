/// The SQL text of every cached statement.
///
/// The statements NotesDatabase prepares once and reuses.
///
/// ## Guarantees
///
/// - Each text here is a statement-cache key: it is prepared on first use and reused for
///   the life of the connection. User input only ever reaches SQLite as a bound parameter.
/// - Column order in the SELECTs matches the readers in `NotesDatabase+Loading.swift`.
enum SQL {
  static let insertNotebook = "INSERT INTO notebooks(id, title, created) VALUES (?1, ?2, ?3)"
  /// Schema version 6 and later: with the notebook's globally unique id.
  static let insertNotebookWithUID = """
    INSERT INTO notebooks(id, title, created, uid) VALUES (?1, ?2, ?3, ?4)
    """
  static let updateNotebook = "UPDATE notebooks SET title = ?2 WHERE id = ?1"
  static let deleteNotebook = "DELETE FROM notebooks WHERE id = ?1"
  static let insertNote = """
    INSERT INTO notes(id, notebook_id, title, body, modified, pinned, created)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
    """
  /// Schema version 6 and later: with the note's globally unique id.
  static let insertNoteWithUID = """
    INSERT INTO notes(id, notebook_id, title, body, modified, pinned, created, uid)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
    """
  static let updateNote = """
    UPDATE notes SET notebook_id = ?2, title = ?3, body = ?4, modified = ?5, pinned = ?6
    WHERE id = ?1
    """
  static let deleteNote = "DELETE FROM notes WHERE id = ?1"
  static let setMeta = "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)"
  static let getMeta = "SELECT value FROM meta WHERE key = ?1"
  static let selectNotebooks = "SELECT id, title, created FROM notebooks"
  static let countNotes = "SELECT count(*) FROM notes"
  static let selectNotes = """
    SELECT id, notebook_id, title, body, created, modified, pinned FROM notes
    """
  static let selectNote = """
    SELECT id, notebook_id, title, body, created, modified, pinned FROM notes WHERE id = ?1
    """
  static let searchFullText = """
    SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?1
    ORDER BY bm25(notes_fts, 4.0, 1.0) LIMIT ?2
    """
  /// An index in memory (the temp schema, kept in memory), like `notes_fts` but holding
  /// its own copy of the text: for searching a file opened read-only.
  static let createMemoryIndex = """
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.notes_fts_memory USING fts5(
      title, body, tokenize = 'unicode61 remove_diacritics 2'
    )
    """
  static let clearMemoryIndex = "DELETE FROM temp.notes_fts_memory"
  static let fillMemoryIndex = """
    INSERT INTO temp.notes_fts_memory(rowid, title, body) SELECT id, title, body FROM main.notes
    """
  static let searchMemoryIndex = """
    SELECT rowid FROM temp.notes_fts_memory WHERE notes_fts_memory MATCH ?1
    ORDER BY bm25(notes_fts_memory, 4.0, 1.0) LIMIT ?2
    """
  static let tableExists = """
    SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1
    """
  static let hasRecordedChanges = "SELECT EXISTS (SELECT 1 FROM notes_fts_pending)"
  /// Removes from the index exactly what it holds for each recorded note.
  static let unindexRecordedNotes = """
    INSERT INTO notes_fts(notes_fts, rowid, title, body)
    SELECT 'delete', note_id, old_title, old_body FROM notes_fts_pending
    WHERE old_title IS NOT NULL
    """
  /// Indexes the current title and body of each recorded note that still exists.
  ///
  /// CROSS JOIN keeps the record as the outer loop: the work is proportional to it, not
  /// to the library.
  static let indexRecordedNotes = """
    INSERT INTO notes_fts(rowid, title, body)
    SELECT notes.id, notes.title, notes.body
    FROM notes_fts_pending CROSS JOIN notes ON notes.id = notes_fts_pending.note_id
    """
  static let clearRecordedChanges = "DELETE FROM notes_fts_pending"
}

/// The keys of the `meta` table.
enum MetaKey {
  /// The largest id given to a notebook or note (INTEGER).
  static let lastAssignedID = "lastAssignedID"
  /// When the last sync finished, seconds since 1970 (REAL), or NULL.
  static let lastSynced = "lastSynced"
  /// This library's device id for sync, a UUID (TEXT); schema version 6 and later.
  static let deviceID = "deviceID"
  /// The sync server's connection string (TEXT), or absent when sync is not set up.
  static let syncServer = "syncServer"
  /// The server sequence number up to which this library has pulled (INTEGER).
  static let syncCursor = "syncCursor"
  /// When note history was last thinned, seconds since 2001 (REAL); schema version 10 and
  /// later.
  static let historyThinned = "historyThinned"
  /// How many days the library keeps deleted notes (INTEGER), or absent for
  /// `RecentlyDeleted.defaultDays`.
  static let recentlyDeletedDays = "recentlyDeletedDays"
}
