internal import CSQLite

/// Creates, inspects and updates the full-text index.
///
/// The FTS5 index over note titles and bodies, how it is kept current, and how to tell whether this
/// SQLite can have one.
///
/// ## Guarantees
///
/// - The index is an external-content FTS5 table (`notes_fts`, rowid = note id) that stores
///   only the inverted index, not a second copy of the text.
/// - Since schema version 4 a commit does not tokenize anything. Triggers on `notes` record,
///   in the commit's own transaction, which notes the index no longer matches, in
///   `notes_fts_pending`: one row per note, holding the title and body the index holds
///   for it (NULL when it holds nothing). The first change to a note since the last
///   update records them; later changes find the row and leave it alone. An update that
///   changes neither title, body nor id (a pin, a move) records nothing.
/// - `update` brings the index up to date in one statement batch: it removes what each
///   recorded row says the index holds, adds the note's current title and body if the
///   note still exists, and empties the table. The caller runs it in a write transaction.
/// - So at every commit, and after a crash at any moment, this holds: for a note id with a
///   recorded row the index holds exactly that row's old title and body (or nothing);
///   for every other id it holds exactly the note's current row (or nothing). FTS5 is
///   therefore only ever told to remove text it indexed, which is what keeps an
///   external-content index from being corrupted. A writer must not change `notes`
///   with REPLACE (its implicit delete fires no trigger); NotesDatabase never does.
/// - `install` builds the index from the rows already present, so a database migrated from
///   version 1, or written by an SQLite without FTS5, is searchable at once. It creates
///   what the file's schema version has: version 2's self-updating triggers (released
///   SQL, never edited), then, from version 4, the recorded-changes design above.
enum FullTextIndex {
  /// Whether the linked SQLite library was compiled with FTS5.
  static var isAvailable: Bool { sqlite3_compileoption_used("ENABLE_FTS5") == 1 }

  /// Whether the database has the index.
  static func isInstalled(on connection: SQLiteConnection) throws(NotesStorageError) -> Bool {
    try tableExists("notes_fts", on: connection)
  }

  /// Whether the index is updated from recorded changes (schema version 4 and later).
  ///
  /// Without it, the version-2 triggers update the index inside every commit.
  static func recordsChanges(on connection: SQLiteConnection) throws(NotesStorageError) -> Bool {
    try tableExists("notes_fts_pending", on: connection)
  }

  /// Creates the index as a file at `schemaVersion` has it and indexes every existing note.
  ///
  /// Call inside a transaction, on a file without the index.
  static func install(
    on connection: SQLiteConnection, schemaVersion: Int32
  ) throws(NotesStorageError) {
    try connection.execute(script: version2Script)
    if schemaVersion >= Migration.updateFullTextIndexBeforeSearch.rawValue {
      try recordChanges(on: connection)
    }
  }

  /// Replaces version 2's self-updating triggers by triggers that record changes.
  ///
  /// Call inside a transaction, on a file whose index is exact (as version 2's triggers
  /// keep it), so an empty record is correct.
  static func recordChanges(on connection: SQLiteConnection) throws(NotesStorageError) {
    try connection.execute(script: version4Script)
  }

  /// Whether changes are recorded that the index does not reflect yet.
  ///
  /// Only for a file where ``recordsChanges(on:)`` is true.
  static func hasRecordedChanges(on connection: SQLiteConnection) throws(NotesStorageError)
    -> Bool
  {
    try connection.int64(SQL.hasRecordedChanges) == 1
  }

  /// Brings the index up to date with every recorded change and clears the record.
  ///
  /// Call inside a write transaction, on a file where ``recordsChanges(on:)`` is true.
  /// - Complexity: Proportional to the text of the notes changed since the last update.
  static func update(on connection: SQLiteConnection) throws(NotesStorageError) {
    try connection.run(SQL.unindexRecordedNotes)
    try connection.run(SQL.indexRecordedNotes)
    try connection.run(SQL.clearRecordedChanges)
  }

  private static func tableExists(
    _ name: String, on connection: SQLiteConnection
  ) throws(NotesStorageError) -> Bool {
    try connection.withStatement(SQL.tableExists) { statement throws(NotesStorageError) in
      try statement.bind(name, at: 1)
      return try statement.step() && statement.int64(at: 0) == 1
    }
  }

  /// The index of schema version 2, with triggers that update it inside every commit.
  ///
  /// Released SQL: never edit it (version 4 replaces the triggers).
  private static let version2Script = """
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

  /// Schema version 4: the record of changes and the triggers that write it.
  ///
  /// `INSERT OR IGNORE` keeps a note's first recorded values: what the index still holds.
  /// An inserted note's index entry is NULL (nothing indexed yet). An update that changes
  /// the id records the old id's values and the new id as not indexed. Released SQL:
  /// never edit it.
  private static let version4Script = """
    DROP TRIGGER IF EXISTS notes_fts_after_insert;
    DROP TRIGGER IF EXISTS notes_fts_after_delete;
    DROP TRIGGER IF EXISTS notes_fts_after_update;
    CREATE TABLE notes_fts_pending(
      note_id INTEGER PRIMARY KEY,
      old_title TEXT,
      old_body TEXT
    );
    CREATE TRIGGER notes_fts_pending_after_insert AFTER INSERT ON notes BEGIN
      INSERT OR IGNORE INTO notes_fts_pending VALUES (new.id, NULL, NULL);
    END;
    CREATE TRIGGER notes_fts_pending_after_delete AFTER DELETE ON notes BEGIN
      INSERT OR IGNORE INTO notes_fts_pending VALUES (old.id, old.title, old.body);
    END;
    CREATE TRIGGER notes_fts_pending_after_update AFTER UPDATE OF id, title, body ON notes
      WHEN old.id IS NOT new.id OR old.title IS NOT new.title OR old.body IS NOT new.body
    BEGIN
      INSERT OR IGNORE INTO notes_fts_pending VALUES (old.id, old.title, old.body);
      INSERT OR IGNORE INTO notes_fts_pending VALUES (new.id, NULL, NULL);
    END;
    """
}
