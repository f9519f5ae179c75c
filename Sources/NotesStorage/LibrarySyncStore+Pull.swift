// LibrarySyncStore+Pull: applying what the server holds to the library, merging with what
// this device changed.
//
// Guarantees
// - One batch is one transaction, together with the new cursor: a kill leaves the batch
//   applied with its cursor, or neither.
// - A version the library already has (its ancestor is as new) is skipped; a version this
//   device pushed itself (its pending change id) is an acknowledgement, not a merge.
// - An entity not changed here takes the server's version whole. One changed here is
//   merged by `SyncMerge` (see its rules); a conflict copy becomes a new note, pending, so
//   the next push sends it; notices are kept in `sync_notices` until acknowledged.
// - Notebooks that exist are written first, then notes, then deleted notebooks; a
//   notebook deleted elsewhere that still holds a note here (one changed here, or moved in
//   by a third device) is kept, and pushed back.
// - Two devices creating a notebook with the same title (ignoring case and surrounding
//   white space): if this device's one has never reached the server (sync pulls before it
//   pushes, so this is the usual case), its notes move into the server's one and it goes
//   away — one notebook, no note lost. If both reached the server before either device saw
//   the other (or a rename made two titles equal), the one whose uid sorts last is numbered
//   (“Work 2”) on every device alike; no note moves.
// - A note whose notebook this library no longer has brings the notebook back, with its
//   last known title (or “Recovered notes”).
// - Every row written is recorded in the change log, so the app's model and other processes
//   catch up; the last assigned id grows to cover new rows.

internal import Foundation
public import NotesCore

/// What applying one pulled batch did.
public struct SyncApplyReport: Equatable, Sendable {
  /// How many versions were new to the library (not its own changes coming back).
  public var received = 0
  /// How many entities changed in the library.
  public var applied = 0
  /// How many conflict copies were saved.
  public var conflictCopies = 0
  /// What the user is told (also kept in the library until acknowledged).
  public var notices: [String] = []

  /// An empty report.
  public init() {}
}

extension LibrarySyncStore {
  /// Applies `pulled` (in server order) and moves the cursor to `cursor`.
  ///
  /// - Parameters:
  ///   - pulled: Versions from the server, each newer than the cursor.
  ///   - cursor: The sequence number this library has pulled up to after the batch.
  /// - Returns: What changed.
  /// - Throws: ``NotesStorageError``; the library is then unchanged.
  public func apply(
    _ pulled: [PulledRecord], cursor: Int64
  ) throws(NotesStorageError) -> SyncApplyReport {
    try connection.transaction { () throws(NotesStorageError) -> SyncApplyReport in
      var batch = PullBatch(
        lastAssignedID: try connection.int64(
          "SELECT value FROM meta WHERE key = '\(MetaKey.lastAssignedID)'") ?? 0)
      let logHead = try ChangeLog.head(on: connection)
      let initialLastAssigned = batch.lastAssignedID
      func rank(_ item: PulledRecord) -> Int {
        switch (item.record.kind, item.record.fields) {
        case (.notebook, .some): 0
        case (.note, _): 1
        case (.notebook, nil): 2
        }
      }
      let ordered = pulled.enumerated()
        .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
        .map(\.element)
      for item in ordered { try apply(item, in: &batch) }
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
      return batch.report
    }
  }

  /// What one batch has done so far.
  struct PullBatch {
    var lastAssignedID: Int64
    var touched: [(ChangeLog.Entity, Int64)] = []
    var report = SyncApplyReport()

    mutating func nextID() -> Int64 {
      lastAssignedID += 1
      return lastAssignedID
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
        try writeNote(uid: record.uid, fields: result.fields, localID: local?.id, in: &batch)
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

  private func writeNote(
    uid: String, fields: SyncFields?, localID: Int64?, in batch: inout PullBatch
  ) throws(NotesStorageError) {
    guard let fields else {
      if let localID {
        try connection.withStatement(SQL.deleteNote) { statement throws(NotesStorageError) in
          try statement.bind(localID, at: 1)
          try statement.step()
        }
        batch.touched.append((.note, localID))
      }
      return
    }
    let notebookID = try notebookID(uid: fields.notebook ?? "", in: &batch)
    let id = localID ?? batch.nextID()
    let sql = localID == nil ? SQL.insertNoteWithUID : SQL.updateNote
    try connection.withStatement(sql) { statement throws(NotesStorageError) in
      try statement.bind(id, at: 1)
      try statement.bind(notebookID, at: 2)
      try statement.bind(fields.title, at: 3)
      try statement.bind(fields.body, at: 4)
      try statement.bind(fields.modified, at: 5)
      try statement.bind(fields.isPinned, at: 6)
      if localID == nil {
        try statement.bind(fields.created, at: 7)
        try statement.bind(uid, at: 8)
      }
      try statement.step()
    }
    batch.touched.append((.note, id))
  }

  private func writeNotebook(
    uid: String, fields: SyncFields?, localID: Int64?, in batch: inout PullBatch
  ) throws(NotesStorageError) {
    guard let fields else {
      guard let localID else { return }
      let holding = try connection.withStatement(
        "SELECT count(*) FROM notes WHERE notebook_id = ?1"
      ) {
        statement throws(NotesStorageError) in
        try statement.bind(localID, at: 1)
        _ = try statement.step()
        return statement.int64(at: 0)
      }
      if holding > 0 {
        let title = try localFields(.notebook, uid: uid)?.fields.title ?? ""
        batch.report.notices.append(
          "The notebook “\(title)” was deleted on another device but still holds notes here:"
            + " it is kept.")
        return
      }
      try connection.withStatement(SQL.deleteNotebook) { statement throws(NotesStorageError) in
        try statement.bind(localID, at: 1)
        try statement.step()
      }
      batch.touched.append((.notebook, localID))
      return
    }
    if let localID {
      var title = fields.title
      if let twin = try notebook(titled: title), twin.id != localID {
        title = try separate(uid, titled: title, from: twin, in: &batch)
      }
      try connection.withStatement(SQL.updateNotebook) { statement throws(NotesStorageError) in
        try statement.bind(localID, at: 1)
        try statement.bind(title, at: 2)
        try statement.step()
      }
      batch.touched.append((.notebook, localID))
      return
    }
    var title = fields.title
    if let twin = try notebook(titled: title) {
      if try baseVersion(twin.uid) == nil {
        // The same notebook, made on two devices: this device's one joins the server's.
        let id = try insertNotebook(uid: uid, title: title, created: fields.created, in: &batch)
        try connection.withStatement("UPDATE notes SET notebook_id = ?2 WHERE notebook_id = ?1") {
          statement throws(NotesStorageError) in
          try statement.bind(twin.id, at: 1)
          try statement.bind(id, at: 2)
          try statement.step()
        }
        for noteID in try noteIDs(inNotebook: id) { batch.touched.append((.note, noteID)) }
        try connection.withStatement(SQL.deleteNotebook) { statement throws(NotesStorageError) in
          try statement.bind(twin.id, at: 1)
          try statement.step()
        }
        batch.touched.append((.notebook, twin.id))
        batch.report.notices.append(
          "The notebook “\(title)” was also created on another device: they are one notebook now.")
        return
      }
      title = try separate(uid, titled: title, from: twin, in: &batch)
    }
    _ = try insertNotebook(uid: uid, title: title, created: fields.created, in: &batch)
  }

  /// Separates two notebooks that share a title on the server.
  ///
  /// The one whose uid sorts last gets a number, on every device alike. Returns the title
  /// the arriving notebook `uid` takes.
  private func separate(
    _ uid: String, titled title: String, from twin: (id: Int64, uid: String),
    in batch: inout PullBatch
  ) throws(NotesStorageError) -> String {
    let numbered = try freeTitle(startingWith: title)
    batch.report.notices.append(
      "Two notebooks were named “\(title)”: one of them is now “\(numbered)”.")
    guard uid < twin.uid else { return numbered }
    try connection.withStatement(SQL.updateNotebook) { statement throws(NotesStorageError) in
      try statement.bind(twin.id, at: 1)
      try statement.bind(numbered, at: 2)
      try statement.step()
    }
    batch.touched.append((.notebook, twin.id))
    return title
  }

  private func insertNotebook(
    uid: String, title: String, created: Double, in batch: inout PullBatch
  ) throws(NotesStorageError) -> Int64 {
    let id = batch.nextID()
    try connection.withStatement(SQL.insertNotebookWithUID) { statement throws(NotesStorageError) in
      try statement.bind(id, at: 1)
      try statement.bind(title, at: 2)
      try statement.bind(created, at: 3)
      try statement.bind(uid, at: 4)
      try statement.step()
    }
    batch.touched.append((.notebook, id))
    return id
  }

  /// The local id of the notebook `uid`, bringing it back if this library deleted it.
  private func notebookID(uid: String, in batch: inout PullBatch) throws(NotesStorageError) -> Int64
  {
    if let found = try localFields(.notebook, uid: uid) { return found.id }
    let known = try baseVersion(uid)?.fields
    let title = try freeTitle(startingWith: known?.title ?? "Recovered notes")
    batch.report.notices.append(
      "A note arrived in a notebook deleted here: the notebook is back as “\(title)”.")
    return try insertNotebook(
      uid: uid, title: title, created: known?.created ?? Date().timeIntervalSinceReferenceDate,
      in: &batch)
  }

  /// The notebook whose title equals `title`, ignoring case and surrounding white space.
  private func notebook(titled title: String) throws(NotesStorageError) -> (id: Int64, uid: String)?
  {
    let wanted = Self.normalized(title)
    return try connection.withStatement("SELECT id, uid, title FROM notebooks") {
      statement throws(NotesStorageError) -> (id: Int64, uid: String)? in
      while try statement.step() {
        if Self.normalized(statement.string(at: 2)) == wanted {
          return (statement.int64(at: 0), statement.string(at: 1))
        }
      }
      return nil
    }
  }

  /// `title`, or the first of “title 2”, “title 3”, … that no notebook has.
  private func freeTitle(startingWith title: String) throws(NotesStorageError) -> String {
    guard try notebook(titled: title) != nil else { return title }
    var number = 2
    while try notebook(titled: "\(title) \(number)") != nil { number += 1 }
    return "\(title) \(number)"
  }

  private func noteIDs(inNotebook id: Int64) throws(NotesStorageError) -> [Int64] {
    try connection.withStatement("SELECT id FROM notes WHERE notebook_id = ?1") {
      statement throws(NotesStorageError) in
      try statement.bind(id, at: 1)
      var ids: [Int64] = []
      while try statement.step() { ids.append(statement.int64(at: 0)) }
      return ids
    }
  }

  private static func normalized(_ title: String) -> String {
    title.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }
}
