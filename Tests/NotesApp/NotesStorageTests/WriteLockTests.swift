// A write whose library another process keeps changing: the last try holds SQLite's write
// lock through the catch-up and the commit, so it cannot be refused a third time.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

/// A process's storage with another process that commits each time this one catches up,
/// unless this one holds the write lock: then it checks that it cannot.
@MainActor
final class RacedStorage: ModelStorage {
  let database: NotesDatabase
  let other: LibraryProcess
  let otherNote: NoteID
  let probe: SQLiteConnection
  private var isHolding = false
  private(set) var otherCommits = 0
  private(set) var refusedWhileHeld = 0

  init(database: NotesDatabase, other: LibraryProcess, otherNote: NoteID, path: String) throws {
    self.database = database
    self.other = other
    self.otherNote = otherNote
    probe = try SQLiteConnection(path: path, create: false)
    try probe.run("PRAGMA busy_timeout = 0")
  }

  func persist(_ commit: Commit<NotesState>) throws { try database.persist(commit) }

  func externalChanges() throws -> ExternalChanges<NotesState>? {
    let changes = try database.externalChanges()
    if isHolding {
      // Another writer cannot take the lock now.
      do {
        try probe.run("BEGIN IMMEDIATE")
        try probe.run("ROLLBACK")
      } catch {
        refusedWhileHeld += 1
      }
    } else {
      // Another process commits right after this one has caught up.
      try other.catchUp()
      let edit = EditNoteBody(id: otherNote, body: "edit \(otherCommits)", now: .now)
      #expect(other.dispatcher.dispatch(edit).isCommitted)
      otherCommits += 1
    }
    return changes
  }

  func holdingWriteLock<Result>(_ body: () throws -> Result) throws -> Result {
    try database.holdingWriteLock {
      isHolding = true
      defer { isHolding = false }
      return try body()
    }
  }
}

@Suite(.noLiveBindings)
@MainActor
struct WriteLockTests {
  @Test func aWriteThatAnotherProcessKeepsOvertakingLandsOnItsLastTry() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let a = try LibraryProcess(path: path)
    defer { a.close() }
    let now = Date(timeIntervalSinceReferenceDate: 1_000)
    let created = a.dispatcher.dispatch(CreateNotebook(title: "Home", now: now))
    let notebook = try #require(created.createdID(in: \NotesState.notebooks))
    let mine = try #require(
      a.dispatcher.dispatch(CreateNote(notebookID: notebook, title: "Mine", now: now))
        .createdID(in: \NotesState.notes))
    let theirs = try #require(
      a.dispatcher.dispatch(CreateNote(notebookID: notebook, title: "Theirs", now: now))
        .createdID(in: \NotesState.notes))

    let database = try NotesDatabase(path: path)
    defer { database.close() }
    let storage = try RacedStorage(database: database, other: a, otherNote: theirs, path: path)
    defer { storage.probe.close() }
    let model = Model(try database.loadState(), storage: storage)
    // The other process commits first: this one is behind at its first try, and again after
    // each catch-up, until it holds the lock.
    #expect(a.dispatcher.dispatch(EditNoteBody(id: theirs, body: "first", now: now)).isCommitted)
    let result = ActionDispatcher(model: model).dispatch(
      EditNoteBody(id: mine, body: "mine, at last", now: now))
    #expect(result.isCommitted, "\(result)")
    #expect(storage.otherCommits == 2)
    #expect(storage.refusedWhileHeld == 1)
    // Both processes' edits are in the file, and this model has all of them.
    let stored = try NotesDatabase(path: path)
    defer { stored.close() }
    let state = try stored.loadState()
    #expect(state.notes[mine]?.body == "mine, at last")
    #expect(state.notes[theirs]?.body == "edit 1")
    #expect(model.state.notes[theirs]?.body == "edit 1")
    // The lock is released: the other process writes again.
    #expect(a.dispatcher.dispatch(EditNoteBody(id: theirs, body: "after", now: now)).isCommitted)
  }
}

@Suite
@MainActor
struct HeldWriteLockTests {
  @Test func whatTheHeldTransactionDidNotEndIsRolledBackAndTheLockFreed() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    let other = try SQLiteConnection(path: path, create: false)
    defer { other.close() }
    try other.run("PRAGMA busy_timeout = 0")
    struct Stop: Error {}
    // A body that fails before its write: nothing stays, and another writer gets the lock.
    var otherWasRefused = false
    #expect(throws: Stop.self) {
      try database.holdingWriteLock { () throws -> Void in
        otherWasRefused = (try? other.run("BEGIN IMMEDIATE")) == nil
        throw Stop()
      }
    }
    #expect(otherWasRefused)
    try other.run("BEGIN IMMEDIATE")
    try other.run("ROLLBACK")
  }
}
