import Airframe
import AirframeTesting
import Foundation
import NotesCore
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

  @Test func aNonEmptyNotebookWaitsForConfirmationThatSurvivesADetachedView() {
    let dispatcher = ActionDispatcher(model: Model(sampleState()))
    let deletion = NotebookDeletion(dispatcher: dispatcher)
    #expect(deletion.deleteRequested(work) == .unchanged)
    #expect(deletion.deleteRequested(work) == .unchanged)  // not asked twice
    #expect(dispatcher.model.state.notebooks.contains(work))

    // The view that asked is gone; a new one attaches and still sees the question.
    let view = ValueRecorder(deletion.confirmations)
    #expect(view.values.map(\.message) == ["Delete \"Work\" and its note?"])
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
