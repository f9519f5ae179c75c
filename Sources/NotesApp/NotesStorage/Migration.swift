/// One step of the schema's history; `rawValue` is the version it produces.
///
/// The cases, in order, bring a notes database from any earlier schema version to the current one.
///
/// ## Guarantees
///
/// - The schema version lives in `PRAGMA user_version`: 0 for an empty file, N after
///   migration N. Migrations run in ascending order, each in its own BEGIN IMMEDIATE
///   transaction together with the version bump, so a database is always exactly at one
///   version; a failed migration rolls back to the previous version.
/// - The version is re-read inside each migration's transaction, so two processes opening
///   the same old file never run a migration twice.
/// - A migration never deletes user data. Migrations are append-only: a released
///   migration's SQL is never edited; a change is a new case.
/// - Migration 2 creates the full-text index only if this SQLite has FTS5; without it the
///   version still becomes 2 and search uses the documented LIKE fallback. The index is
///   created later, when the file is opened by an SQLite that has FTS5
///   (see `FullTextIndex.install`).
/// - Migration 4 replaces the triggers that updated the index inside every commit by
///   triggers that record which notes changed; the index is brought up to date before each
///   search (see `FullTextIndex`). The old triggers kept the index exact, so the record
///   starts empty. A file without the index is left alone: it gets the version-4 design
///   when an SQLite with FTS5 installs the index.
/// - Migration 5 adds the change log (see `ChangeLog`), empty: a process that opens the file
///   afterwards reads the whole library once, as every process does on open.
/// - Migration 6 gives every notebook and note a globally unique id (`uid`, a random UUID
///   for rows that exist; new rows get a time-ordered one), the library a device id, and
///   adds sync's bookkeeping (see `SyncBookkeeping`). Every existing row is marked as not
///   yet on a server, so the first sync pushes the whole library. Nothing is removed.
/// - Migration 7 adds `sync_kept_aside`, empty: where versions pulled from the server that
///   break the app's rules are kept aside with their reasons (see `SyncBookkeeping`).
/// - Migration 8 numbers the change log by its rowid instead of AUTOINCREMENT, keeping
///   every entry and the head (see `ChangeLog`): one page less in every commit.
/// - Migration 9 adds Recently Deleted (`deleted_notes`), empty.
/// - Migration 10 adds note history (`note_versions`, see `NoteVersionTable`), empty: a
///   note's history starts with its first change after it.
enum Migration: Int32, CaseIterable {
  /// Tables for notebooks, notes and metadata (last assigned id, last sync time).
  case createTables = 1
  /// The FTS5 index over note titles and bodies, kept current by triggers in every commit.
  case addFullTextIndex = 2
  /// Dates as seconds since 2001 (`Date`'s reference date) instead of 1970, so every
  /// date reads back exactly as it was written.
  case storeDatesExactly = 3
  /// The full-text index is updated before each search from a record of changed notes,
  /// instead of inside every commit.
  case updateFullTextIndexBeforeSearch = 4
  /// The change log other processes follow.
  case addChangeLog = 5
  /// Globally unique ids, the device id and sync's bookkeeping.
  case addSyncIdentity = 6
  /// The versions pulled from the server that were kept aside, with their reasons.
  case addSyncKeptAside = 7
  /// The change log numbered by its rowid.
  case changeLogByRowid = 8
  /// Recently Deleted: the `deleted_notes` table.
  case addRecentlyDeleted = 9
  /// Note history: the `note_versions` table.
  case addNoteHistory = 10

  /// The schema version this code reads and writes.
  static var latestVersion: Int32 { allCases.last!.rawValue }

  /// Brings `connection`'s database up to `target`, one migration per transaction.
  ///
  /// - Parameters:
  ///   - connection: An open connection; no transaction may be open.
  ///   - target: The version to reach; ``latestVersion`` outside tests.
  ///   - fullTextSearch: Whether this SQLite has FTS5.
  /// - Throws: What a failing migration throws; versions already reached are kept.
  static func migrate(
    _ connection: SQLiteConnection,
    to target: Int32 = latestVersion,
    fullTextSearch: Bool
  ) throws(NotesStorageError) {
    for migration in allCases where migration.rawValue <= target {
      try connection.transaction { () throws(NotesStorageError) in
        let version = try connection.int64("PRAGMA user_version") ?? 0
        guard version < Int64(migration.rawValue) else { return }
        try migration.apply(to: connection, fullTextSearch: fullTextSearch)
        try connection.run("PRAGMA user_version = \(migration.rawValue)")
      }
    }
  }

  /// Runs this migration's changes; the caller owns the transaction.
  private func apply(
    to connection: SQLiteConnection, fullTextSearch: Bool
  ) throws(NotesStorageError) {
    switch self {
    case .createTables:
      try connection.execute(script: Self.tablesScript)
    case .addFullTextIndex:
      if fullTextSearch { try FullTextIndex.install(on: connection, schemaVersion: rawValue) }
    case .storeDatesExactly:
      try connection.execute(script: Self.datesSince2001Script)
    case .updateFullTextIndexBeforeSearch:
      if try FullTextIndex.isInstalled(on: connection) {
        try FullTextIndex.recordChanges(on: connection)
      }
    case .addChangeLog:
      try connection.execute(script: ChangeLog.createScript)
    case .addSyncIdentity:
      try connection.execute(script: SyncBookkeeping.createScript)
    case .addSyncKeptAside:
      try connection.execute(script: SyncBookkeeping.keptAsideScript)
    case .changeLogByRowid:
      try connection.execute(script: ChangeLog.rowidScript)
    case .addRecentlyDeleted:
      try connection.execute(script: SQL.recentlyDeletedScript)
    case .addNoteHistory:
      try connection.execute(script: SQL.noteHistoryScript)
    }
  }

  /// Version 3: every stored date moves from the 1970 epoch to the 2001 one.
  ///
  /// The update touches no title or body, so the full-text triggers do not fire.
  private static let datesSince2001Script = """
    UPDATE notebooks SET created = created - 978307200;
    UPDATE notes SET created = created - 978307200, modified = modified - 978307200;
    UPDATE meta SET value = value - 978307200
      WHERE key = '\(MetaKey.lastSynced)' AND value IS NOT NULL;
    """

  /// The tables of version 1.
  ///
  /// The foreign key is deferred so one commit may write rows in any order;
  /// it is checked at COMMIT.
  private static let tablesScript = """
    CREATE TABLE notebooks(
      id INTEGER PRIMARY KEY,
      title TEXT NOT NULL,
      created REAL NOT NULL
    );
    CREATE TABLE notes(
      id INTEGER PRIMARY KEY,
      notebook_id INTEGER NOT NULL
        REFERENCES notebooks(id) DEFERRABLE INITIALLY DEFERRED,
      title TEXT NOT NULL,
      body TEXT NOT NULL,
      created REAL NOT NULL,
      modified REAL NOT NULL,
      pinned INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX notes_by_notebook ON notes(notebook_id);
    CREATE TABLE meta(
      key TEXT PRIMARY KEY,
      value
    );
    """
}
