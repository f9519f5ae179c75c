// LibrarySyncStore+Pull: applying what the server holds to the library, merging with what
// this device changed.

internal import Foundation
public import NotesCore

extension LibrarySyncStore {
  /// Applies `pulled` (in server order), keeps `refused` aside, and moves the cursor to
  /// `cursor`.
  ///
  /// ## Guarantees
  ///
  /// - One batch is one transaction, together with the new cursor: a kill leaves the batch
  ///   applied with its cursor, or neither.
  /// - A version the library already has (its ancestor is as new) is skipped; a version this
  ///   device pushed itself (its pending change id) is an acknowledgement, not a merge.
  /// - An entity not changed here takes the server's version whole. One changed here is
  ///   merged by `SyncMerge` (see its rules); a conflict copy becomes a new note, pending, so
  ///   the next push sends it; notices are kept in `sync_notices` until acknowledged.
  /// - What reaches here was checked by the app's rules (`SyncRules`) on the way; versions
  ///   that broke them are kept aside in the batch's transaction (`keepAside`).
  /// - Versions are applied in write order (`inWriteOrder`): notebooks that exist first, then
  ///   notes, then deleted notebooks; how each is written is on `writeNote` and
  ///   `writeNotebook`.
  /// - Every row written is recorded in the change log, so the app's model and other
  ///   processes catch up; the last assigned id grows to cover new rows (`PullBatch`).
  ///
  /// - Parameters:
  ///   - pulled: Versions from the server, each newer than the cursor and checked by the
  ///     app's rules.
  ///   - refused: Versions from the same batch that broke them: recorded with their
  ///     reasons, never applied.
  ///   - cursor: The sequence number this library has pulled up to after the batch.
  /// - Returns: What changed.
  /// - Throws: ``NotesStorageError``; the library is then unchanged.
  public func apply(
    _ pulled: [PulledRecord], refused: [RefusedVersion] = [], cursor: Int64
  ) throws(NotesStorageError) -> SyncApplyReport {
    try connection.transaction { () throws(NotesStorageError) -> SyncApplyReport in
      try keepAside(refused, superseding: pulled)
      var batch = PullBatch(
        lastAssignedID: try connection.int64(
          "SELECT value FROM meta WHERE key = '\(MetaKey.lastAssignedID)'") ?? 0)
      let logHead = try ChangeLog.head(on: connection)
      let initialLastAssigned = batch.lastAssignedID
      for item in Self.inWriteOrder(pulled, record: \.record) { try apply(item, in: &batch) }
      try finish(
        batch, cursor: cursor, initialLastAssignedID: initialLastAssigned, logHead: logHead)
      batch.report.keptAside = refused
      return batch.report
    }
  }

  private func apply(_ item: PulledRecord, in batch: inout PullBatch) throws(NotesStorageError) {
    let record = item.record
    let base = try baseVersion(record.uid)
    if let base, base.seq >= item.seq { return }
    let pending = try pendingChangeID(record.uid)
    if case .some(let changeID?) = pending, changeID == item.changeID {
      // This device's own change, whose acknowledgement was lost.
      try setBase(record, seq: item.seq)
      try settlePending(record.kind, uid: record.uid, base: record.fields)
      return
    }
    batch.report.received += 1
    let local = try localFields(record.kind, uid: record.uid)
    let result =
      pending == nil
      ? SyncMergeResult(fields: record.fields)
      : SyncMerge.merge(
        record.kind, ancestor: base?.fields, local: local?.fields, remote: record.fields)
    if result.fields != local?.fields {
      switch record.kind {
      case .notebook:
        try writeNotebook(uid: record.uid, fields: result.fields, localID: local?.id, in: &batch)
      case .note:
        try writeNote(
          uid: record.uid, fields: result.fields, localID: local?.id,
          origin: result.fields == record.fields ? .anotherDevice : .merge, in: &batch)
      }
      batch.report.applied += 1
    }
    if let copy = result.conflictCopy {
      var copy = copy
      copy.created = Date().timeIntervalSinceReferenceDate
      try writeNote(uid: SyncBookkeeping.newUID(), fields: copy, localID: nil, in: &batch)
      batch.report.conflictCopies += 1
    }
    batch.report.notices += result.notices
    try setBase(record, seq: item.seq)
    // A note's row now holds `result.fields`; a notebook's may differ (kept, renumbered).
    if record.kind == .note, result.fields == record.fields {
      try run("DELETE FROM sync_pending WHERE uid = ?1", record.uid)
    } else {
      try settlePending(record.kind, uid: record.uid, base: record.fields)
    }
  }

  /// `nil` if the entity is not pending; otherwise its change id, if one was made.
  private func pendingChangeID(_ uid: String) throws(NotesStorageError) -> String?? {
    try connection.withStatement("SELECT change_id FROM sync_pending WHERE uid = ?1") {
      statement throws(NotesStorageError) -> String?? in
      try statement.bind(uid, at: 1)
      guard try statement.step() else { return nil }
      return .some(statement.isNull(at: 0) ? nil : statement.string(at: 0))
    }
  }
}
