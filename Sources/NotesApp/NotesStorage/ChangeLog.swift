/// What each commit changed, recorded in the commit's own transaction, so other processes on the
/// same library can follow it.
///
/// ## Guarantees
///
/// - Every commit through `NotesDatabase.persist` appends one entry per changed row (a
///   notebook, a note) and one for the library's metadata when it changed, in the same
///   transaction as the rows: the log and the rows never disagree, even after a crash.
/// - Entries are numbered by `seq`, which only grows: a reader that has seen everything up
///   to its cursor needs exactly the entries after it. `seq` is the table's rowid, so a new
///   entry gets the largest `seq` plus one; trimming removes only old entries, never the
///   newest, so the head (the largest `seq`) never goes back. No AUTOINCREMENT: it would
///   write the head to `sqlite_sequence` in every commit, a page more in the log, for a
///   guarantee the trimming rule already gives.
/// - Trimming rule: after every 128th entry, entries more than `keptEntries` behind the
///   head are deleted. A reader whose cursor is older than the oldest kept entry (it slept
///   through more than `keptEntries` changes) reads the whole library instead; nothing is
///   ever missed, it only costs a full read.
enum ChangeLog {
  /// How many entries the log keeps behind its head.
  static let keptEntries: Int64 = 1_000
  /// How often, in entries, the log is trimmed.
  static let trimInterval: Int64 = 128

  /// What a change log entry is about.
  enum Entity: String {
    case notebook
    case note
    case meta
    /// A note in Recently Deleted (`deleted_notes`), by its id.
    case deletedNote = "deleted_note"
  }

  /// The table as migration 5 created it (AUTOINCREMENT); migration 8 rebuilds it with
  /// ``rowidScript``.
  static let createScript = """
    CREATE TABLE change_log(
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      writer TEXT NOT NULL,
      entity TEXT NOT NULL,
      row_id INTEGER NOT NULL,
      kind TEXT NOT NULL
    );
    """

  /// Migration 8: the same table numbered by its rowid, every entry and the head kept.
  ///
  /// An entry stands in for the head if the log had none at it (a head can only run ahead of
  /// the entries if the newest were deleted, which nothing does; kept for safety): a reader
  /// that applies it reloads the library's metadata, which is harmless.
  static let rowidScript = """
    CREATE TABLE change_log_by_rowid(
      seq INTEGER PRIMARY KEY,
      writer TEXT NOT NULL,
      entity TEXT NOT NULL,
      row_id INTEGER NOT NULL,
      kind TEXT NOT NULL
    );
    INSERT INTO change_log_by_rowid(seq, writer, entity, row_id, kind)
      SELECT seq, writer, entity, row_id, kind FROM change_log;
    INSERT INTO change_log_by_rowid(seq, writer, entity, row_id, kind)
      SELECT seq, 'migration', 'meta', 0, 'update' FROM sqlite_sequence
      WHERE name = 'change_log'
        AND seq > (SELECT coalesce(max(seq), 0) FROM change_log_by_rowid);
    DROP TABLE change_log;
    ALTER TABLE change_log_by_rowid RENAME TO change_log;
    """

  static let append = """
    INSERT INTO change_log(writer, entity, row_id, kind) VALUES (?1, ?2, ?3, ?4)
    """

  static let changedRows = """
    SELECT DISTINCT entity, row_id FROM change_log WHERE seq > ?1
    """

  /// The largest `seq` ever given, 0 for an empty log (one step down the rowid's b-tree).
  static func head(on connection: SQLiteConnection) throws(NotesStorageError) -> Int64 {
    try connection.int64("SELECT max(seq) FROM change_log") ?? 0
  }

  /// The smallest `seq` still in the log, or `nil` when it is empty.
  static func oldest(on connection: SQLiteConnection) throws(NotesStorageError) -> Int64? {
    try connection.int64("SELECT min(seq) FROM change_log")
  }

  /// Appends one entry.
  static func record(
    _ entity: Entity, id: Int64, kind: String, writer: String,
    on connection: SQLiteConnection
  ) throws(NotesStorageError) {
    try connection.withStatement(append) { statement throws(NotesStorageError) in
      try statement.bind(writer, at: 1)
      try statement.bind(entity.rawValue, at: 2)
      try statement.bind(id, at: 3)
      try statement.bind(kind, at: 4)
      try statement.step()
    }
  }

  /// Trims the log if `head` crossed a trim interval since `previousHead`.
  static func trimIfDue(
    head: Int64, previousHead: Int64, on connection: SQLiteConnection
  ) throws(NotesStorageError) {
    guard head / trimInterval != previousHead / trimInterval else { return }
    try connection.run("DELETE FROM change_log WHERE seq <= \(head - keptEntries)")
  }

  /// The rows changed by the entries after `cursor`.
  static func rows(
    since cursor: Int64, on connection: SQLiteConnection
  ) throws(NotesStorageError) -> ChangedRows {
    try connection.withStatement(changedRows) { statement throws(NotesStorageError) in
      try statement.bind(cursor, at: 1)
      var rows = ChangedRows()
      while try statement.step() {
        let id = statement.int64(at: 1)
        switch Entity(rawValue: statement.string(at: 0)) {
        case .notebook: rows.notebooks.insert(id)
        case .note: rows.notes.insert(id)
        case .deletedNote: rows.deletedNotes.insert(id)
        case .meta, nil: rows.meta = true
        }
      }
      return rows
    }
  }
}

extension ChangeLog {
  /// The rows a run of entries changed, by table.
  struct ChangedRows {
    var notebooks = Set<Int64>()
    var notes = Set<Int64>()
    var deletedNotes = Set<Int64>()
    /// Whether an entry was about the meta table (or of a kind this version does not know).
    var meta = false
  }
}
