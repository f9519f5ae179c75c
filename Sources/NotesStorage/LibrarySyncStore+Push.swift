// LibrarySyncStore+Push: the changes to push, and what the server said about them.
//
// Guarantees
// - `outgoingChanges()` turns each pending entity into one change with a fresh change id
//   and the exact version to push, stored before it is returned; an entity whose version
//   equals the one the server has needs no push and stops being pending. A change already
//   given an id keeps it (and its version) until it is acknowledged or superseded, so a
//   retry sends the same change.
// - `acknowledge` makes the pushed version the entity's ancestor; if the entity changed
//   again meanwhile, it stays pending for the next push.
// - Changes come in write order (`inWriteOrder`): pushed in one server transaction, a
//   device pulling never sees a note without its notebook.

public import NotesCore

extension LibrarySyncStore {
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
      return Self.inWriteOrder(changes) { $0.record }
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

  /// Every change pushed under an id whose acknowledgement never came.
  public func unacknowledgedChanges() throws(NotesStorageError) -> [OutgoingChange] {
    try pendingEntities().compactMap { $0.2 }
  }
}
