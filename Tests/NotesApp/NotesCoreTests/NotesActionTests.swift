import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

let t0 = Date(timeIntervalSince1970: 1_000)
let t1 = Date(timeIntervalSince1970: 2_000)
let work = NotebookID(rawValue: 1)
let home = NotebookID(rawValue: 2)
let plan = NoteID(rawValue: 3)

/// Two notebooks; "Work" holds one note.
func sampleState() -> NotesState {
  NotesState(
    notebooks: [
      Notebook(id: work, title: "Work", created: t0),
      Notebook(id: home, title: "Home", created: t0),
    ],
    notes: [Note(id: plan, notebookID: work, title: "Plan", body: "Ship it", created: t0)])
}

@Suite(.noLiveBindings)
@MainActor
struct NotebookActionTests {
  @Test func createNotebookAssignsTheNextIdAndTrimsTheTitle() {
    let store = ModelTestStore(initialState: sampleState())
    let created = Notebook(id: NotebookID(rawValue: 4), title: "Travel", created: t1)
    store.send(
      CreateNotebook(title: "  Travel ", now: t1),
      changes: [.table(\.notebooks, inserted: [created.id]), .value(\.lastAssignedID)]
    ) {
      $0.notebooks = EntityTable([$0.notebooks[work]!, $0.notebooks[home]!, created])
      $0.lastAssignedID = 4
    }
    store.undo(changes: [.table(\.notebooks, removed: [created.id])]) {
      $0.notebooks = sampleState().notebooks
    }
    store.redo(changes: [.table(\.notebooks, inserted: [created.id])]) {
      $0.notebooks = EntityTable([$0.notebooks[work]!, $0.notebooks[home]!, created])
    }
  }

  @Test(arguments: [
    ("", "The notebook title must not be empty."),
    ("   ", "The notebook title must not be empty."),
    ("work", "A notebook title \"Work\" already exists."),
    (" HOME ", "A notebook title \"Home\" already exists."),
    ("Tab\there", "The notebook title must not contain control characters."),
    (String(repeating: "x", count: 201), "The notebook title must be at most 200 characters."),
  ])
  func invalidNotebookTitlesAreRefusedWithAReason(title: String, reason: String) {
    let store = ModelTestStore(initialState: sampleState())
    let outcome = store.send(CreateNotebook(title: title, now: t1))
    #expect(outcome.description == reason)
  }

  @Test func renameNotebookMayKeepItsOwnTitleInAnotherCase() {
    let store = ModelTestStore(initialState: sampleState())
    store.send(
      RenameNotebook(id: work, title: "WORK"), changes: [.table(\.notebooks, updated: [work])]
    ) {
      $0.notebooks = EntityTable([
        Notebook(id: work, title: "WORK", created: t0), $0.notebooks[home]!,
      ])
    }
    #expect(
      store.send(RenameNotebook(id: work, title: "home")).description.contains("already exists"))
    #expect(
      store.send(RenameNotebook(id: NotebookID(rawValue: 99), title: "x")).description
        == "There is no notebook with id 99.")
  }

  @Test func deletingANonEmptyNotebookNeedsConfirmationAndUndoRestoresItsNotes() {
    let store = ModelTestStore(initialState: sampleState())
    let refused = store.send(DeleteNotebook(id: work))
    #expect(
      refused.description == "Deleting \"Work\" also deletes its 1 note; confirm to continue.")
    let note = sampleState().notes[plan]!
    store.send(
      DeleteNotebook(id: work, deletingNotes: true, now: t1),
      changes: [
        .table(\.notebooks, removed: [work]), .table(\.notes, removed: [plan]),
        .table(\.recentlyDeleted, inserted: [plan]),
      ]
    ) {
      $0.notebooks = EntityTable([$0.notebooks[home]!])
      $0.notes = EntityTable()
      $0.recentlyDeleted = EntityTable([DeletedNote(note: note, notebookTitle: "Work", deleted: t1)]
      )
    }
    store.undo(
      changes: [
        .table(\.notebooks, inserted: [work]), .table(\.notes, inserted: [plan]),
        .table(\.recentlyDeleted, removed: [plan]),
      ]
    ) {
      $0 = sampleState()
    }
  }

  @Test func deletingAnEmptyNotebookNeedsNoConfirmation() {
    let store = ModelTestStore(initialState: sampleState())
    store.send(DeleteNotebook(id: home), changes: [.table(\.notebooks, removed: [home])]) {
      $0.notebooks = EntityTable([$0.notebooks[work]!])
    }
  }
}

@Suite(.noLiveBindings)
@MainActor
struct NoteActionTests {
  @Test func createNoteInANotebook() {
    let store = ModelTestStore(initialState: sampleState())
    let note = Note(
      id: NoteID(rawValue: 4), notebookID: home, title: "Groceries", body: "milk", created: t1)
    store.send(
      CreateNote(notebookID: home, title: "Groceries ", body: "milk", now: t1),
      changes: [.table(\.notes, inserted: [note.id]), .value(\.lastAssignedID)]
    ) {
      $0.notes = EntityTable([$0.notes[plan]!, note])
      $0.lastAssignedID = 4
    }
    store.undo(changes: [.table(\.notes, removed: [note.id])]) { $0.notes = sampleState().notes }
  }

  @Test func createNoteValidatesNotebookTitleAndBody() {
    let store = ModelTestStore(initialState: sampleState())
    let outcome = store.send(
      CreateNote(notebookID: NotebookID(rawValue: 9), title: " ", body: "bad\u{1B}[2J", now: t1))
    guard case .invalid(let result) = outcome else {
      Issue.record("expected invalid, got \(outcome)")
      return
    }
    #expect(
      result.issues.map(\.message) == [
        "There is no notebook with id 9.",
        "The note title must not be empty.",
        "The note body must not contain control characters other than tabs and line breaks.",
      ])
  }

  @Test func renameEditMovePinAndTheirUndo() {
    let store = ModelTestStore(initialState: sampleState())
    var note = sampleState().notes[plan]!
    var snapshots = [EntityTable([note])]
    func expectStep(_ action: some Action<NotesState>, _ edit: (inout Note) -> Void) {
      edit(&note)
      let expected = EntityTable([note])
      store.send(action, changes: [.table(\.notes, updated: [plan])]) { $0.notes = expected }
      snapshots.append(expected)
    }
    expectStep(RenameNote(id: plan, title: " Roadmap", now: t1)) {
      $0.title = "Roadmap"
      $0.modified = t1
    }
    expectStep(EditNoteBody(id: plan, body: "Ship it\n\tsoon", now: t1)) {
      $0.body = "Ship it\n\tsoon"
    }
    expectStep(MoveNote(id: plan, to: home, now: t1)) { $0.notebookID = home }
    expectStep(SetNotePinned(id: plan, isPinned: true)) { $0.isPinned = true }
    #expect(store.dispatcher.undoAvailability.value.undoName == "Pin Note")
    // Each undo restores exactly the state before its step, modification date included.
    for previous in snapshots.dropLast().reversed() {
      store.undo(changes: [.table(\.notes, updated: [plan])]) { $0.notes = previous }
    }
    #expect(store.model.state.notes == sampleState().notes)
  }

  @Test func renamingToTheSameTitleChangesNothing() {
    let store = ModelTestStore(initialState: sampleState())
    #expect(store.send(RenameNote(id: plan, title: "Plan ", now: t1)) == .unchanged)
  }

  @Test func movingIntoAMissingNotebookIsRefused() {
    let store = ModelTestStore(initialState: sampleState())
    #expect(
      store.send(MoveNote(id: plan, to: NotebookID(rawValue: 42), now: t1)).description
        == "There is no notebook with id 42.")
  }

  @Test func deleteNoteMovesItToRecentlyDeletedAndUndoBringsItBack() {
    let store = ModelTestStore(initialState: sampleState())
    let note = sampleState().notes[plan]!
    let entry = DeletedNote(note: note, notebookTitle: "Work", deleted: t1)
    let deleted = [
      ExpectedChange<NotesState>.table(\.notes, removed: [plan]),
      .table(\.recentlyDeleted, inserted: [plan]),
    ]
    store.send(DeleteNote(id: plan, now: t1), changes: deleted) {
      $0.notes = EntityTable()
      $0.recentlyDeleted = EntityTable([entry])
    }
    store.undo(
      changes: [.table(\.notes, inserted: [plan]), .table(\.recentlyDeleted, removed: [plan])]
    ) { $0 = sampleState() }
    store.redo(changes: deleted) {
      $0.notes = EntityTable()
      $0.recentlyDeleted = EntityTable([entry])
    }
  }

  @Test func undoOfAnEditWhoseNoteWasDeletedElsewhereFailsWithAReason() throws {
    let store = ModelTestStore(initialState: sampleState())
    store.send(
      RenameNote(id: plan, title: "Roadmap", now: t1), changes: [.table(\.notes, updated: [plan])]
    ) {
      $0.notes = EntityTable([
        Note(
          id: plan, notebookID: work, title: "Roadmap", body: "Ship it", created: t0, modified: t1)
      ])
    }
    try store.model.write(origin: .background("test")) { try $0.remove(plan, from: \.notes) }
    #expect(store.undo().description == "There is no note with id 3.")
  }

  @Test func hugeAndHostileInputIsRefusedAndChangesNothing() {
    let store = ModelTestStore(initialState: sampleState())
    let huge = String(repeating: "y", count: 1 << 20)
    #expect(!store.send(RenameNote(id: plan, title: huge, now: t1)).isCommitted)
    #expect(!store.send(EditNoteBody(id: plan, body: huge + huge, now: t1)).isCommitted)
    let sqlish = "'; DROP TABLE notes; -- 100% \"quoted\""
    store.send(
      RenameNote(id: plan, title: sqlish, now: t1), changes: [.table(\.notes, updated: [plan])]
    ) {
      $0.notes = EntityTable([
        Note(id: plan, notebookID: work, title: sqlish, body: "Ship it", created: t0, modified: t1)
      ])
    }
  }

  @Test func aClashingNotebookTitleGetsTheFirstFreeNumberUnderTheActionsOwnKey() {
    // Taken as the actions judge uniqueness: case and surrounding white space ignored.
    let state = NotesState(notebooks: [
      Notebook(id: NotebookID(rawValue: 1), title: "Work", created: .distantPast),
      Notebook(id: NotebookID(rawValue: 2), title: " work 2", created: .distantPast),
    ])
    func taken(_ key: String) -> Bool {
      state.notebooks.elements.contains { NotesRules.notebookTitleKey($0.title) == key }
    }
    #expect(NotesRules.freeNotebookTitle("Home", isTaken: taken) == "Home")
    #expect(NotesRules.freeNotebookTitle("WORK", isTaken: taken) == "WORK 3")
    let free = NotesRules.freeNotebookTitle("Work", isTaken: taken)
    #expect(NotesRules.notebookTitleIssues(free, in: state).isEmpty)
    // A long title is shortened before its number to keep the limit.
    let long = String(repeating: "w", count: NotesRules.titleLimit)
    let numbered = NotesRules.freeNotebookTitle(long) { (key: String) -> Bool in
      key == NotesRules.notebookTitleKey(long)
    }
    #expect(numbered.count == NotesRules.titleLimit && numbered.hasSuffix(" 2"))
  }
}
