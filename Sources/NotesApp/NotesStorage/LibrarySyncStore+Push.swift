// LibrarySyncStore+Push: the changes to push, and what the server said about them.

public import NotesCore

extension LibrarySyncStore {
  /// Every change to push, each with its change id, stored before they are returned.
  ///
  /// ## Guarantees
  ///
  /// - Each pending entity becomes one change with a fresh change id and the exact version to
  ///   push, stored before it is returned; an entity whose version equals the one the server
  ///   has needs no push and stops being pending. A change already given an id keeps it (and
  ///   its version) until it is acknowledged or superseded, so a retry sends the same change.
  /// - Changes come in write order (`inWriteOrder`): notebooks that exist first, then notes,
  ///   then deleted notebooks. Pushed in one server transaction, a device pulling never sees
  ///   a note without its notebook.
  public func outgoingChanges() throws(NotesStorageError) -> [OutgoingChange] {
    var changes: [OutgoingChange] = []
    try outgoingChanges(inChunksOf: Int.max) { chunk in
      changes += chunk
      return true
    }
    return changes
  }

  /// Every change to push, as ``outgoingChanges()`` makes them, handed to `deliver` in
  /// chunks while they are collected.
  ///
  /// Everything happens in one transaction, which commits after the last chunk: the
  /// chunks are one snapshot of the library, in the order of ``outgoingChanges()``, so a
  /// push that sends each chunk as it comes still never holds a note without its notebook.
  /// A push must not commit on the server before this returns: until then, the changes'
  /// ids are not stored.
  ///
  /// - Parameters:
  ///   - size: The most changes in one chunk; every chunk but the last holds that many.
  ///   - deliver: Called with each chunk, inside the transaction; returning `false` stops
  ///     the collection there (what was stored so far is kept: each stored change is pushed
  ///     as it is next time).
  /// - Throws: ``NotesStorageError``; nothing was stored then.
  public func outgoingChanges(
    inChunksOf size: Int, deliver: ([OutgoingChange]) -> Bool
  ) throws(NotesStorageError) {
    precondition(size > 0, "a chunk holds at least one change")
    let pending = try pendingCount()
    try connection.withPageCache(kibibytes: Self.pageCache(forRows: pending)) {
      () throws(NotesStorageError) in
      try collectOutgoingChanges(inChunksOf: size, deliver: deliver)
    }
  }

  /// ``outgoingChanges(inChunksOf:deliver:)``, in its transaction.
  private func collectOutgoingChanges(
    inChunksOf size: Int, deliver: ([OutgoingChange]) -> Bool
  ) throws(NotesStorageError) {
    try connection.transaction { () throws(NotesStorageError) in
      var chunk: [OutgoingChange] = []
      var stopped = false
      func add(_ change: OutgoingChange) {
        chunk.append(change)
        if chunk.count == size {
          stopped = !deliver(chunk)
          chunk.removeAll(keepingCapacity: true)
        }
      }
      // The order of `inWriteOrder`, without sorting: notebooks first (those deleted kept
      // for the end), then notes, each kind in the order it became pending.
      let pending = try pendingEntities()
      var deletedNotebooks: [OutgoingChange] = []
      for entity in pending where entity.1 == .notebook {
        guard let change = try outgoingChange(entity) else { continue }
        if change.record.fields == nil { deletedNotebooks.append(change) } else { add(change) }
        if stopped { return }
      }
      for entity in pending where entity.1 == .note {
        guard let change = try outgoingChange(entity) else { continue }
        add(change)
        if stopped { return }
      }
      for change in deletedNotebooks {
        add(change)
        if stopped { return }
      }
      if !chunk.isEmpty { _ = deliver(chunk) }
    }
  }

  /// The change to push for one pending entity: the one stored already, or a new one,
  /// stored now; `nil` (and no longer pending) if the entity is as the server has it.
  private func outgoingChange(
    _ entity: (uid: String, kind: SyncEntityKind, stored: OutgoingChange?)
  ) throws(NotesStorageError) -> OutgoingChange? {
    if let stored = entity.stored { return stored }
    let current = try localFields(entity.kind, uid: entity.uid)?.fields
    let base = try baseVersion(entity.uid)
    if base.map({ $0.fields == current }) ?? (current == nil) {
      try run("DELETE FROM sync_pending WHERE uid = ?1", entity.uid)
      return nil
    }
    let change = OutgoingChange(
      changeID: SyncBookkeeping.newUID(), baseSeq: base?.seq ?? 0,
      record: SyncRecord(kind: entity.kind, uid: entity.uid, fields: current))
    try storeSnapshot(change)
    return change
  }

  /// Records that the server accepted each change with its sequence number.
  ///
  /// ## Guarantees
  ///
  /// - The pushed version becomes the entity's ancestor; if the entity changed again
  ///   meanwhile, it stays pending for the next push.
  public func acknowledge(_ accepted: [(OutgoingChange, seq: Int64)]) throws(NotesStorageError) {
    guard !accepted.isEmpty else { return }
    try connection.withPageCache(kibibytes: Self.pageCache(forRows: accepted.count)) {
      () throws(NotesStorageError) in
      try connection.transaction { () throws(NotesStorageError) in
        for (change, seq) in accepted {
          try setBase(change.record, seq: seq)
          try settlePending(change.record.kind, uid: change.record.uid, base: change.record.fields)
        }
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

  /// Every change pushed under an id whose acknowledgement never came.
  public func unacknowledgedChanges() throws(NotesStorageError) -> [OutgoingChange] {
    try pendingEntities().compactMap { $0.2 }
  }
}
