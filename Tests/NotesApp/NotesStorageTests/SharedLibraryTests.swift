// Several processes on one library, as two or three connections in one test process:
// each `NotesDatabase` is its own SQLite connection, exactly what another process has.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

/// One "process": a connection, its model, and its dispatcher.
@MainActor
final class LibraryProcess {
  let database: NotesDatabase
  let model: Model<NotesState>
  let dispatcher: ActionDispatcher<NotesState>

  init(path: String) throws {
    database = try NotesDatabase(path: path)
    model = Model(try database.loadState(), storage: database)
    dispatcher = ActionDispatcher(model: model)
  }

  /// A process whose model over `database` is `model`.
  init(model: Model<NotesState>, database: NotesDatabase) {
    self.database = database
    self.model = model
    dispatcher = ActionDispatcher(model: model)
  }

  /// What the watcher does on each tick.
  @discardableResult
  func catchUp() throws -> Bool {
    guard try database.hasExternalChanges() else { return false }
    return try model.catchUpWithStorage()
  }

  func close() { database.close() }
}

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct SharedLibraryTests {
  let now = Date(timeIntervalSinceReferenceDate: 1_000)

  func stored(_ path: String) throws -> NotesState {
    let reader = try NotesDatabase(path: path)
    defer { reader.close() }
    return try reader.loadState()
  }

  func comparable(_ state: NotesState) -> NotesState {
    var state = state
    state.sync = .idle(lastSynced: state.sync.lastSynced)
    return state
  }

  /// Runs `body` with two processes on a new library file, closed and removed afterwards.
  func withTwoProcesses(
    _ body: (LibraryProcess, LibraryProcess, String) throws -> Void
  ) throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let a = try LibraryProcess(path: path)
    let b = try LibraryProcess(path: path)
    defer {
      a.close()
      b.close()
    }
    try body(a, b, path)
  }

  @Test func anotherProcessesCommitsArriveAsOneExternalCommit() throws {
    try withTwoProcesses { a, b, path in
      var origins: [CommitOrigin] = []
      let observation = b.model.observeCommits { origins.append($0.origin) }
      defer { observation.cancel() }

      #expect(try !b.database.hasExternalChanges())
      let home = a.dispatcher.dispatch(CreateNotebook(title: "Home", now: now))
      let notebook = try #require(home.createdID(in: \NotesState.notebooks))
      #expect(
        a.dispatcher.dispatch(CreateNote(notebookID: notebook, title: "Milk", now: now)).isCommitted
      )

      #expect(try b.database.hasExternalChanges())
      #expect(try b.catchUp())
      #expect(origins == [.external("another process")])
      #expect(b.model.state == a.model.state)
      #expect(b.dispatcher.undoAvailability.value.undoName == nil)
      #expect(try !b.catchUp())
    }
  }

  @Test func idsAllocatedInTwoProcessesNeverCollide() throws {
    try withTwoProcesses { a, b, path in
      // Neither has seen the other's commit when it writes.
      let first = a.dispatcher.dispatch(CreateNotebook(title: "Home", now: now))
      let second = b.dispatcher.dispatch(CreateNotebook(title: "Work", now: now))
      #expect(first.isCommitted)
      #expect(second.isCommitted)
      let ids = [first, second].compactMap { $0.createdID(in: \NotesState.notebooks) }
      #expect(Set(ids).count == 2)
      // B caught up before writing, so it already holds both; A catches up now.
      try a.catchUp()
      #expect(comparable(a.model.state) == comparable(try stored(path)))
      #expect(comparable(b.model.state) == comparable(try stored(path)))
      #expect(b.model.state.notebooks.count == 2)
    }
  }

  @Test func aBodySavedOverAnotherProcessesEditBecomesTheEditorsConflict() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let setup = try LibraryProcess(path: path)
    let notebook = try #require(
      setup.dispatcher.dispatch(CreateNotebook(title: "Home", now: now)).createdID(
        in: \NotesState.notebooks))
    let note = try #require(
      setup.dispatcher.dispatch(
        CreateNote(notebookID: notebook, title: "List", body: "milk", now: now)
      ).createdID(in: \NotesState.notes))
    setup.close()

    let a = try LibraryProcess(path: path)
    let b = try LibraryProcess(path: path)
    defer {
      a.close()
      b.close()
    }
    let editorA = EditorController(dispatcher: a.dispatcher)
    let editorB = EditorController(dispatcher: b.dispatcher)
    defer {
      editorA.cancel()
      editorB.cancel()
    }
    editorA.open(note)
    editorB.open(note)
    editorA.userEditedBody("milk, eggs")
    #expect(editorA.save(asTyping: true).isCommitted)
    // B types before it has seen A's save: the save catches up and finds the change.
    editorB.userEditedBody("milk, bread")
    let outcome = editorB.save(asTyping: true)
    #expect(!outcome.isCommitted)
    #expect(editorB.state.value.conflict?.body == "milk, eggs")
    #expect(editorB.state.value.body == "milk, bread")
    #expect(try stored(path).notes[note]?.body == "milk, eggs")

    // Keep mine: the draft is now based on A's text and saves.
    editorB.keepMine()
    #expect(editorB.save().isCommitted)
    #expect(try stored(path).notes[note]?.body == "milk, bread")
    // A sees it on its next tick; its editor, with nothing unsaved, shows it.
    #expect(try a.catchUp())
    #expect(editorA.state.value.body == "milk, bread")
    #expect(editorA.state.value.conflict == nil)
  }

  @Test func renamesAgainstAChangedOrDeletedNoteAreRefusedWithAReason() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let a = try LibraryProcess(path: path)
    let notebook = try #require(
      a.dispatcher.dispatch(CreateNotebook(title: "Home", now: now)).createdID(
        in: \NotesState.notebooks))
    let kept = try #require(
      a.dispatcher.dispatch(CreateNote(notebookID: notebook, title: "Old", now: now)).createdID(
        in: \NotesState.notes))
    let doomed = try #require(
      a.dispatcher.dispatch(CreateNote(notebookID: notebook, title: "Gone", now: now))
        .createdID(in: \NotesState.notes))
    let b = try LibraryProcess(path: path)
    defer {
      a.close()
      b.close()
    }

    #expect(a.dispatcher.dispatch(RenameNote(id: kept, title: "A's title", now: now)).isCommitted)
    #expect(a.dispatcher.dispatch(DeleteNote(id: doomed)).isCommitted)

    let renamed = b.dispatcher.dispatch(
      RenameNote(id: kept, title: "B's title", now: now, expectedTitle: "Old"))
    guard case .invalid(let reasons) = renamed else {
      Issue.record("expected a refusal, got \(renamed)")
      return
    }
    #expect(reasons.issues.map(\.message).contains { $0.contains("changed elsewhere") })
    let renamedDeleted = b.dispatcher.dispatch(RenameNote(id: doomed, title: "Back", now: now))
    guard case .invalid(let missing) = renamedDeleted else {
      Issue.record("expected a refusal, got \(renamedDeleted)")
      return
    }
    #expect(missing.issues.map(\.message).contains { $0.contains("There is no note") })
    #expect(try stored(path).notes[kept]?.title == "A's title")
    #expect(b.model.state.notes[kept]?.title == "A's title")
  }

  @Test func aMoveAgainstANoteMovedElsewhereIsRefusedWithAReason() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let a = try LibraryProcess(path: path)
    let home = try #require(
      a.dispatcher.dispatch(CreateNotebook(title: "Home", now: now)).createdID(
        in: \NotesState.notebooks))
    let work = try #require(
      a.dispatcher.dispatch(CreateNotebook(title: "Work", now: now)).createdID(
        in: \NotesState.notebooks))
    let ideas = try #require(
      a.dispatcher.dispatch(CreateNotebook(title: "Ideas", now: now)).createdID(
        in: \NotesState.notebooks))
    let note = try #require(
      a.dispatcher.dispatch(CreateNote(notebookID: home, title: "Plan", now: now)).createdID(
        in: \NotesState.notes))
    let b = try LibraryProcess(path: path)
    defer {
      a.close()
      b.close()
    }
    #expect(a.dispatcher.dispatch(MoveNote(id: note, to: work, now: now)).isCommitted)
    let moved = b.dispatcher.dispatch(
      MoveNote(id: note, to: ideas, now: now, expectedNotebook: home))
    guard case .invalid(let reasons) = moved else {
      Issue.record("expected a refusal, got \(moved)")
      return
    }
    #expect(reasons.issues.map(\.message) == ["\"Plan\" was moved elsewhere meanwhile."])
    #expect(try stored(path).notes[note]?.notebookID == work)
  }

  @Test func aReaderBehindTheTrimmedLogReadsTheWholeLibrary() throws {
    try withTwoProcesses { a, b, path in
      let notebook = try #require(
        a.dispatcher.dispatch(CreateNotebook(title: "Home", now: now)).createdID(
          in: \NotesState.notebooks))
      let note = try #require(
        a.dispatcher.dispatch(CreateNote(notebookID: notebook, title: "Counter", now: now))
          .createdID(in: \NotesState.notes))
      let edits = Int(ChangeLog.keptEntries + 2 * ChangeLog.trimInterval)
      for edit in 1...edits {
        _ = a.dispatcher.dispatch(EditNoteBody(id: note, body: "\(edit)", now: now))
      }
      let kept = try #require(try RawDatabase.int64(path, "SELECT count(*) FROM change_log"))
      #expect(kept <= ChangeLog.keptEntries + ChangeLog.trimInterval)
      #expect(try b.catchUp())
      #expect(b.model.state == a.model.state)
      #expect(b.model.state.notes[note]?.body == "\(edits)")
    }
  }

  @Test func closingLeavesTheFileWritableForTheOthers() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let a = try LibraryProcess(path: path)
    let b = try LibraryProcess(path: path)
    defer { b.close() }
    #expect(a.dispatcher.dispatch(CreateNotebook(title: "Home", now: now)).isCommitted)
    a.close()
    #expect(b.dispatcher.dispatch(CreateNotebook(title: "Work", now: now)).isCommitted)
    #expect(try stored(path).notebooks.count == 2)
  }

  @Test func theWatcherBringsTheModelUpToDateOnItsTick() throws {
    try withTwoProcesses { a, b, path in
      let watcher = LibraryWatcher(database: b.database, model: b.model)
      #expect(!watcher.check())
      #expect(a.dispatcher.dispatch(CreateNotebook(title: "Home", now: now)).isCommitted)
      #expect(watcher.check())
      #expect(watcher.catchUpCount == 1)
      #expect(b.model.state.notebooks.count == 1)
      #expect(!watcher.check())
    }
  }
}
