internal import Foundation

extension LibrarySyncStore {
  /// What one batch has done so far.
  ///
  /// When the batch ends, its bookkeeping is written: the cursor, the last assigned id, the change
  /// log, the notices.
  ///
  /// ## Guarantees
  ///
  /// - Written in the batch's transaction: the new cursor is stored with the batch or not at
  ///   all.
  /// - Every row written is recorded in the change log, so the app's model and other processes
  ///   catch up; the last assigned id grows to cover new rows.
  struct PullBatch {
    var lastAssignedID: Int64
    var touched: [(ChangeLog.Entity, Int64)] = []
    var report = SyncApplyReport()

    mutating func nextID() -> Int64 {
      lastAssignedID += 1
      return lastAssignedID
    }
  }

  /// Stores the cursor and the last assigned id, records every row `batch` touched in the
  /// change log (trimming it if due) and keeps the batch's notices.
  func finish(
    _ batch: PullBatch, cursor: Int64, initialLastAssignedID initialLastAssigned: Int64,
    logHead: Int64
  ) throws(NotesStorageError) {
    try connection.withStatement(SQL.setMeta) { statement throws(NotesStorageError) in
      try statement.bind(MetaKey.syncCursor, at: 1)
      try statement.bind(cursor, at: 2)
      try statement.step()
    }
    if batch.lastAssignedID != initialLastAssigned {
      try connection.withStatement(SQL.setMeta) { statement throws(NotesStorageError) in
        try statement.bind(MetaKey.lastAssignedID, at: 1)
        try statement.bind(batch.lastAssignedID, at: 2)
        try statement.step()
      }
    }
    for (entity, id) in batch.touched {
      try ChangeLog.record(entity, id: id, kind: "sync", writer: "sync", on: connection)
    }
    if batch.lastAssignedID != initialLastAssigned {
      try ChangeLog.record(.meta, id: 0, kind: "sync", writer: "sync", on: connection)
    }
    let head = try ChangeLog.head(on: connection)
    try ChangeLog.trimIfDue(head: head, previousHead: logHead, on: connection)
    let now = Date().timeIntervalSinceReferenceDate
    for notice in batch.report.notices {
      try connection.withStatement("INSERT INTO sync_notices(created, message) VALUES (?1, ?2)") {
        statement throws(NotesStorageError) in
        try statement.bind(now, at: 1)
        try statement.bind(notice, at: 2)
        try statement.step()
      }
    }
  }
}
