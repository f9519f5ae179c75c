public import Foundation
internal import NotesCore

/// The sync engine's access to one library file.
///
/// A library as the sync engine sees it — what to push, what the server accepted, and where pulling
/// stands — over a connection of its own.
///
/// ```swift
/// let store = try LibrarySyncStore(path: library.path)
/// let changes = try store.outgoingChanges()   // push these, then:
/// try store.acknowledge(changes[0], seq: 42)
/// ```
///
/// ## Guarantees
///
/// - Its own SQLite connection to the library file: to the app's model, sync is one more
///   writer, like another process. Everything it writes is in the change log, so the model
///   catches up through `Model.write`'s external path (never the undo history).
/// - Every call is one transaction: a kill at any point leaves either the state before the
///   call or the state after it.
/// - What each call does is stated where it is: pushing in LibrarySyncStore+Push, pulling
///   in LibrarySyncStore+Pull, the versions both compare in LibrarySyncStore+Versions.
/// - Not thread-safe and not main-actor bound: one owner (the sync engine's queue) uses it.
public final class LibrarySyncStore {
  let connection: SQLiteConnection
  /// This library's device id.
  public private(set) var deviceID: String

  /// Opens the sync side of the library at `path`.
  ///
  /// - Parameter path: A library file at the current schema version (open it with
  ///   ``NotesDatabase`` first, which migrates it).
  /// - Throws: ``NotesStorageError`` if the file cannot be opened or is at another version.
  public init(path: String) throws(NotesStorageError) {
    let connection = try SQLiteConnection(path: path, create: false)
    do throws(NotesStorageError) {
      connection.waitForLocks(upTo: 5_000)
      let version = Int32(clamping: try connection.int64("PRAGMA user_version") ?? 0)
      guard version == Migration.latestVersion else {
        throw .cannotOpen(
          path: path,
          reason: "the library is at schema version \(version), sync needs"
            + " \(Migration.latestVersion): open it with notes first")
      }
      try connection.run("PRAGMA foreign_keys = ON")
      // As the app's connection: a commit survives the app crashing (WAL, no fsync each),
      // and statement journals stay in memory.
      try connection.run("PRAGMA synchronous = NORMAL")
      try connection.run("PRAGMA temp_store = MEMORY")
      guard let deviceID = try Self.metaText(MetaKey.deviceID, on: connection) else {
        throw .cannotOpen(path: path, reason: "the library has no device id")
      }
      self.deviceID = deviceID
    } catch {
      connection.close()
      throw error
    }
    self.connection = connection
  }

  deinit { connection.close() }

  /// Closes the connection; later calls throw ``NotesStorageError/closed``.
  public func close() { connection.close() }

  // MARK: Settings

  /// The server this library syncs with, or `nil` when sync is not set up.
  public func server() throws(NotesStorageError) -> String? {
    try Self.metaText(MetaKey.syncServer, on: connection)
  }

  /// Sets (or, with `nil`, forgets) the server this library syncs with.
  ///
  /// Changing the server starts over: the next sync pulls everything and pushes every
  /// entity the new server has not accepted, under a new device id (a device id belongs
  /// to the account that registered it on a server, and the new server or account may
  /// have seen the old one). What was kept aside from the old server is forgotten.
  ///
  /// Never give it a password: the library file is no place for one (`notes sync setup`
  /// stores the connection string without it).
  ///
  /// - Parameters:
  ///   - url: The server's connection string, or `nil`.
  ///   - startingOver: Whether to start over even with the same server, or with the first
  ///     one: for a library whose device id another account registered there (a copy of
  ///     another device's library).
  /// - Throws: ``NotesStorageError`` if the library cannot be written; it is then unchanged.
  public func setServer(_ url: String?, startingOver: Bool = false) throws(NotesStorageError) {
    try connection.transaction { () throws(NotesStorageError) in
      let previous = try Self.metaText(MetaKey.syncServer, on: connection)
      guard previous != url || startingOver else { return }
      if let url {
        try connection.withStatement(SQL.setMeta) { statement throws(NotesStorageError) in
          try statement.bind(MetaKey.syncServer, at: 1)
          try statement.bind(url, at: 2)
          try statement.step()
        }
      } else {
        try connection.run("DELETE FROM meta WHERE key = '\(MetaKey.syncServer)'")
      }
      if previous != nil || startingOver {
        // Another server (or a device id that is not this library's to use there): nothing
        // it has is known yet.
        try connection.execute(
          script: """
            DELETE FROM sync_base;
            UPDATE sync_pending SET change_id = NULL;
            INSERT OR IGNORE INTO sync_pending(uid, entity) SELECT uid, 'notebook' FROM notebooks;
            INSERT OR IGNORE INTO sync_pending(uid, entity) SELECT uid, 'note' FROM notes;
            DELETE FROM meta WHERE key = '\(MetaKey.syncCursor)';
            DELETE FROM sync_kept_aside;
            """)
        let newDevice = SyncBookkeeping.newUID()
        try connection.withStatement(SQL.setMeta) { statement throws(NotesStorageError) in
          try statement.bind(MetaKey.deviceID, at: 1)
          try statement.bind(newDevice, at: 2)
          try statement.step()
        }
        deviceID = newDevice
      }
    }
  }

  /// Stores `url` in place of the connection string of the same server.
  ///
  /// An older version stored the connection string with its password; this stores it
  /// without. Nothing starts over.
  ///
  /// - Parameter url: The same server's connection string.
  /// - Throws: ``NotesStorageError`` if the library cannot be written.
  public func rewriteServer(_ url: String) throws(NotesStorageError) {
    try connection.transaction { () throws(NotesStorageError) in
      try connection.withStatement(SQL.setMeta) { statement throws(NotesStorageError) in
        try statement.bind(MetaKey.syncServer, at: 1)
        try statement.bind(url, at: 2)
        try statement.step()
      }
    }
  }

  /// The server sequence number up to which this library has pulled.
  public func cursor() throws(NotesStorageError) -> Int64 {
    try connection.withStatement(SQL.getMeta) { statement throws(NotesStorageError) in
      try statement.bind(MetaKey.syncCursor, at: 1)
      return try statement.step() ? statement.int64(at: 0) : 0
    }
  }

  /// When the last sync finished, if ever.
  public func lastSynced() throws(NotesStorageError) -> Date? {
    try connection.withStatement(SQL.getMeta) { statement throws(NotesStorageError) in
      try statement.bind(MetaKey.lastSynced, at: 1)
      guard try statement.step(), !statement.isNull(at: 0) else { return nil }
      return Date(timeIntervalSinceReferenceDate: statement.double(at: 0))
    }
  }

  /// Records that a sync finished at `date` (for `notes sync status`; the app's model
  /// keeps its own sync status, so nothing is logged for it to catch up with).
  public func recordSynced(at date: Date) throws(NotesStorageError) {
    try connection.withStatement(SQL.setMeta) { statement throws(NotesStorageError) in
      try statement.bind(MetaKey.lastSynced, at: 1)
      try statement.bind(date.timeIntervalSinceReferenceDate, at: 2)
      try statement.step()
    }
  }

  /// How many entities have changes the server has not accepted yet.
  public func pendingCount() throws(NotesStorageError) -> Int {
    Int(try connection.int64("SELECT count(*) FROM sync_pending") ?? 0)
  }

  /// What sync told the user and the user has not acknowledged, oldest first.
  public func notices() throws(NotesStorageError) -> [String] {
    try connection.withStatement("SELECT message FROM sync_notices ORDER BY id") {
      statement throws(NotesStorageError) in
      var messages: [String] = []
      while try statement.step() { messages.append(statement.string(at: 0)) }
      return messages
    }
  }

  /// Keeps `message` among the notices unless an unacknowledged notice says the same, so a
  /// condition found by every sync is told once until the user reads it.
  ///
  /// - Parameter message: What to tell the user.
  /// - Throws: `NotesStorageError` when the library cannot be written.
  public func keepNotice(_ message: String) throws(NotesStorageError) {
    try connection.withStatement(
      """
      INSERT INTO sync_notices(created, message) SELECT ?1, ?2
      WHERE NOT EXISTS (SELECT 1 FROM sync_notices WHERE message = ?2)
      """
    ) { statement throws(NotesStorageError) in
      try statement.bind(Date().timeIntervalSinceReferenceDate, at: 1)
      try statement.bind(message, at: 2)
      try statement.step()
    }
  }

  /// Forgets every notice and marks every version kept aside read (the user has read
  /// them; the versions stay listed until the server holds valid ones).
  public func acknowledgeNotices() throws(NotesStorageError) {
    try connection.transaction { () throws(NotesStorageError) in
      try connection.run("DELETE FROM sync_notices")
      try connection.run("UPDATE sync_kept_aside SET acknowledged = 1")
    }
  }

  // MARK: Statements

  /// Runs a statement, binding `values` to its parameters 1, 2 and so on.
  func run(_ sql: String, _ values: String?...) throws(NotesStorageError) {
    try connection.withStatement(sql) { statement throws(NotesStorageError) in
      for (offset, value) in values.enumerated() {
        try statement.bind(value, at: Int32(offset + 1))
      }
      try statement.step()
    }
  }

  /// The page cache for a transaction that writes `rows` rows: `nil` (the connection's
  /// own, 2 MiB) for a few, the bulk size ``NotesDatabase`` uses for an import from
  /// ``NotesDatabase/bulkRows`` on.
  ///
  /// A first push writes every entity twice here (its change, then its ancestor); with the
  /// small cache each of those transactions spills dirty pages to the WAL and reads them
  /// back. The README has the figures.
  static func pageCache(forRows rows: Int) -> Int? {
    rows >= NotesDatabase.bulkRows ? NotesDatabase.bulkPageCacheKiB : nil
  }

  /// The text stored under `key` in `meta`, or `nil`.
  static func metaText(
    _ key: String, on connection: SQLiteConnection
  ) throws(NotesStorageError) -> String? {
    try connection.withStatement(SQL.getMeta) { statement throws(NotesStorageError) in
      try statement.bind(key, at: 1)
      guard try statement.step(), !statement.isNull(at: 0) else { return nil }
      return statement.string(at: 0)
    }
  }

  /// `items` in the order they are written: notebooks that exist, then notes, then deleted
  /// notebooks, each kind in its given order.
  ///
  /// Pushed in one server transaction, a device pulling never sees a note without its
  /// notebook; applied in this order, a pulled note finds its pulled notebook.
  static func inWriteOrder<Item>(_ items: [Item], record: (Item) -> SyncRecord) -> [Item] {
    func rank(_ item: Item) -> Int {
      let record = record(item)
      switch (record.kind, record.fields) {
      case (.notebook, .some): return 0
      case (.note, _): return 1
      case (.notebook, nil): return 2
      }
    }
    return items.enumerated()
      .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
      .map(\.element)
  }
}
