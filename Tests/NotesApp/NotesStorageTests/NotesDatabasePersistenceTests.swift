import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

@Suite(.noLiveBindings)
@MainActor
struct NotesDatabasePersistenceTests {
  typealias F = Fixtures

  /// What a file holds of `state`: the model's sync status is never written (the sync
  /// engine records the time of the last sync, and no sync ran here), so it loads as idle
  /// and never synced.
  private func stored(_ state: NotesState) -> NotesState {
    var state = state
    state.sync = .idle(lastSynced: nil)
    return state
  }

  /// A commit of many rows writes with a large page cache and gives it back: the
  /// connection's limit is SQLite's again afterwards, whether the commit landed or failed,
  /// and the rows are all there.
  @Test func aBulkCommitGivesItsLargePageCacheBack() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try NotesDatabase(path: folder.file("notes.sqlite"))
    defer { database.close() }
    let connection = try database.openConnection()
    let normal = try connection.int64("PRAGMA cache_size")
    let model = Model(try database.loadState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      for id in 2...(NotesDatabase.bulkRows + 1) {
        try transaction.insert(F.note(Int64(id), in: 1, "Note \(id)", "body"), into: \.notes)
      }
    }
    #expect(try connection.int64("PRAGMA cache_size") == normal)
    #expect(try database.loadState().notes.count == NotesDatabase.bulkRows)
    // A bulk commit the database refuses (a note in a notebook that is not there).
    #expect(throws: (any Error).self) {
      try model.write(origin: .background("test")) { transaction in
        for id in 5_000..<(5_000 + NotesDatabase.bulkRows) {
          try transaction.insert(F.note(Int64(id), in: 99, "Orphan", ""), into: \.notes)
        }
      }
    }
    #expect(try connection.int64("PRAGMA cache_size") == normal)
    #expect(try database.loadState().notes.count == NotesDatabase.bulkRows)
  }

  @Test func commitsRoundTripThroughAReopenedFile() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let database = try NotesDatabase(path: path)
    let model = Model(try database.loadState(), storage: database)
    #expect(model.state == NotesState())

    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.notebook(2, "Work"), into: \.notebooks)
      try transaction.insert(F.note(3, in: 1, "Groceries", "milk, eggs"), into: \.notes)
      try transaction.insert(F.note(4, in: 1, "Plants", "water the fern"), into: \.notes)
      try transaction.insert(F.note(5, in: 2, "Standup", ""), into: \.notes)
      try transaction.insert(F.note(6, in: 2, "Review", "it's \"quoted\"; 100%"), into: \.notes)
      transaction.set(\.lastAssignedID, to: 6)
    }
    #expect(try database.loadState() == stored(model.state))

    try model.write(origin: .background("test")) { transaction in
      try transaction.update(NoteID(rawValue: 3), in: \.notes) {
        $0.title = "Groceries (weekend)"
        $0.body = "milk, eggs, bread"
        $0.modified = F.date(100)
      }
      try transaction.update(NoteID(rawValue: 4), in: \.notes) {
        $0.notebookID = NotebookID(rawValue: 2)
      }
      try transaction.update(NoteID(rawValue: 5), in: \.notes) { $0.isPinned = true }
      try transaction.remove(NoteID(rawValue: 6), from: \.notes)
      try transaction.update(NotebookID(rawValue: 2), in: \.notebooks) { $0.title = "Office" }
      transaction.set(\.sync, to: .syncing(progress: 0.5, lastSynced: F.date(50)))
    }
    #expect(try database.loadState() == stored(model.state))

    try model.write(origin: .background("test")) { transaction in
      try transaction.remove(NoteID(rawValue: 3), from: \.notes)
      try transaction.remove(NotebookID(rawValue: 1), from: \.notebooks)
      try transaction.insert(F.notebook(7, "Ideas"), into: \.notebooks)
      try transaction.insert(F.note(8, in: 7, "Cabin", "🌲 naïve café"), into: \.notes)
      transaction.set(\.lastAssignedID, to: 8)
      transaction.set(\.sync, to: .failed(message: "offline", lastSynced: F.date(60)))
    }
    database.close()

    let reopened = try NotesDatabase(path: path)
    defer { reopened.close() }
    let loaded = try reopened.loadState()
    #expect(loaded == stored(model.state))
    #expect(loaded.sync == .idle(lastSynced: nil))
    #expect(loaded.lastAssignedID == 8)
    #expect(loaded.notes.count == 3)
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func aFailedCommitLeavesDatabaseAndModelUnchanged() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    let model = Model(NotesState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk"), into: \.notes)
    }
    let modelBefore = model.state
    let databaseBefore = try database.loadState()

    // The orphaned note violates the notebook foreign key, checked at COMMIT, after the
    // other rows of the commit were already written inside the transaction.
    #expect(throws: ModelError.self) {
      try model.write(origin: .background("test")) { transaction in
        try transaction.update(NoteID(rawValue: 2), in: \.notes) { $0.title = "Shopping" }
        try transaction.insert(F.notebook(3, "Work"), into: \.notebooks)
        try transaction.insert(F.note(4, in: 99, "Orphan", "lost"), into: \.notes)
        transaction.set(\.lastAssignedID, to: 99)
      }
    }
    #expect(model.state == modelBefore)
    #expect(model.revision == 1)
    #expect(try database.loadState() == databaseBefore)
    #expect(try database.search("shopping").isEmpty)
    #expect(try database.search("orphan").isEmpty)
    #expect(try database.search("groceries") == F.noteIDs(2))

    // The connection is usable afterwards: the transaction was rolled back, not left open.
    try model.write(origin: .background("test")) {
      try $0.update(NoteID(rawValue: 2), in: \.notes) { $0.title = "Shopping" }
    }
    #expect(try database.search("shopping") == F.noteIDs(2))
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func persistThrowsTypedErrorsAndRollsBack() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let database = try NotesDatabase(path: path)
    let model = Model(NotesState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries"), into: \.notes)
      try transaction.insert(F.note(3, in: 1, "Plants"), into: \.notes)
    }
    // Someone deletes a row behind the model's back; the next update of it must not
    // silently write nothing.
    try database.connection.execute(script: "DELETE FROM notes WHERE id = 3")
    var commit: Commit<NotesState>?
    let lifetime = model.observeCommits { commit = $0 }
    defer { lifetime.cancel() }
    do {
      try model.write(origin: .background("test")) { transaction in
        try transaction.update(NoteID(rawValue: 2), in: \.notes) { $0.title = "Changed" }
        try transaction.update(NoteID(rawValue: 3), in: \.notes) { $0.title = "Gone" }
      }
      Issue.record("The write should have failed")
    } catch {
      let expected = NotesStorageError.outOfSync(
        table: "notes", id: 3, reason: "the row is missing from the database")
      #expect(error as? ModelError == .storageFailed(expected.description))
    }
    #expect(commit == nil)
    #expect(try database.loadState().notes[NoteID(rawValue: 2)]?.title == "Groceries")

    database.close()
    #expect(throws: NotesStorageError.closed) { try database.loadState() }
    #expect(throws: NotesStorageError.closed) { try database.search("x") }
    #expect(throws: ModelError.storageFailed(NotesStorageError.closed.description)) {
      try model.write(origin: .background("test")) {
        try $0.update(NoteID(rawValue: 2), in: \.notes) { $0.title = "Late" }
      }
    }
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func everyDateReadsBackExactly() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try NotesDatabase(path: folder.file("notes.sqlite"))
    defer { database.close() }
    // Dates with every bit of their fraction in use, as `Date()` gives them.
    let created = Date(timeIntervalSinceReferenceDate: 760_000_000.123_456_789)
    let modified = Date(timeIntervalSinceReferenceDate: 816_000_000.987_654_321)
    let synced = Date(timeIntervalSinceReferenceDate: 0.000_000_1)
    let model = Model(NotesState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(
        Notebook(id: NotebookID(rawValue: 1), title: "Home", created: created), into: \.notebooks)
      try transaction.insert(
        Note(
          id: NoteID(rawValue: 2), notebookID: NotebookID(rawValue: 1), title: "a",
          created: created, modified: modified), into: \.notes)
      transaction.set(\.lastAssignedID, to: 2)
      transaction.set(\.sync, to: .idle(lastSynced: synced))
    }
    // The time of the last sync is the sync engine's to record.
    let store = try LibrarySyncStore(path: database.path)
    try store.recordSynced(at: synced)
    store.close()
    #expect(try database.loadState() == model.state)
  }
}
