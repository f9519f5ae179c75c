// NotesDatabase+ModelStorage: persisting the model's commits.

public import Airframe
internal import Foundation
public import NotesCore

extension NotesDatabase: ModelStorage {
  /// Runs `body` holding SQLite's write lock, which the `persist` inside it commits.
  ///
  /// ## Guarantees
  ///
  /// - A write's last try takes SQLite's write lock before the model catches up, and its
  ///   commit's `persist` commits that same transaction: no other process or connection
  ///   (sync, another window's program) can commit between the catch-up and the write, so a
  ///   write is never refused three times over by busy writers.
  ///
  /// - Parameter body: The model's catch-up and the write's last try.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws (nothing it began stays), or a ``NotesStorageError``
  ///   taking the lock.
  public func holdingWriteLock<Result>(_ body: () throws -> Result) throws -> Result {
    try openConnection().holdingWriteLock(body)
  }

  /// Writes the rows `commit` changed, in one transaction, or throws and writes nothing.
  ///
  /// ## Guarantees
  ///
  /// - One commit is one SQLite transaction (BEGIN IMMEDIATE … COMMIT). If any statement or
  ///   the COMMIT fails, the transaction is rolled back and the error is thrown, so the
  ///   database holds exactly what it held before, and the model (which persists before it
  ///   applies) keeps its state too.
  /// - Exactly the rows the change set names are written, with their values read from
  ///   `commit.state`: inserted rows are INSERTed, updated rows UPDATEd, removed rows
  ///   DELETEd. Triggers record, in the same transaction, which notes the full-text index no
  ///   longer matches; the index itself is updated before the next search (see
  ///   `FullTextIndex`), so a commit tokenizes nothing.
  /// - A database opened read-only refuses every commit with `.unwritableLocation` before
  ///   it touches the file.
  /// - An UPDATE or DELETE that matches no row, or a changed id missing from the commit's
  ///   state, throws `.outOfSync` (and rolls back) instead of silently diverging.
  /// - Rows may be written in any order within a commit: the notebook foreign key is checked
  ///   at COMMIT, so a commit that leaves a note without its notebook fails as a whole.
  /// - The last assigned id is written only when the commit changed it. The sync status is
  ///   never written: whether a sync runs, its progress and its failure belong to the running
  ///   app, and the time of the last sync is written by the sync engine alone
  ///   (`LibrarySyncStore.recordSynced(at:)`). A commit that changes nothing stored (a sync
  ///   status, a count of versions kept aside) touches the file not at all: no transaction,
  ///   no change-log entry, so it wakes no other process open on the library.
  ///
  /// - Parameter commit: The commit the model is about to apply.
  /// - Throws: A ``NotesStorageError``; the database is then unchanged.
  public func persist(_ commit: Commit<NotesState>) throws(NotesStorageError) {
    do throws(NotesStorageError) {
      try write(commit)
    } catch {
      lastCommitFailure = error
      throw error
    }
  }

  /// What ``persist(_:)`` does, its failure not yet recorded.
  private func write(_ commit: Commit<NotesState>) throws(NotesStorageError) {
    let notebooks = commit.changes.changes(in: \.notebooks)
    let notes = commit.changes.changes(in: \.notes)
    let deletedNotes = commit.changes.changes(in: \.recentlyDeleted)
    let lastAssignedIDChanged = commit.changes.changed(\.lastAssignedID)
    let daysChanged = commit.changes.changed(\.recentlyDeletedDays)
    guard
      !notebooks.isEmpty || !notes.isEmpty || !deletedNotes.isEmpty || lastAssignedIDChanged
        || daysChanged
    else { return }
    guard deletedNotes.isEmpty || hasRecentlyDeleted else {
      throw .unwritableLocation(path: path, reason: "its schema has no Recently Deleted")
    }
    let connection = try openConnection()
    guard !isReadOnly else {
      throw .unwritableLocation(path: path, reason: "it was opened only for reading")
    }
    let state = commit.state
    var newCursor = cursor
    let rows =
      notebooks.inserted.count + notebooks.updated.count + notebooks.removed.count
      + notes.inserted.count + notes.updated.count + notes.removed.count
      + deletedNotes.inserted.count + deletedNotes.updated.count + deletedNotes.removed.count
    let pageCache = rows >= Self.bulkRows ? Self.bulkPageCacheKiB : nil
    try connection.withPageCache(kibibytes: pageCache) { () throws(NotesStorageError) in
      try connection.transaction { () throws(NotesStorageError) in
        // Checked against the file under the write lock: a process that has not read what
        // another one committed must not write over it (the model catches up and retries).
        let head = keepsChangeLog ? try ChangeLog.head(on: connection) : cursor
        guard head == cursor else { throw .changedElsewhere }
        // An entry of Recently Deleted is written before its note's row goes (it takes the
        // row's uid), and removed after a restored note's row is back (which takes it back).
        for id in deletedNotes.inserted.union(deletedNotes.updated) {
          try write(Self.deletedNote(id, in: state), into: connection)
        }
        for id in notebooks.inserted {
          try insert(Self.notebook(id, in: state), into: connection)
        }
        for id in notebooks.updated {
          try update(Self.notebook(id, in: state), in: connection)
        }
        for id in notes.inserted {
          try insert(Self.note(id, in: state), into: connection)
        }
        let versionOrigin = Self.versionOrigin(of: commit.origin)
        let now = clock()
        for id in notes.updated {
          let note = try Self.note(id, in: state)
          if hasNoteHistory {
            try NoteVersionTable.keep(
              noteID: id.rawValue, title: note.title, body: note.body, origin: versionOrigin,
              now: now, on: connection)
          }
          try update(note, in: connection)
        }
        for id in notes.removed {
          try delete(id.rawValue, sql: SQL.deleteNote, table: "notes", in: connection)
          // A note that does not go to Recently Deleted (a new note undone) is gone for good.
          if hasNoteHistory, !deletedNotes.inserted.contains(id) {
            try NoteVersionTable.forget(noteID: id.rawValue, on: connection)
          }
        }
        for id in notebooks.removed {
          try delete(id.rawValue, sql: SQL.deleteNotebook, table: "notebooks", in: connection)
        }
        for id in deletedNotes.removed {
          try delete(
            id.rawValue, sql: SQL.deleteDeletedNote, table: "deleted_notes", in: connection)
          // Out of Recently Deleted and not restored: deleted for good, with its history.
          if hasNoteHistory, state.notes[id] == nil {
            try NoteVersionTable.forget(noteID: id.rawValue, on: connection)
          }
        }
        if lastAssignedIDChanged {
          try setMeta(MetaKey.lastAssignedID, in: connection) {
            statement throws(NotesStorageError) in
            try statement.bind(state.lastAssignedID, at: 2)
          }
        }
        if daysChanged {
          try setMeta(MetaKey.recentlyDeletedDays, in: connection) {
            statement throws(NotesStorageError) in
            try statement.bind(Int64(state.recentlyDeletedDays), at: 2)
          }
        }
        if keepsChangeLog {
          // Entries are numbered one after another under the write lock (the rowid after the
          // head, which trimming always keeps), so the new head follows from the count; no
          // second read of the head.
          newCursor =
            head
            + (try recordInChangeLog(
              notebooks: notebooks, notes: notes, deletedNotes: deletedNotes,
              meta: lastAssignedIDChanged || daysChanged, on: connection))
          try ChangeLog.trimIfDue(head: newCursor, previousHead: head, on: connection)
        }
      }
    }
    cursor = newCursor
  }

  /// Appends an entry for every row the commit changed; returns how many it appended.
  private func recordInChangeLog(
    notebooks: EntityChanges<NotebookID>, notes: EntityChanges<NoteID>,
    deletedNotes: EntityChanges<NoteID>, meta: Bool, on connection: SQLiteConnection
  ) throws(NotesStorageError) -> Int64 {
    var count: Int64 = 0
    for (ids, kind) in [
      (notebooks.inserted, "insert"), (notebooks.updated, "update"),
      (notebooks.removed, "remove"),
    ] {
      for id in ids {
        try ChangeLog.record(.notebook, id: id.rawValue, kind: kind, writer: writer, on: connection)
        count += 1
      }
    }
    for (ids, kind) in [
      (notes.inserted, "insert"), (notes.updated, "update"), (notes.removed, "remove"),
    ] {
      for id in ids {
        try ChangeLog.record(.note, id: id.rawValue, kind: kind, writer: writer, on: connection)
        count += 1
      }
    }
    for (ids, kind) in [
      (deletedNotes.inserted, "insert"), (deletedNotes.updated, "update"),
      (deletedNotes.removed, "remove"),
    ] {
      for id in ids {
        try ChangeLog.record(
          .deletedNote, id: id.rawValue, kind: kind, writer: writer, on: connection)
        count += 1
      }
    }
    if meta {
      try ChangeLog.record(.meta, id: 0, kind: "update", writer: writer, on: connection)
      count += 1
    }
    return count
  }

  /// Where the versions a commit keeps were made.
  private static func versionOrigin(of origin: CommitOrigin) -> NoteVersion.Origin {
    origin == .user(RestoreNoteVersion.actionName) ? .restoredVersion : .thisDevice
  }

  private static func notebook(
    _ id: NotebookID, in state: NotesState
  ) throws(NotesStorageError) -> Notebook {
    guard let notebook = state.notebooks[id] else {
      throw .outOfSync(table: "notebooks", id: id.rawValue, reason: "missing from the state")
    }
    return notebook
  }

  private static func deletedNote(
    _ id: NoteID, in state: NotesState
  ) throws(NotesStorageError) -> DeletedNote {
    guard let entry = state.recentlyDeleted[id] else {
      throw .outOfSync(table: "deleted_notes", id: id.rawValue, reason: "missing from the state")
    }
    return entry
  }

  private static func note(_ id: NoteID, in state: NotesState) throws(NotesStorageError) -> Note {
    guard let note = state.notes[id] else {
      throw .outOfSync(table: "notes", id: id.rawValue, reason: "missing from the state")
    }
    return note
  }

  private func insert(
    _ notebook: Notebook, into connection: SQLiteConnection
  ) throws(NotesStorageError) {
    let sql = hasSyncIdentity ? SQL.insertNotebookWithUID : SQL.insertNotebook
    try connection.withStatement(sql) { statement throws(NotesStorageError) in
      try statement.bind(notebook.id.rawValue, at: 1)
      try statement.bind(notebook.title, at: 2)
      try statement.bind(dates.value(notebook.created), at: 3)
      if hasSyncIdentity { try statement.bind(SyncBookkeeping.newUID(now: clock()), at: 4) }
      try statement.step()
    }
  }

  private func update(
    _ notebook: Notebook, in connection: SQLiteConnection
  ) throws(NotesStorageError) {
    try connection.withStatement(SQL.updateNotebook) { statement throws(NotesStorageError) in
      try statement.bind(notebook.id.rawValue, at: 1)
      try statement.bind(notebook.title, at: 2)
      try statement.step()
    }
    try expectOneRowChanged(table: "notebooks", id: notebook.id.rawValue, in: connection)
  }

  private func insert(_ note: Note, into connection: SQLiteConnection) throws(NotesStorageError) {
    let sql =
      hasRecentlyDeleted
      ? SQL.insertNoteRestoringUID : hasSyncIdentity ? SQL.insertNoteWithUID : SQL.insertNote
    try connection.withStatement(sql) { statement throws(NotesStorageError) in
      try bindColumns(of: note, to: statement)
      try statement.bind(dates.value(note.created), at: 7)
      if hasSyncIdentity { try statement.bind(SyncBookkeeping.newUID(now: clock()), at: 8) }
      try statement.step()
    }
  }

  private func update(_ note: Note, in connection: SQLiteConnection) throws(NotesStorageError) {
    try connection.withStatement(SQL.updateNote) { statement throws(NotesStorageError) in
      try bindColumns(of: note, to: statement)
      try statement.step()
    }
    try expectOneRowChanged(table: "notes", id: note.id.rawValue, in: connection)
  }

  /// Binds parameters 1–6 of ``SQL/insertNote``, ``SQL/updateNote`` and
  /// `SQL.upsertDeletedNote`.
  func bindColumns(of note: Note, to statement: Statement) throws(NotesStorageError) {
    try statement.bind(note.id.rawValue, at: 1)
    try statement.bind(note.notebookID.rawValue, at: 2)
    try statement.bind(note.title, at: 3)
    try statement.bind(note.body, at: 4)
    try statement.bind(dates.value(note.modified), at: 5)
    try statement.bind(note.isPinned, at: 6)
  }

  private func delete(
    _ id: Int64, sql: String, table: String, in connection: SQLiteConnection
  ) throws(NotesStorageError) {
    try connection.withStatement(sql) { statement throws(NotesStorageError) in
      try statement.bind(id, at: 1)
      try statement.step()
    }
    try expectOneRowChanged(table: table, id: id, in: connection)
  }

  private func setMeta(
    _ key: String, in connection: SQLiteConnection,
    value bindValue: (Statement) throws(NotesStorageError) -> Void
  ) throws(NotesStorageError) {
    try connection.withStatement(SQL.setMeta) { statement throws(NotesStorageError) in
      try statement.bind(key, at: 1)
      try bindValue(statement)
      try statement.step()
    }
  }

  private func expectOneRowChanged(
    table: String, id: Int64, in connection: SQLiteConnection
  ) throws(NotesStorageError) {
    guard connection.changedRowCount == 1 else {
      throw .outOfSync(table: table, id: id, reason: "the row is missing from the database")
    }
  }
}
