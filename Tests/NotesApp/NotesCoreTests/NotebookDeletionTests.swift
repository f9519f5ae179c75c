import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

@Suite(.noLiveBindings)
@MainActor
struct NotebookDeletionTests {
  @Test func anEmptyNotebookIsDeletedAtOnce() {
    let dispatcher = ActionDispatcher(model: Model(sampleState()))
    let deletion = NotebookDeletion(dispatcher: dispatcher)
    #expect(deletion.deleteRequested(home).isCommitted)
    #expect(deletion.confirmations.pending.isEmpty)
  }

  @Test func aConfirmationIsWithdrawnWhenItsNotebookIsGone() throws {
    let dispatcher = ActionDispatcher(model: Model(sampleState()))
    let deletion = NotebookDeletion(dispatcher: dispatcher)
    let created = dispatcher.dispatch(CreateNotebook(title: "Trip", now: t0))
    let trip = try #require(created.createdID(in: \NotesState.notebooks))
    #expect(
      dispatcher.dispatch(CreateNote(notebookID: trip, title: "Tickets", now: t0)).isCommitted)
    #expect(deletion.deleteRequested(trip) == .unchanged)
    #expect(deletion.deleteRequested(work) == .unchanged)
    #expect(deletion.confirmations.pending.count == 2)
    // Undoing the note and the notebook removes "Trip": its question goes, Work's stays.
    #expect(dispatcher.undo().isCommitted)
    #expect(deletion.confirmations.pending.count == 2)  // Trip is still there, now empty
    #expect(dispatcher.undo().isCommitted)
    #expect(deletion.confirmations.pending.map(\.notebookID) == [work])
    // Asking about a notebook again after its question was withdrawn works as the first time.
    #expect(dispatcher.redo().isCommitted)
    #expect(deletion.deleteRequested(trip).isCommitted)  // empty now: deleted at once
    deletion.cancel()
  }

  @Test func aNonEmptyNotebookWaitsForConfirmationThatSurvivesADetachedView() {
    let dispatcher = ActionDispatcher(model: Model(sampleState()))
    let deletion = NotebookDeletion(dispatcher: dispatcher)
    #expect(deletion.deleteRequested(work) == .unchanged)
    #expect(deletion.deleteRequested(work) == .unchanged)  // not asked twice
    #expect(dispatcher.model.state.notebooks.contains(work))

    // The view that asked is gone; a new one attaches and still sees the question.
    let view = ValueRecorder(deletion.confirmations)
    // The title isolated (U+2068 … U+2069) from the question around it.
    #expect(view.values.map(\.message) == ["Delete \"\u{2068}Work\u{2069}\" and its note?"])
    let confirmation = view.values[0]
    #expect(deletion.answer(confirmation.id, confirmed: true).isCommitted)
    #expect(!dispatcher.model.state.notebooks.contains(work))
    #expect(dispatcher.model.state.notes.count == 0)
    view.cancel()

    // Answered: a later view never sees it again, and a second answer does nothing.
    let later = ValueRecorder(deletion.confirmations)
    #expect(later.values.isEmpty)
    #expect(
      deletion.answer(confirmation.id, confirmed: true)
        == .rejected("That confirmation was already answered."))
    later.cancel()

    // Undo restores the notebook and its note.
    dispatcher.undo()
    #expect(dispatcher.model.state == sampleState())
  }

  @Test func decliningChangesNothingAndAllowsAskingAgain() {
    let dispatcher = ActionDispatcher(model: Model(sampleState()))
    let deletion = NotebookDeletion(dispatcher: dispatcher)
    deletion.deleteRequested(work)
    let first = deletion.confirmations.pending[0]
    #expect(deletion.answer(first.id, confirmed: false) == .unchanged)
    #expect(dispatcher.model.state == sampleState())
    deletion.deleteRequested(work)
    #expect(deletion.confirmations.pending.map(\.id) == [first.id + 1])
  }
}
