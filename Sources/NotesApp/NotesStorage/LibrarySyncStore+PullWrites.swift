// LibrarySyncStore+PullWrites: writing a pulled (or merged) version into the library's
// notes and notebooks tables.

internal import Foundation
internal import NotesCore

extension LibrarySyncStore {
  /// Writes `fields` as the row of note `uid` (deleting the row with `nil`): an update of
  /// `localID`, or a new row when it is `nil`.
  ///
  /// ## Guarantees
  ///
  /// - A note whose notebook this library no longer has brings the notebook back, with its
  ///   last known title (or “Recovered notes”).
  /// - A note deleted elsewhere goes to this library's Recently Deleted, as this library
  ///   last had it; a note restored elsewhere (or edited elsewhere after this library
  ///   deleted it) leaves Recently Deleted and comes back under its id here.
  /// - A note changed here keeps a version in its history, made by `origin`.
  /// - Every row written is added to the batch's touched rows, for the change log.
  func writeNote(
    uid: String, fields: SyncFields?, localID: Int64?, origin: NoteVersion.Origin = .anotherDevice,
    in batch: inout PullBatch
  ) throws(NotesStorageError) {
    guard let fields else {
      if let localID {
        try connection.withStatement(SQL.keepPulledDeletion) {
          statement throws(NotesStorageError) in
          try statement.bind(localID, at: 1)
          try statement.bind(Date().timeIntervalSinceReferenceDate, at: 2)
          try statement.step()
        }
        try connection.withStatement(SQL.deleteNote) { statement throws(NotesStorageError) in
          try statement.bind(localID, at: 1)
          try statement.step()
        }
        batch.touched.append((.deletedNote, localID))
        batch.touched.append((.note, localID))
      }
      return
    }
    let notebookID = try notebookID(uid: fields.notebook ?? "", in: &batch)
    let restored = localID == nil ? try takeFromRecentlyDeleted(uid: uid, in: &batch) : nil
    let id = localID ?? restored ?? batch.nextID()
    // A note restored elsewhere (out of Recently Deleted here) keeps its history too.
    if let kept = localID ?? restored {
      try NoteVersionTable.keep(
        noteID: kept, title: fields.title, body: fields.body, origin: origin, now: Date(),
        on: connection)
    }
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

  /// Removes the note with `uid` from Recently Deleted, if it is there, and returns its id.
  private func takeFromRecentlyDeleted(
    uid: String, in batch: inout PullBatch
  ) throws(NotesStorageError) -> Int64? {
    let id = try connection.withStatement("SELECT id FROM deleted_notes WHERE uid = ?1") {
      statement throws(NotesStorageError) -> Int64? in
      try statement.bind(uid, at: 1)
      return try statement.step() ? statement.int64(at: 0) : nil
    }
    guard let id else { return nil }
    try connection.withStatement(SQL.deleteDeletedNote) { statement throws(NotesStorageError) in
      try statement.bind(id, at: 1)
      try statement.step()
    }
    batch.touched.append((.deletedNote, id))
    return id
  }

  /// Writes `fields` as the row of notebook `uid` (deleting it with `nil`, unless it still
  /// holds notes): an update of `localID`, or a new row when it is `nil`.
  ///
  /// ## Guarantees
  ///
  /// - A notebook deleted elsewhere that still holds a note here (one changed here, or moved
  ///   in by a third device) is kept, and pushed back.
  /// - Two devices creating a notebook with the same title (ignoring case and surrounding
  ///   white space): if this device's one has never reached the server (sync pulls before
  ///   it pushes, so this is the usual case), its notes move into the server's one and it
  ///   goes away — one notebook, no note lost (`join`). If both reached the server before
  ///   either device saw the other (or a rename made two titles equal), the one whose uid
  ///   sorts last is numbered (“Work 2”) on every device alike; no note moves (`separate`).
  /// - Every row written is added to the batch's touched rows, for the change log.
  func writeNotebook(
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
        try join(twin, asNotebook: uid, titled: title, created: fields.created, in: &batch)
        return
      }
      title = try separate(uid, titled: title, from: twin, in: &batch)
    }
    _ = try insertNotebook(uid: uid, title: title, created: fields.created, in: &batch)
  }

  /// Inserts notebook `uid` under the next assigned id, and returns that id.
  func insertNotebook(
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
  func notebookID(uid: String, in batch: inout PullBatch) throws(NotesStorageError) -> Int64 {
    if let found = try localFields(.notebook, uid: uid) { return found.id }
    let known = try baseVersion(uid)?.fields
    let title = try freeTitle(startingWith: known?.title ?? "Recovered notes")
    batch.report.notices.append(
      "A note arrived in a notebook deleted here: the notebook is back as “\(title)”.")
    return try insertNotebook(
      uid: uid, title: title, created: known?.created ?? Date().timeIntervalSinceReferenceDate,
      in: &batch)
  }
}
