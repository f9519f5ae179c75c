// LibrarySyncStore: a library as the sync engine sees it — what to push, what the server
// accepted, and where pulling stands — over a connection of its own.
//
// Guarantees
// - Its own SQLite connection to the library file: to the app's model, sync is one more
//   writer, like another process. Everything it writes is in the change log, so the model
//   catches up through `Model.write`'s external path (never the undo history).
// - Every call is one transaction: a kill at any point leaves either the state before the
//   call or the state after it.
// - `outgoingChanges()` turns each pending entity into one change with a fresh change id
//   and the exact version to push, stored before it is returned; an entity whose version
//   equals the one the server has needs no push and stops being pending. A change already
//   given an id keeps it (and its version) until it is acknowledged or superseded, so a
//   retry sends the same change.
// - `acknowledge` makes the pushed version the entity's ancestor; if the entity changed
//   again meanwhile, it stays pending for the next push.
// - Not thread-safe and not main-actor bound: one owner (the sync engine's queue) uses it.

public import Foundation
public import NotesCore

/// The sync engine's access to one library file.
///
/// ```swift
/// let store = try LibrarySyncStore(path: library.path)
/// let changes = try store.outgoingChanges()   // push these, then:
/// try store.acknowledge(changes[0], seq: 42)
/// ```
public final class LibrarySyncStore {
  let connection: SQLiteConnection
  /// This library's device id.
  public let deviceID: String

  /// Opens the sync side of the library at `path`.
  ///
  /// - Parameter path: A library file at the current schema version (open it with
  ///   ``NotesDatabase`` first, which migrates it).
  /// - Throws: ``NotesStorageError`` if the file cannot be opened or is at another version.
  public init(path: String) throws(NotesStorageError) {
    let connection = try SQLiteConnection(path: path, create: false)
    do throws(NotesStorageError) {
      try connection.run("PRAGMA busy_timeout = 5000")
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
  /// entity the new server has not accepted.
  public func setServer(_ url: String?) throws(NotesStorageError) {
    try connection.transaction { () throws(NotesStorageError) in
      let previous = try Self.metaText(MetaKey.syncServer, on: connection)
      guard previous != url else { return }
      if let url {
        try connection.withStatement(SQL.setMeta) { statement throws(NotesStorageError) in
          try statement.bind(MetaKey.syncServer, at: 1)
          try statement.bind(url, at: 2)
          try statement.step()
        }
      } else {
        try connection.run("DELETE FROM meta WHERE key = '\(MetaKey.syncServer)'")
      }
      if previous != nil {
        // Another server: nothing it has is known yet.
        try connection.execute(
          script: """
            DELETE FROM sync_base;
            UPDATE sync_pending SET change_id = NULL;
            INSERT OR IGNORE INTO sync_pending(uid, entity) SELECT uid, 'notebook' FROM notebooks;
            INSERT OR IGNORE INTO sync_pending(uid, entity) SELECT uid, 'note' FROM notes;
            DELETE FROM meta WHERE key = '\(MetaKey.syncCursor)';
            """)
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

  /// Every change pushed under an id whose acknowledgement never came.
  public func unacknowledgedChanges() throws(NotesStorageError) -> [OutgoingChange] {
    try pendingEntities().compactMap { $0.2 }
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

  /// Forgets every notice (the user has read them).
  public func acknowledgeNotices() throws(NotesStorageError) {
    try connection.transaction { () throws(NotesStorageError) in
      try connection.run("DELETE FROM sync_notices")
    }
  }

  // MARK: Pushing

  /// Every change to push, each with its change id, stored before they are returned.
  ///
  /// Notebooks that exist come first, then notes, then deleted notebooks; pushed in one
  /// server transaction, a device pulling never sees a note without its notebook.
  public func outgoingChanges() throws(NotesStorageError) -> [OutgoingChange] {
    try connection.transaction { () throws(NotesStorageError) -> [OutgoingChange] in
      var changes: [OutgoingChange] = []
      for (uid, kind, snapshot) in try pendingEntities() {
        if let snapshot {
          changes.append(snapshot)
          continue
        }
        let current = try localFields(kind, uid: uid)?.fields
        let base = try baseVersion(uid)
        if base.map({ $0.fields == current }) ?? (current == nil) {
          try run("DELETE FROM sync_pending WHERE uid = ?1", uid)
          continue
        }
        let change = OutgoingChange(
          changeID: SyncBookkeeping.newUID(), baseSeq: base?.seq ?? 0,
          record: SyncRecord(kind: kind, uid: uid, fields: current))
        try storeSnapshot(change)
        changes.append(change)
      }
      func rank(_ change: OutgoingChange) -> Int {
        switch (change.record.kind, change.record.fields) {
        case (.notebook, .some): 0
        case (.note, _): 1
        case (.notebook, nil): 2
        }
      }
      return changes.enumerated()
        .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
        .map(\.element)
    }
  }

  /// Records that the server accepted each change with its sequence number.
  public func acknowledge(_ accepted: [(OutgoingChange, seq: Int64)]) throws(NotesStorageError) {
    guard !accepted.isEmpty else { return }
    try connection.transaction { () throws(NotesStorageError) in
      for (change, seq) in accepted {
        try setBase(change.record, seq: seq)
        try settlePending(change.record.kind, uid: change.record.uid, base: change.record.fields)
      }
    }
  }

  /// Forgets the change ids of changes the server refused (it had a newer version): they
  /// are made again, from the merged version, after the next pull.
  public func discardRefused(_ changes: [OutgoingChange]) throws(NotesStorageError) {
    try connection.transaction { () throws(NotesStorageError) in
      for change in changes {
        try run(
          "UPDATE sync_pending SET change_id = NULL WHERE uid = ?1 AND change_id = ?2",
          change.record.uid, change.changeID)
      }
    }
  }
}
