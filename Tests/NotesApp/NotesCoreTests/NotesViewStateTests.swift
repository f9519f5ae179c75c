import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

/// The seeded generator the randomized tests share (SplitMix64).
typealias SeededGenerator = SeededRandomNumberGenerator

/// All the Notes presentations over one model.
@MainActor
final class NotesPresentations {
  let dispatcher: ActionDispatcher<NotesState>
  let sidebar: SidebarController
  let list: NoteListController
  let title: WindowTitleController
  let status: StatusBarController
  let editor: EditorController

  init(state: NotesState) {
    dispatcher = ActionDispatcher(model: Model(state))
    sidebar = SidebarController(model: dispatcher.model)
    list = NoteListController(model: dispatcher.model)
    // What the title and the status bar say of each status; how long a sync runs before
    // they say it is SyncDriverTests' subject.
    title = WindowTitleController(model: dispatcher.model, syncDelay: .zero)
    status = StatusBarController(model: dispatcher.model, syncDelay: .zero)
    editor = EditorController(dispatcher: dispatcher) { Date(timeIntervalSince1970: 50_000) }
  }

  var model: Model<NotesState> { dispatcher.model }

  func cancel() {
    sidebar.cancel()
    list.cancel()
    title.cancel()
    status.cancel()
    editor.cancel()
  }
}

@Suite(.noLiveBindings)
@MainActor
struct NotesViewStateTests {
  func randomAction(
    _ rng: inout SeededGenerator, state: NotesState, step: Int
  ) -> any Action<NotesState> {
    let notebooks = state.notebooks.elements.map(\.id).sorted()
    let notes = state.notes.elements.map(\.id).sorted()
    let now = Date(timeIntervalSince1970: Double(10_000 + step))
    let anyNotebook = notebooks.randomElement(using: &rng) ?? NotebookID(rawValue: 999)
    let anyNote = notes.randomElement(using: &rng) ?? NoteID(rawValue: 999)
    switch Int.random(in: 0..<10, using: &rng) {
    case 0: return CreateNotebook(title: "Notebook \(step)", now: now)
    case 1, 2:
      return CreateNote(
        notebookID: anyNotebook, title: "Note \(step)", body: "body \(step)", now: now)
    case 3:
      return RenameNote(
        id: anyNote, title: ["Alpha", "beta", "Gamma", ""].randomElement(using: &rng)!, now: now)
    case 4: return MoveNote(id: anyNote, to: anyNotebook, now: now)
    case 5: return SetNotePinned(id: anyNote, isPinned: Bool.random(using: &rng))
    case 6: return DeleteNote(id: anyNote)
    case 7: return DeleteNotebook(id: anyNotebook, deletingNotes: Bool.random(using: &rng))
    case 8: return RenameNotebook(id: anyNotebook, title: "Renamed \(step % 7)")
    default: return EditNoteBody(id: anyNote, body: "edited \(step)", now: now)
    }
  }

  @Test(arguments: [1, 2, 3])
  func everyPresentationEqualsAFullRecomputationAfterRandomChanges(seed: UInt64) {
    var rng = SeededGenerator(seed: seed)
    let start = Date(timeIntervalSince1970: 0)
    let notebooks = (1...3).map {
      Notebook(id: NotebookID(rawValue: Int64($0)), title: "Book \($0)", created: start)
    }
    var notes: [Note] = []
    for number in 10..<200 {
      let raw = Int64(number)
      notes.append(
        Note(
          id: NoteID(rawValue: raw), notebookID: NotebookID(rawValue: raw % 3 + 1),
          title: "Note \(number)", body: "text \(number)", created: start,
          modified: Date(timeIntervalSince1970: Double(number)), isPinned: number % 17 == 0))
    }
    let app = NotesPresentations(state: NotesState(notebooks: notebooks, notes: notes))
    let sidebarRows = ValueRecorder(app.sidebar.rows)
    for step in 0..<300 {
      let state = app.model.state
      switch Int.random(in: 0..<12, using: &rng) {
      case 0: app.dispatcher.undo()
      case 1: app.dispatcher.redo()
      case 2:
        app.list.notebook = [nil, NotebookID(rawValue: 1), NotebookID(rawValue: 2)].randomElement(
          using: &rng)!
      case 3: app.list.search = ["", "note 1", "EDITED", "beta"].randomElement(using: &rng)!
      case 4: app.list.sort = Bool.random(using: &rng) ? NoteSort.title : NoteSort.modified
      case 5: app.title.note = state.notes.elements.map { (note: Note) in note.id }.min()
      default: app.dispatcher.dispatch(randomAction(&rng, state: state, step: step))
      }
      let now = app.model.state
      #expect(
        sidebarRows.last == SidebarController.recomputedRows(for: now), "seed \(seed) step \(step)")
      let expectedList = NoteListController.recomputedRows(
        for: now, notebook: app.list.notebook, search: app.list.search, sort: app.list.sort)
      #expect(app.list.lens.rows == expectedList, "seed \(seed) step \(step)")
      #expect(
        app.title.title.value
          == WindowTitleController.title(
            for: now, note: app.title.note, notebook: app.title.notebook, hasUnsavedEdits: false),
        "seed \(seed) step \(step)")
      #expect(app.status.status.value == StatusBarController.status(for: now, message: nil))
      #expect(app.sidebar.renderedRevision == app.model.revision)
      #expect(app.title.renderedRevision == app.model.revision)
      #expect(app.status.renderedRevision == app.model.revision)
    }
    // The sequence must have exercised the incremental paths, not just refusals.
    #expect(app.model.revision > 100)
    app.cancel()
  }

  @Test func sidebarSelectionIsClearedWhenItsNotebookIsDeleted() {
    let app = NotesPresentations(state: sampleState())
    #expect(app.sidebar.select(home))
    #expect(!app.sidebar.select(NotebookID(rawValue: 77)))
    app.dispatcher.dispatch(DeleteNotebook(id: home))
    #expect(app.sidebar.selectedNotebook.value == nil)
    app.cancel()
  }

  @Test func windowTitleShowsNotebookNoteAndMarkers() async {
    let app = NotesPresentations(state: sampleState())
    let titles = ValueRecorder(app.title.title)
    app.title.note = plan
    app.title.hasUnsavedEdits = true
    app.dispatcher.dispatch(RenameNotebook(id: work, title: "Office"))
    try? app.model.write(origin: .background("test")) {
      $0.set(\.sync, to: .syncing(progress: 0.4, lastSynced: nil))
    }
    try? app.model.write(origin: .background("test")) {
      $0.set(\.sync, to: .failed(message: "offline", lastSynced: nil))
    }
    // Each title isolated (U+2068 … U+2069) from the other and the app's words.
    let (work, office, plan) = (
      "\u{2068}Work\u{2069}", "\u{2068}Office\u{2069}", "\u{2068}Plan\u{2069}"
    )
    #expect(
      titles.values == [
        "Notes", "\(work) — \(plan)", "• \(work) — \(plan)", "• \(office) — \(plan)",
        "• \(office) — \(plan) — Syncing 40%", "• \(office) — \(plan) — Sync failed",
      ])
    app.cancel()
  }

  @Test func statusBarShowsCountsSyncAndTheLastMessage() {
    let app = NotesPresentations(state: sampleState())
    let outcome = app.dispatcher.dispatch(CreateNotebook(title: "work", now: t1))
    app.status.report(outcome)
    // The title the refusal quotes is isolated (U+2068 … U+2069) for display; the issue's
    // plain message, which logs and files keep, is not.
    #expect(
      app.status.status.value.text
        == "2 notebooks · 1 note · Not synced · "
        + "A notebook title \"\u{2068}Work\u{2069}\" already exists."
    )
    #expect(outcome.description == "A notebook title \"Work\" already exists.")
    app.status.report(app.dispatcher.dispatch(CreateNotebook(title: "Travel", now: t1)))
    #expect(app.status.status.value.text == "3 notebooks · 1 note · Not synced")
    app.cancel()
  }
}

@Suite(.noLiveBindings)
@MainActor
struct EditorControllerTests {
  @Test func aSaveIsOneUndoStepAndNeverAConflict() {
    let app = NotesPresentations(state: sampleState())
    let states = ValueRecorder(app.editor.state)
    app.editor.open(plan)
    app.editor.userEditedBody("Ship it soon")
    #expect(app.editor.state.value.isDirty)
    #expect(app.editor.save().isCommitted)
    #expect(app.editor.state.value.conflict == nil)
    #expect(!app.editor.state.value.isDirty)
    #expect(app.model.state.notes[plan]?.body == "Ship it soon")
    #expect(app.dispatcher.undoAvailability.value.undoName == "Edit Note")
    app.dispatcher.undo()
    #expect(app.model.state.notes[plan]?.body == "Ship it")
    // The undo came from elsewhere while the draft was clean: the editor shows it.
    #expect(app.editor.state.value.body == "Ship it")
    #expect(states.values.allSatisfy { $0.conflict == nil })
    app.cancel()
  }

  @Test func theEditorsSavesAreIntentsItsSaveCommandJudges() {
    let app = NotesPresentations(state: sampleState())
    let readOnly = StateSource(true)
    // A save command that refuses while the library is read-only: the editor writes
    // nothing itself, so the command's verdict is the save's.
    let saves = ActionController<NotesState, EditorMachine.Save>(
      dispatcher: app.dispatcher, name: "Edit Note", reading: readOnly,
      requires: { isReadOnly, _ in
        Requirement(isReadOnly ? nil : (), otherwise: "The library is read-only.")
      },
      makeAction: { _, save in EditNoteBody(id: save.id, body: save.body, now: t1) })
    let editor = EditorController(model: app.model, saves: saves)
    editor.open(plan)
    let refused = editor.bodyTyped("Ship it today")
    #expect(refused.description == "The library is read-only.")
    #expect(app.model.state.notes[plan]?.body == "Ship it")
    #expect(editor.state.value.body == "Ship it today")
    #expect(editor.state.value.isDirty)
    readOnly.set(false)
    #expect(editor.save().isCommitted)
    #expect(app.model.state.notes[plan]?.body == "Ship it today")
    editor.cancel()
    app.cancel()
  }

  @Test func aChangeElsewhereWhileDirtyIsAConflictNotAnOverwrite() {
    let app = NotesPresentations(state: sampleState())
    app.editor.open(plan)
    app.editor.userEditedBody("my draft")
    app.dispatcher.dispatch(EditNoteBody(id: plan, body: "their change", now: t1))
    let state = app.editor.state.value
    #expect(state.body == "my draft")
    #expect(state.conflict?.body == "their change")
    #expect(
      app.editor.save()
        == .rejected("The note was changed elsewhere; keep your version or theirs first."))
    #expect(app.model.state.notes[plan]?.body == "their change")
    app.editor.keepMine()
    #expect(app.editor.save().isCommitted)
    #expect(app.model.state.notes[plan]?.body == "my draft")
    app.cancel()
  }

  @Test func takingTheirsDropsTheDraft() {
    let app = NotesPresentations(state: sampleState())
    app.editor.open(plan)
    app.editor.userEditedBody("Mine")
    app.dispatcher.dispatch(EditNoteBody(id: plan, body: "Theirs", now: t1))
    app.editor.takeTheirs()
    #expect(app.editor.state.value.body == "Theirs")
    #expect(!app.editor.state.value.isDirty)
    #expect(app.editor.save() == .unchanged)
    app.cancel()
  }

  @Test func aRenameElsewhereReachesAnUnsavedDraftWithoutAConflict() {
    let app = NotesPresentations(state: sampleState())
    app.editor.open(plan)
    app.editor.userEditedBody("my draft")
    app.dispatcher.dispatch(RenameNote(id: plan, title: "Roadmap", now: t1))
    let state = app.editor.state.value
    #expect(state.title == "Roadmap")
    #expect(state.body == "my draft")
    #expect(state.conflict == nil)
    #expect(app.editor.save().isCommitted)
    #expect(app.model.state.notes[plan]?.title == "Roadmap")
    #expect(app.model.state.notes[plan]?.body == "my draft")
    app.cancel()
  }

  @Test func aDeletedNoteCannotBeSaved() {
    let app = NotesPresentations(state: sampleState())
    app.editor.open(plan)
    app.editor.userEditedBody("draft")
    app.dispatcher.dispatch(DeleteNote(id: plan))
    #expect(app.editor.state.value.isDeleted)
    #expect(app.editor.save() == .rejected("The note was deleted."))
    app.cancel()
  }

  @Test func anInvalidDraftIsRefusedWithTheReason() {
    let app = NotesPresentations(state: sampleState())
    app.editor.open(plan)
    app.editor.userEditedBody(String(repeating: "b", count: NotesRules.bodyLimit + 1))
    #expect(app.editor.save().description.contains("at most"))
    #expect(app.editor.state.value.isDirty)
    #expect(app.model.state.notes[plan]?.body == "Ship it")
    app.cancel()
  }
}
