// FullTextIndex: the FTS5 index over note titles and bodies, and how to tell whether this
// SQLite can have one.
//
// Guarantees
// - The index is an external-content FTS5 table (`notes_fts`, rowid = note id) that stores
//   only the inverted index, not a second copy of the text.
// - Triggers on `notes` keep it exact inside the same transaction as the row change: an
//   insert indexes the note, a delete unindexes it, and an update re-indexes it only when
//   the title or the body changed (a pin or move does not touch the index).
// - `install` builds the index from the rows already present, so a database migrated from
//   version 1, or written by an SQLite without FTS5, is searchable at once.

internal import CSQLite

/// Creates and inspects the full-text index.
enum FullTextIndex {
  /// Whether the linked SQLite library was compiled with FTS5.
  static var isAvailable: Bool { sqlite3_compileoption_used("ENABLE_FTS5") == 1 }

  /// Whether the database has the index.
  static func isInstalled(on connection: SQLiteConnection) throws(NotesStorageError) -> Bool {
    try connection.int64(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'notes_fts'") == 1
  }

  /// Creates the index and its triggers and indexes every existing note.
  ///
  /// Call inside a transaction.
  static func install(on connection: SQLiteConnection) throws(NotesStorageError) {
    try connection.execute(script: script)
  }

  private static let script = """
    CREATE VIRTUAL TABLE notes_fts USING fts5(
      title, body,
      content = 'notes', content_rowid = 'id',
      tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER notes_fts_after_insert AFTER INSERT ON notes BEGIN
      INSERT INTO notes_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
    END;
    CREATE TRIGGER notes_fts_after_delete AFTER DELETE ON notes BEGIN
      INSERT INTO notes_fts(notes_fts, rowid, title, body)
        VALUES ('delete', old.id, old.title, old.body);
    END;
    CREATE TRIGGER notes_fts_after_update AFTER UPDATE OF title, body ON notes
      WHEN old.title IS NOT new.title OR old.body IS NOT new.body
    BEGIN
      INSERT INTO notes_fts(notes_fts, rowid, title, body)
        VALUES ('delete', old.id, old.title, old.body);
      INSERT INTO notes_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
    END;
    INSERT INTO notes_fts(notes_fts) VALUES ('rebuild');
    """
}
