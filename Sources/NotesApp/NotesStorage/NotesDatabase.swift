internal import Foundation

/// The SQLite database that stores a notes library, as the storage of its model.
///
/// The notes app's SQLite file, opened, migrated and closed.
///
/// Open it, load the state, and hand it to the model, which then persists every commit
/// through it:
///
/// ```swift
/// let database = try NotesDatabase(location: .resolve())
/// let model = Model(try database.loadState(), storage: database)
/// try model.write(origin: .background("import")) {
///   try $0.update(id, in: \.notes) { $0.title = "Groceries" }
/// }
/// // the new title is on disk before `write` returns
/// let hits = try database.search("grocer")
/// ```
///
/// ## Guarantees
///
/// - Opening either yields a database at the current schema version, in WAL mode, with
///   foreign keys enforced, or throws a `NotesStorageError` and leaves the file as it was:
///   a corrupt file (`.notADatabase`), a newer schema (`.newerSchema`) or an unwritable
///   location (`.unwritableLocation`) is detected before anything is written, and a file
///   this code created for a failed open is removed again.
/// - Private on disk: a new library is created with mode 0600 in folders created with mode
///   0700, and SQLite gives its -wal, -shm and -journal files the library's mode, whatever
///   the umask; opening an existing library takes group and other access away from it and
///   its companions, keeping a stricter mode (see `PrivateFiles`).
/// - Older files are migrated on open (see `Migration`), each step in its own transaction.
/// - What is stored: notebooks, notes, the last assigned id and the last sync time. Dates
///   are REAL seconds since 2001-01-01 UTC (`Date`'s own reference date, so a date reads
///   back bit for bit; files before schema version 3 stored seconds since 1970). The
///   sync status is read, never written, here: the sync engine records when a sync last
///   finished, and a loaded state is always `.idle(lastSynced:)` with that time; syncing
///   and failed are states of a running app.
/// - What a commit costs: one transaction writing the changed rows, plus, for each note
///   whose title or body changes for the first time since the last index update, one row
///   recording what the full-text index holds for it. No text is tokenized in a commit.
/// - When the full-text index is brought up to date: at the start of every search that
///   finds recorded changes, and on `close()`, each time in a write transaction of its own
///   (see `FullTextIndex`). So every committed change is visible to the next search, and
///   the index and the record are consistent at every commit, even after a crash.
/// - The database is main-actor isolated like the model it stores, and is the only writer
///   through this connection; every change to the library happens inside `persist` (the
///   model's funnel); searching and closing write only the full-text index.
/// - Opened `.readOnly` (or `.readWriteIfAllowed` where this user may not write the file or
///   its folder), nothing on disk changes: the file is not created, migrated, made private
///   or checkpointed, no `-wal` or `-shm` file is made (see `SQLiteConnection`), and a
///   commit fails with `.unwritableLocation` before touching anything. Older schema
///   versions are read as they are. A search whose index misses recorded changes searches
///   a copy of the index built in memory for that search, so it still sees every commit.
/// - After `close()`, every call throws `.closed`.
@MainActor
public final class NotesDatabase {
  /// The schema version this code reads and writes.
  public static let supportedSchemaVersion = Migration.latestVersion

  /// How a library is opened: for writing, or only for reading.
  public enum Access: Equatable, Sendable {
    /// Read and write: a missing file is created, an older one migrated; a file or folder
    /// this user may not write is refused
    /// (``NotesStorageError/unwritableLocation(path:reason:)``).
    case readWrite
    /// Read only, changing nothing on disk; the file must exist.
    case readOnly
    /// ``readWrite`` where this user may write the file and its folder (or create a
    /// missing file), ``readOnly`` elsewhere: for a program that only reads.
    case readWriteIfAllowed
  }

  /// The database file's path.
  public let path: String
  /// Whether the file was opened only for reading (see ``Access``).
  public let isReadOnly: Bool
  /// How ``search(_:limit:)`` finds notes in this file.
  public private(set) var searchMethod: SearchMethod
  let connection: SQLiteConnection
  /// Whether commits record changed notes for the next index update (schema version 4
  /// and later, with the index); without it the index needs no update.
  let recordsIndexChanges: Bool
  /// How this file's date columns are written and read.
  let dates: StoredDates
  /// Whether commits are recorded in the change log (schema version 5 and later).
  let keepsChangeLog: Bool
  /// Whether rows carry a globally unique id and sync's bookkeeping (version 6 and later).
  let hasSyncIdentity: Bool
  /// Whether the file has Recently Deleted (schema version 9 and later).
  let hasRecentlyDeleted: Bool
  /// Whether the file keeps note history (schema version 10 and later).
  let hasNoteHistory: Bool
  /// This connection's name in the change log.
  let writer: String
  /// Runs the write-ahead log's checkpoints off the committing thread; `nil` when the file
  /// is opened through a test's VFS, where SQLite checkpoints inside commits as it does by
  /// default (a fault injected there is meant for the commit).
  let checkpointer: BackgroundCheckpointer?
  /// The device's clock, whose time a new entity's uid carries (tests skew it).
  let clock: @Sendable () -> Date
  /// The last change-log entry whose change this process's state includes.
  var cursor: Int64 = 0
  /// Thins note history off the main actor, once started (see `thinHistory(now:)`).
  var historyThinner: HistoryThinner?
  /// `PRAGMA data_version` when the change log was last read: it changes when another
  /// connection commits.
  var dataVersion: Int64 = 0
  /// The error the last failed commit threw, or `nil` if none failed.
  ///
  /// The model reports a failed commit as text; a program that answers it with an exit
  /// status (a full disk, a read-only file) reads the cause here.
  public internal(set) var lastCommitFailure: NotesStorageError?

  /// Opens (creating or migrating if needed) the database at `location`.
  ///
  /// - Parameters:
  ///   - location: Where the file is; see
  ///     ``DatabaseLocation/resolve(explicitPath:environment:homeDirectory:)``.
  ///   - durability: What a persisted commit survives.
  ///   - access: Whether it is opened for writing or only for reading.
  /// - Throws: A ``NotesStorageError``; the file is then unchanged.
  public convenience init(
    location: DatabaseLocation, durability: Durability = .survivesAppCrash,
    access: Access = .readWrite
  ) throws(NotesStorageError) {
    try self.init(path: location.path, durability: durability, access: access)
  }

  /// Opens (creating or migrating if needed) the database at `path`.
  ///
  /// The library is private to its owner whatever the umask: missing folders are created
  /// with mode 0700, a new file and the `-wal`, `-shm` and `-journal` files beside it get
  /// mode 0600, and an existing file and its companions lose every group and other
  /// permission (a stricter mode is kept).
  ///
  /// - Parameters:
  /// Opened for reading only (``Access``), nothing is created or changed, and an older
  /// file is read as it is.
  ///
  /// - Parameters:
  ///   - path: The database file's path; missing folders are created.
  ///   - durability: What a persisted commit survives.
  ///   - access: Whether it is opened for writing or only for reading.
  /// - Throws: ``NotesStorageError/notADatabase(path:)`` for a file that is not a notes
  ///   database, ``NotesStorageError/newerSchema(found:supported:)`` for a file from a
  ///   newer app, ``NotesStorageError/unwritableLocation(path:reason:)`` if the file or its
  ///   folder cannot be written (for `.readWrite`),
  ///   ``NotesStorageError/permissionDenied(path:)`` if this user may not read it,
  ///   ``NotesStorageError/missing(path:)`` for a missing file that is only read,
  ///   ``NotesStorageError/cannotOpen(path:reason:)`` otherwise. The file is then
  ///   unchanged.
  public convenience init(
    path: String, durability: Durability = .survivesAppCrash, access: Access = .readWrite
  ) throws(NotesStorageError) {
    try self.init(
      path: path, durability: durability, fullTextSearch: FullTextIndex.isAvailable,
      schemaVersion: Migration.latestVersion, access: access)
  }

  /// Opens the database, migrating only up to `schemaVersion` (tests build old files),
  /// through the SQLite VFS named `vfs` (tests inject disk faults), or the default, with
  /// `clock` as the device's clock (tests skew it).
  init(
    path: String, durability: Durability, fullTextSearch: Bool, schemaVersion: Int32,
    vfs: String? = nil, clock: @escaping @Sendable () -> Date = { Date() },
    access: Access = .readWrite
  ) throws(NotesStorageError) {
    self.clock = clock
    let readOnly = try FileLocation.opensReadOnly(path, access: access)
    let connection: SQLiteConnection
    var version = schemaVersion
    if readOnly {
      try FileLocation.checkReadable(path)
      connection = try SQLiteConnection(path: path, mode: .readOnly, vfs: vfs)
      do throws(NotesStorageError) {
        version = try Self.configureReadOnly(connection, fullTextSearch: fullTextSearch)
      } catch {
        connection.close()
        throw error
      }
    } else {
      let existed = try FileLocation.prepare(path)
      connection = try SQLiteConnection(path: path, mode: .readWrite(create: !existed), vfs: vfs)
      do throws(NotesStorageError) {
        try Self.configure(
          connection, durability: durability, fullTextSearch: fullTextSearch,
          schemaVersion: schemaVersion)
        try Self.restrictToOwner(path)
      } catch {
        connection.close()
        if !existed { FileLocation.removeCreatedFile(path) }
        throw error
      }
    }
    do throws(NotesStorageError) {
      let indexed = try FullTextIndex.isInstalled(on: connection)
      self.searchMethod = indexed ? .fullText : .substring
      self.recordsIndexChanges = indexed ? try FullTextIndex.recordsChanges(on: connection) : false
    } catch {
      connection.close()
      throw error
    }
    self.path = path
    self.isReadOnly = readOnly
    self.dates = StoredDates(schemaVersion: version)
    self.connection = connection
    self.keepsChangeLog = version >= Migration.addChangeLog.rawValue
    self.hasSyncIdentity = version >= Migration.addSyncIdentity.rawValue
    self.hasRecentlyDeleted = version >= Migration.addRecentlyDeleted.rawValue
    self.hasNoteHistory = version >= Migration.addNoteHistory.rawValue
    self.writer =
      "process \(ProcessInfo.processInfo.processIdentifier) \(UUID().uuidString.prefix(8))"
    self.checkpointer = vfs == nil && !readOnly ? BackgroundCheckpointer(path: path) : nil
    if !readOnly { connection.checkpoint(in: checkpointer) }
  }

  /// Checks a file opened read-only and returns its schema version; writes nothing.
  private static func configureReadOnly(
    _ connection: SQLiteConnection, fullTextSearch: Bool
  ) throws(NotesStorageError) -> Int32 {
    let path = connection.path
    connection.waitForLocks(upTo: 5_000)
    let found: Int32
    do throws(NotesStorageError) {
      // The first read: SQLite opens the write-ahead log here, if there is one.
      found = Int32(clamping: try connection.int64("PRAGMA user_version") ?? 0)
    } catch .permissionDenied, .cannotOpen {
      throw .cannotOpen(
        path: path,
        reason: "it was left open or not closed cleanly, and this user may not read or "
          + "create the -wal and -shm files beside it, where SQLite keeps what the file "
          + "does not hold yet; open it once where it can be written")
    }
    guard found <= Migration.latestVersion else {
      throw .newerSchema(found: found, supported: Migration.latestVersion)
    }
    guard found >= Migration.createTables.rawValue else {
      throw .cannotOpen(
        path: path, reason: "it holds no notes yet, and it cannot be written to start a library")
    }
    if !fullTextSearch, try FullTextIndex.isInstalled(on: connection) {
      throw .cannotOpen(
        path: path,
        reason: "it has a full-text index, but this SQLite library lacks FTS5 to read it")
    }
    // Settings of this connection only; the file is not written.
    try connection.run("PRAGMA foreign_keys = ON")
    try connection.run("PRAGMA temp_store = MEMORY")
    return found
  }

  /// Checks the file before writing anything, then sets WAL mode and migrates.
  private static func configure(
    _ connection: SQLiteConnection, durability: Durability, fullTextSearch: Bool,
    schemaVersion: Int32
  ) throws(NotesStorageError) {
    let path = connection.path
    if connection.isReadOnly {
      throw .unwritableLocation(path: path, reason: "the file is read-only")
    }
    connection.waitForLocks(upTo: 5_000)
    // The first read of the file: fails with .notADatabase for anything but SQLite.
    let found = Int32(clamping: try connection.int64("PRAGMA user_version") ?? 0)
    guard found <= Migration.latestVersion else {
      throw .newerSchema(found: found, supported: Migration.latestVersion)
    }
    if !fullTextSearch, try FullTextIndex.isInstalled(on: connection) {
      throw .cannotOpen(
        path: path,
        reason: "it has a full-text index, but this SQLite library lacks FTS5 to update it")
    }
    let mode = try connection.string("PRAGMA journal_mode = WAL")
    guard mode?.lowercased() == "wal" else {
      throw .cannotOpen(
        path: path, reason: "the file system does not support SQLite's WAL journal mode")
    }
    try connection.run(durability.pragma)
    try connection.run("PRAGMA foreign_keys = ON")
    // Statement journals (an INSERT that fires triggers keeps one) stay in memory, not in
    // a temporary file written page by page: 1.6 million writes importing 100,000 notes.
    try connection.run("PRAGMA temp_store = MEMORY")
    try Migration.migrate(connection, to: schemaVersion, fullTextSearch: fullTextSearch)
    if fullTextSearch, schemaVersion >= Migration.addFullTextIndex.rawValue,
      try !FullTextIndex.isInstalled(on: connection)
    {
      try connection.transaction { () throws(NotesStorageError) in
        try FullTextIndex.install(on: connection, schemaVersion: schemaVersion)
      }
    }
  }

  /// Takes group and other access away from an existing library and its companion files
  /// (see `PrivateFiles`), once the file proved to be a notes database.
  private static func restrictToOwner(_ path: String) throws(NotesStorageError) {
    do throws(PrivateFiles.Failure) {
      try PrivateFiles.restrict(path)
    } catch {
      throw .unwritableLocation(path: path, reason: "cannot make the file private: \(error)")
    }
  }

  /// Closes the file; later calls throw ``NotesStorageError/closed``.
  ///
  /// Closing first brings the full-text index up to date (if that fails, for instance
  /// because another process holds the write lock, the next search does it), waits for a
  /// background checkpoint that is running, then checkpoints the write-ahead log into the
  /// database file. Calling it again does nothing.
  public func close() {
    if !isReadOnly {
      if connection.isOpen { try? updateFullTextIndex() }
      connection.checkpoint(in: nil)
    }
    historyThinner?.cancel()
    checkpointer?.close()
    connection.close()
  }

  /// Brings the full-text index up to date with every commit, in a write transaction of
  /// its own; does nothing when no change is recorded.
  ///
  /// - Complexity: Proportional to the text of the notes changed since the last update.
  func updateFullTextIndex() throws(NotesStorageError) {
    let connection = try openConnection()
    guard !isReadOnly, recordsIndexChanges, try FullTextIndex.hasRecordedChanges(on: connection)
    else {
      return
    }
    try connection.withPageCache(kibibytes: Self.bulkPageCacheKiB) { () throws(NotesStorageError) in
      try connection.transaction { () throws(NotesStorageError) in
        try FullTextIndex.update(on: connection)
      }
    }
  }

  /// The fewest rows a commit writes for its transaction to get a large page cache.
  nonisolated static let bulkRows = 1_000
  /// The page cache a bulk write may grow (256 MiB); given back when it ends.
  ///
  /// A large import spills far fewer pages with it (and with statement journals in memory),
  /// at the cost of that much more memory while it runs; the README has the figures.
  nonisolated static let bulkPageCacheKiB = 256 * 1_024

  /// The open connection, or ``NotesStorageError/closed``.
  func openConnection() throws(NotesStorageError) -> SQLiteConnection {
    guard connection.isOpen else { throw .closed }
    return connection
  }
}
