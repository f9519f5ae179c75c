import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

/// `ImportNotes` through the dispatcher: one step, all or nothing, every reason labelled.
@Suite(.noLiveBindings)
@MainActor
struct ImportNotesTests {
  static let now = Date(timeIntervalSince1970: 1_700_000_000)

  func library() -> ActionDispatcher<NotesState> {
    var state = NotesState()
    state.notebooks = EntityTable([
      Notebook(id: NotebookID(rawValue: 1), title: "Work", created: Self.now)
    ])
    state.lastAssignedID = 1
    return ActionDispatcher(model: Model(state))
  }

  func note(_ title: String, in notebook: Int64, label: String, pinned: Bool = false)
    -> ImportNotes.NoteItem
  {
    ImportNotes.NoteItem(
      notebook: notebook, title: title, body: "body of \(title)", created: Self.now,
      modified: Self.now.addingTimeInterval(5), isPinned: pinned, label: label)
  }

  @Test func notesGoToNotebooksTheSameImportCreatesOrMergesIntoAndUndoIsOneStep() {
    let dispatcher = library()
    let action = ImportNotes(
      notebooks: [
        .init(key: 10, title: "Home", created: nil, label: "notebooks[0]"),
        .init(key: 11, title: " work ", created: nil, label: "notebooks[1]"),
      ],
      notes: [
        note("Groceries", in: 10, label: "notes[0]", pinned: true),
        note("Plan", in: 11, label: "notes[1]"),
      ], now: Self.now)
    let outcome = dispatcher.dispatch(action)
    guard case .committed(_, let created) = outcome else {
      Issue.record("not committed: \(outcome)")
      return
    }
    let state = dispatcher.model.state
    #expect(created.ids(in: \NotesState.notebooks).count == 1)
    #expect(state.notebooks.count == 2)
    let groceries = state.notes.elements.first { $0.title == "Groceries" }
    #expect(groceries?.isPinned == true)
    #expect(groceries?.modified == Self.now.addingTimeInterval(5))
    #expect(state.notes.elements.first { $0.title == "Plan" }?.notebookID.rawValue == 1)
    #expect(dispatcher.log.entries.count == 1)
    #expect(dispatcher.undoAvailability.value.undoName == "Import")
    #expect(dispatcher.undo().isCommitted)
    #expect(dispatcher.model.state.notes.count == 0)
    #expect(dispatcher.model.state.notebooks.count == 1)
    #expect(dispatcher.redo().isCommitted)
    #expect(dispatcher.model.state.notes.count == 2)
    #expect(dispatcher.model.state.notebooks.count == 2)
  }

  @Test func everyRefusedItemIsReportedWithItsLabelAndNothingIsSaved() {
    let dispatcher = library()
    let action = ImportNotes(
      notebooks: [
        .init(key: 10, title: "Home", created: nil, label: "notebooks[0]"),
        .init(key: 12, title: "HOME", created: nil, label: "notebooks[1]"),
        .init(key: 13, title: "  ", created: nil, label: "Trips/.notebook.md"),
        .init(key: 10, title: "Again", created: nil, label: "notebooks[3]"),
      ],
      notes: [
        note("Fine", in: 10, label: "notes[0]"),
        note("", in: 12, label: "notes[1]"),
        note("Lost", in: 99, label: "Trips/lost.md"),
      ], now: Self.now)
    let before = dispatcher.model.state
    let outcome = dispatcher.dispatch(action)
    guard case .invalid(let result) = outcome else {
      Issue.record("not refused: \(outcome)")
      return
    }
    #expect(
      result.issues.map(\.message) == [
        "Trips/.notebook.md: The notebook title must not be empty.",
        "notebooks[3]: another notebook has the id 10 too",
        "notes[1]: The note title must not be empty.",
        "Trips/lost.md: no notebook in the document has the id 99",
      ])
    #expect(dispatcher.model.state == before)
    #expect(dispatcher.model.revision == 0)
    #expect(dispatcher.log.entries.last?.validation == result)
    #expect(dispatcher.undoAvailability.value.undoName == nil)
  }

  @Test func anActionRefusalFromPerformIsInvalidNotFailed() {
    struct Refusing: Action {
      var name: String { "Refusing" }
      func validate(in state: NotesState) -> ValidationResult { ValidationResult() }
      func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
        NotesState
      > {
        transaction.set(\.lastAssignedID, to: 42)
        throw ActionRefusal(ValidationResult([ValidationIssue(field: "x", message: "No.")]))
      }
    }
    let dispatcher = library()
    #expect(
      dispatcher.dispatch(Refusing())
        == .invalid(ValidationResult([ValidationIssue(field: "x", message: "No.")])))
    #expect(dispatcher.model.state.lastAssignedID == 1)
  }
}
