import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesPresentation

/// Each gesture of a session, without any presentation: what it changes, what it reports,
/// and that every projection agrees with a recomputation afterwards.
@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct SessionGestureTests {
  let home = NotebookID(rawValue: 1)
  let ideas = NotebookID(rawValue: 2)
  let work = NotebookID(rawValue: 3)

  @Test func aNewSessionSelectsTheFirstNoteAndShowsItInTheEditor() {
    let session = makeSession()
    #expect(session.selectedNote.value == session.list.row(at: 0).id)
    #expect(session.editorState.value.noteID == session.list.row(at: 0).id)
    session.expectProjectionsAgree(after: "opening")
    session.close()
  }

  @Test func selectingANotebookFiltersTheListAndNamesTheWindow() {
    let session = makeSession()
    session.notebookSelected(home)
    #expect(Set(session.list.rows.map(\.notebookID)) == [home])
    #expect(session.title.value.hasPrefix("\u{2068}Home\u{2069}"))
    session.expectProjectionsAgree(after: "selecting Home")
    session.notebookSelected(nil)
    #expect(session.list.count == 6)
    session.expectProjectionsAgree(after: "selecting All notes")
    session.close()
  }

  @Test func searchingKeepsASelectionWhileNotesAreListed() {
    let session = makeSession()
    session.searchTyped("groc")
    #expect(session.list.rows.map(\.title) == ["Groceries"])
    #expect(session.selectedNote.value == session.list.row(at: 0).id)
    session.expectProjectionsAgree(after: "searching groc")
    session.searchTyped("nothing like this")
    #expect(session.list.count == 0)
    #expect(session.selectedNote.value == nil)
    #expect(session.editorState.value.noteID == nil)
    session.expectProjectionsAgree(after: "searching for nothing")
    session.searchTyped("")
    #expect(session.selectedNote.value != nil)
    session.expectProjectionsAgree(after: "clearing the search")
    session.close()
  }

  @Test func aNewNoteIsSelectedAndShownEvenWhenTheSearchWouldHideIt() throws {
    let session = makeSession()
    session.notebookSelected(home)
    session.searchTyped("groc")
    let outcome = session.noteCreated(titled: "Packing list")
    #expect(outcome.isCommitted)
    let id = try #require(outcome.createdID(in: \NotesState.notes))
    #expect(session.search.value.isEmpty)
    #expect(session.selectedNote.value == id)
    #expect(session.editorState.value.title == "Packing list")
    session.expectProjectionsAgree(after: "creating a note")
    session.close()
  }

  @Test func aRefusedGestureChangesNothingAndSaysWhy() {
    let session = makeSession()
    let revision = session.model.revision
    let outcome = session.notebookCreated(titled: "home")  // "Home" exists
    #expect(!outcome.isCommitted)
    #expect(session.model.revision == revision)
    #expect(session.status.value.message?.contains("Home") == true)
    session.expectProjectionsAgree(after: "a refused notebook")
    session.notebookSelected(nil)
    #expect(!session.notebookDeletionRequested().isCommitted)
    #expect(session.status.value.message == "Select a notebook first.")
    #expect(session.model.revision == revision)
    session.close()
  }

  @Test func messagesNameThePresentationsOwnKeys() {
    let model = Model(SampleLibrary.state(now: fixedDate))
    let keys: [SessionCommand: String] = [.undo: "Ctrl+Z", .redo: "Shift+Ctrl+Z"]
    let session = NotesSession(
      model: model,
      sync: SyncDriver(model: model, service: SimulatedSyncService(steps: 2, stepDelay: .zero)),
      now: { fixedDate },
      shortcut: { keys[$0] ?? "" })
    let title = session.list.row(at: 0).title
    #expect(session.noteDeleted().isCommitted)
    #expect(session.status.value.message == "Deleted “\u{2068}\(title)\u{2069}” — Ctrl+Z to undo")
    #expect(session.undoRequested().isCommitted)
    #expect(session.status.value.message == "Undid “Delete Note” — Shift+Ctrl+Z redoes it")
    #expect(session.redoRequested().isCommitted)
    #expect(session.status.value.message == "Redid “Delete Note” — Ctrl+Z undoes it")
    session.close()
  }

  @Test func deletingTheSelectedNoteSelectsItsNeighbourAndSaysWhatItDid() {
    let session = makeSession()
    let second = session.list.row(at: 1).id
    let first = session.list.row(at: 0)
    #expect(session.noteDeleted().isCommitted)
    // A session given no keys names none.
    #expect(session.status.value.message == "Deleted “\u{2068}\(first.title)\u{2069}”")
    #expect(session.selectedNote.value == second)
    session.expectProjectionsAgree(after: "deleting a note")
    #expect(session.undoRequested().isCommitted)
    #expect(session.status.value.message == "Undid “Delete Note”")
    #expect(session.list.row(for: first.id) != nil)
    session.expectProjectionsAgree(after: "undoing")
    #expect(session.redoRequested().isCommitted)
    #expect(session.list.row(for: first.id) == nil)
    session.expectProjectionsAgree(after: "redoing")
    session.close()
  }

  @Test func deletingANotebookWithNotesWaitsForTheAnswer() throws {
    let session = makeSession()
    session.notebookSelected(home)
    #expect(session.notebookDeletionRequested() == .unchanged)
    let pending = try #require(session.confirmations.pending.first)
    #expect(pending.notebookID == home)
    session.deletionAnswered(pending.id, confirmed: false)
    #expect(session.title(of: home) == "Home")
    #expect(session.confirmations.pending.isEmpty)
    session.notebookDeletionRequested()
    let again = try #require(session.confirmations.pending.first)
    #expect(session.deletionAnswered(again.id, confirmed: true).isCommitted)
    #expect(session.title(of: home) == nil)
    #expect(session.selectedNotebook.value == nil)
    session.expectProjectionsAgree(after: "deleting Home and its notes")
    // An answer given twice is refused.
    #expect(!session.deletionAnswered(again.id, confirmed: true).isCommitted)
    session.close()
  }

  @Test func renamingMovingAndPinningGoThroughTheirCommands() throws {
    let session = makeSession()
    session.notebookSelected(home)
    let id = try #require(session.selectedNote.value)
    let title = try #require(session.title(of: id))
    #expect(session.noteRenameBegan() == title)
    #expect(session.noteRenamed(to: "Shopping").isCommitted)
    #expect(session.title(of: id) == "Shopping")
    // The next rename in the same field is based on the committed title.
    #expect(session.noteRenamed(to: "Shopping list").isCommitted)
    #expect(session.title(of: id) == "Shopping list")
    #expect(session.moveTargets(for: id).map(\.id) == [ideas, work])
    #expect(session.noteMoved(to: work).isCommitted)
    // Moved out of the notebook shown: another of Home's notes is selected.
    #expect(session.list.row(for: id) == nil)
    #expect(session.selectedNote.value != nil)
    session.expectProjectionsAgree(after: "moving")
    #expect(session.pinToggled().isCommitted)
    session.expectProjectionsAgree(after: "pinning")
    #expect(session.notebookRenamed(to: "House").isCommitted)
    #expect(session.title(of: home) == "House")
    session.expectProjectionsAgree(after: "renaming the notebook")
    session.close()
  }

  @Test func typingSavesEachEditAsOneUndoStepPerRun() throws {
    let session = makeSession()
    let id = try #require(session.selectedNote.value)
    let body = session.editorState.value.body
    session.bodyTyped(body + "a")
    session.bodyTyped(body + "ab")
    #expect(session.model.state.notes[id]?.body == body + "ab")
    #expect(!session.editorState.value.isDirty)
    session.expectProjectionsAgree(after: "typing")
    session.typingEnded()
    session.bodyTyped(body + "abc")
    session.undoRequested()
    #expect(session.model.state.notes[id]?.body == body + "ab")
    session.undoRequested()
    #expect(session.model.state.notes[id]?.body == body)
    session.expectProjectionsAgree(after: "undoing two runs")
    session.close()
  }

  @Test func aTitleDraftOverTheLimitSaysSoUntilItIsBackWithin() {
    let session = makeSession()
    let long = String(repeating: "x", count: NotesRules.titleLimit + 1)
    session.titleDrafted(long, field: "note title")
    #expect(session.status.value.message?.contains("note title") == true)
    session.titleDrafted("short", field: "note title")
    #expect(session.status.value.message == nil)
    session.close()
  }

  @Test func syncNowFollowsTheModelWhichSaysSyncingWhileTheViewsWaitTheirDelay() async throws {
    let clock = TestScheduler()
    let model = Model(NotesState())
    let sync = SyncDriver(
      model: model,
      service: SimulatedSyncService(steps: 1, stepDelay: .seconds(1), scheduler: clock),
      scheduler: clock)
    let session = NotesSession(model: model, sync: sync, scheduler: clock)
    // A sync the app starts on its own, as after an edit.
    guard case .started(let running) = sync.request(.edit) else {
      Issue.record("the sync did not start")
      return
    }
    // The model says a sync runs; Sync Now reads the model; the status bar and the title
    // wait their delay. They do not disagree: each shows what it owns.
    #expect(session.model.state.sync == .syncing(progress: 0, lastSynced: nil))
    #expect(session.availability(of: .syncNow).value == .disabled("A sync is running."))
    #expect(
      session.menu.value.first { $0.name == SessionCommand.syncNow.name }?.availability
        == .disabled("A sync is running."))
    #expect(session.status.value.sync == "Not synced")
    // Sync Now while it runs: refused, and the status bar says why.
    session.syncRequested()
    #expect(session.status.value.message == "A sync is running.")
    #expect(sync.syncCount == 1)
    // The sync's one step and the views' delay sleep on the test's clock; once both are
    // asleep, they are woken. Both waits end the test when they fail: the sync awaited
    // would otherwise sleep for ever.
    try await clock.waitForSleepers(3, within: .seconds(60))
    await clock.advance(by: .milliseconds(500))
    #expect(session.status.value.sync == "Syncing 0%")
    await clock.advance(by: .milliseconds(500))
    try await withDeadline("the sync ends", within: .seconds(60)) { await running.value }
    #expect(session.availability(of: .syncNow).value == .enabled)
    #expect(session.status.value.sync == "Synced")
    session.close()
  }

  @Test func undoAndRedoInTheMenuNameTheStepTheyWouldTake() {
    let session = makeSession()
    func label(_ command: SessionCommand) -> String? {
      session.menu.value.first { $0.name == command.name }?.label
    }
    #expect(label(.undo) == "Undo")
    #expect(label(.redo) == "Redo")
    #expect(label(.newNote) == "New Note")
    #expect(session.noteDeleted().isCommitted)
    #expect(label(.undo) == "Undo Delete Note")
    #expect(session.pinToggled().isCommitted)
    #expect(label(.undo) == "Undo Pin Note")
    #expect(session.undoRequested().isCommitted)
    #expect(label(.undo) == "Undo Delete Note")
    #expect(label(.redo) == "Redo Pin Note")
    session.close()
  }

  @Test func everyCommandIsInTheMenuWithItsAvailability() {
    let model = Model(NotesState())
    let session = NotesSession(
      model: model, sync: SyncDriver(model: model, service: SimulatedSyncService(stepDelay: .zero)),
      shortcut: { $0 == .newNote ? "n" : "" })
    let rows = session.menu.value
    #expect(rows.map(\.name) == SessionCommand.allCases.map(\.name))
    #expect(rows.first?.shortcut == "n")
    // No notebooks yet: a new note needs one first.
    #expect(session.availability(of: .newNote).value == .disabled("Create a notebook first."))
    #expect(session.notebookCreated(titled: "Inbox").isCommitted)
    #expect(session.availability(of: .newNote).value == .enabled)
    session.expectProjectionsAgree(after: "creating the first notebook")
    session.close()
  }
}
