import Airframe
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct ActionDispatcherTests {
  func makeDispatcher(notes: [Note] = []) -> ActionDispatcher<Library> {
    ActionDispatcher(model: Model(Library(notes: EntityTable(notes))))
  }

  @Test func aValidActionCommitsAndIsUndoable() {
    let dispatcher = makeDispatcher()
    let outcome = dispatcher.dispatch(AddNote(note: Note(id: 1, title: "Groceries")))
    #expect(outcome.isCommitted)
    // The outcome says what the action created: no scanning the model for it.
    #expect(outcome.createdIDs(in: \Library.notes) == [1])
    #expect(outcome.createdID(in: \Library.notes) == 1)
    #expect(dispatcher.model.state.notes[1]?.title == "Groceries")
    #expect(dispatcher.undoAvailability.value.undoName == "Add Note")
    #expect(dispatcher.undo() == .committed(revision: 2))
    #expect(dispatcher.model.state.notes.count == 0)
    #expect(dispatcher.undoAvailability.value == .init(undoName: nil, redoName: "Add Note"))
    let redone = dispatcher.redo()
    #expect(redone.isCommitted && redone.createdID(in: \Library.notes) == 1)
    #expect(dispatcher.model.state.notes[1]?.title == "Groceries")
  }

  @Test func anOutcomeCarriesOnlyWhatItsOwnStepCreated() {
    let dispatcher = makeDispatcher(notes: [Note(id: 1, title: "a")])
    let rename = dispatcher.dispatch(RenameNote(id: 1, title: "b"))
    #expect(rename == .committed(revision: 1))
    #expect(rename.createdIDs(in: \Library.notes).isEmpty)
    let added = dispatcher.group(named: "Add Two") {
      [
        dispatcher.dispatch(AddNote(note: Note(id: 2, title: "c"))),
        dispatcher.dispatch(AddNote(note: Note(id: 3, title: "d"))),
      ]
    }
    #expect(added.map { $0.createdIDs(in: \Library.notes) } == [[2], [3]])
    #expect(dispatcher.undo().createdIDs(in: \Library.notes).isEmpty)
    #expect(dispatcher.redo().createdIDs(in: \Library.notes) == [2, 3])
    #expect(
      dispatcher.dispatch(AddNote(note: Note(id: 3, title: "e"))).createdID(in: \Library.notes)
        == nil)
  }

  @Test func anInvalidActionChangesNothingAndSaysWhyWithEveryReason() {
    let dispatcher = makeDispatcher()
    let outcome = dispatcher.dispatch(AddNote(note: Note(id: 1, title: "   ")))
    guard case .invalid(let result) = outcome else {
      Issue.record("expected .invalid, got \(outcome)")
      return
    }
    #expect(result.summary == "The title must not be empty.")
    #expect(dispatcher.model.revision == 0)
    #expect(dispatcher.undoAvailability.value.undoName == nil)
    let both = dispatcher.dispatch(RenameNote(id: 9, title: "a\u{7}"))
    #expect(
      both
        == .invalid(
          ValidationResult([
            ValidationIssue(field: "note", message: "There is no note with id 9."),
            ValidationIssue(
              field: "title", message: "The title must not contain control characters."),
          ])))
  }

  @Test func aNewActionClearsRedo() {
    let dispatcher = makeDispatcher(notes: [Note(id: 1, title: "a")])
    dispatcher.dispatch(RenameNote(id: 1, title: "b"))
    dispatcher.undo()
    #expect(dispatcher.undoAvailability.value.redoName == "Rename Note")
    dispatcher.dispatch(RenameNote(id: 1, title: "c"))
    #expect(dispatcher.undoAvailability.value.redoName == nil)
    #expect(dispatcher.redo() == .rejected("Nothing to redo."))
  }

  @Test func undoAndRedoWalkTheHistoryInOrder() {
    let dispatcher = makeDispatcher(notes: [Note(id: 1, title: "a")])
    dispatcher.dispatch(RenameNote(id: 1, title: "b"))
    dispatcher.dispatch(RenameNote(id: 1, title: "c"))
    dispatcher.undo()
    #expect(dispatcher.model.state.notes[1]?.title == "b")
    dispatcher.undo()
    #expect(dispatcher.model.state.notes[1]?.title == "a")
    #expect(dispatcher.undo() == .rejected("Nothing to undo."))
    dispatcher.redo()
    dispatcher.redo()
    #expect(dispatcher.model.state.notes[1]?.title == "c")
  }

  @Test func aGroupIsUndoneInOneStepAndOneCommit() {
    let dispatcher = makeDispatcher()
    dispatcher.group(named: "Add Two Notes") {
      dispatcher.dispatch(AddNote(note: Note(id: 1, title: "one")))
      dispatcher.dispatch(RenameNote(id: 1, title: "uno"))
      dispatcher.dispatch(AddNote(note: Note(id: 2, title: "two")))
    }
    #expect(dispatcher.undoAvailability.value.undoName == "Add Two Notes")
    let revision = dispatcher.model.revision
    #expect(dispatcher.undo() == .committed(revision: revision + 1))
    #expect(dispatcher.model.state.notes.count == 0)
    #expect(dispatcher.undoAvailability.value.undoName == nil)
    dispatcher.redo()
    #expect(dispatcher.model.state.notes[1]?.title == "uno")
    #expect(dispatcher.model.state.notes[2]?.title == "two")
  }

  @Test func undoOfAnActionWhoseTargetNoLongerExistsFailsWithAReason() throws {
    let dispatcher = makeDispatcher(notes: [Note(id: 1, title: "a")])
    dispatcher.dispatch(RenameNote(id: 1, title: "b"))
    // Something outside the undo history (a sync, say) deletes the note.
    try dispatcher.model.write(origin: .background("test")) { try $0.remove(1, from: \.notes) }
    let outcome = dispatcher.undo()
    #expect(outcome.description == "There is no note with id 1.")
    #expect(dispatcher.model.state.notes.count == 0)
    #expect(dispatcher.undoAvailability.value.undoName == nil)
  }

  @Test func theActionLogRecordsEveryDispatchWithItsOutcomeAndChanges() {
    let dispatcher = makeDispatcher()
    dispatcher.dispatch(AddNote(note: Note(id: 1, title: "a")))
    dispatcher.dispatch(AddNote(note: Note(id: 2, title: "")))
    dispatcher.undo()
    let entries = dispatcher.log.entries
    #expect(entries.map(\.name) == ["Add Note", "Add Note", "Undo Add Note"])
    #expect(entries.map(\.outcome.isCommitted) == [true, false, true])
    #expect(entries[0].changeSummary == "notes +1 ~0 -0")
    #expect(entries[1].validation.summary == "The title must not be empty.")
    #expect(entries[2].changeSummary == "notes +0 ~0 -1")
    #expect(entries[0].description.hasPrefix("Add Note: Done (revision 1). notes +1 ~0 -0 ["))
  }

  @Test func theActionLogKeepsItsNewestEntriesInOrderPastItsLimit() {
    let dispatcher = ActionDispatcher(
      model: Model(Library(notes: EntityTable([]))), log: ActionLog(limit: 3))
    for id in 1...7 {
      dispatcher.dispatch(AddNote(note: Note(id: id, title: "note \(id)")))
      #expect(dispatcher.log.entries.count == min(id, 3))
    }
    #expect(
      dispatcher.log.entries.map(\.changeSummary) == Array(repeating: "notes +1 ~0 -0", count: 3))
    #expect(dispatcher.log.entries.map { $0.outcome.createdID(in: \Library.notes) } == [5, 6, 7])
    dispatcher.log.removeAll()
    #expect(dispatcher.log.entries.isEmpty)
    dispatcher.dispatch(AddNote(note: Note(id: 8, title: "note 8")))
    #expect(dispatcher.log.entries.map { $0.outcome.createdID(in: \Library.notes) } == [8])
  }

  @Test func dispatchingFromACommitObserverFailsVisibly() {
    let dispatcher = makeDispatcher()
    var nested: ActionOutcome?
    let observer = dispatcher.model.observeCommits { _ in
      nested = dispatcher.dispatch(AddNote(note: Note(id: 2, title: "nested")))
    }
    dispatcher.dispatch(AddNote(note: Note(id: 1, title: "outer")))
    #expect(nested == .failed(ModelError.reentrantWrite.description))
    #expect(dispatcher.model.state.notes.count == 1)
    observer.cancel()
  }
}
