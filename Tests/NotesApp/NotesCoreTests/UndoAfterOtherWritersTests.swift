import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

/// Notes' undo next to other writers: a sync or another process writing the same note.
@Suite(.noLiveBindings)
@MainActor
struct UndoAfterOtherWritersTests {
  @Test func undoingAnEditRefusesToOverwriteTheSameNoteWrittenByAnotherProcess() throws {
    let dispatcher = ActionDispatcher(model: Model(sampleState()))
    #expect(dispatcher.dispatch(EditNoteBody(id: plan, body: "mine", now: t1)).isCommitted)
    try dispatcher.model.write(origin: .external("another process")) {
      try $0.update(plan, in: \.notes) { $0.body = "theirs" }
    }
    let outcome = dispatcher.undo()
    #expect(!outcome.isCommitted)
    #expect(outcome.description.contains("notes \(plan) has changed since"))
    #expect(dispatcher.model.state.notes[plan]?.body == "theirs")
    #expect(dispatcher.undoAvailability.value.undoName == nil)
  }

  @Test func syncStatusWritesNeitherBecomeUndoStepsNorBlockUndo() throws {
    let dispatcher = ActionDispatcher(model: Model(sampleState()))
    #expect(dispatcher.dispatch(EditNoteBody(id: plan, body: "mine", now: t1)).isCommitted)
    try dispatcher.model.write(origin: .background("sync status")) {
      $0.set(\.sync, to: .syncing(progress: 0.5, lastSynced: nil))
    }
    #expect(dispatcher.undoAvailability.value.undoName == "Edit Note")
    #expect(dispatcher.undo().isCommitted)
    #expect(dispatcher.model.state.notes[plan]?.body == sampleState().notes[plan]?.body)
    #expect(dispatcher.model.state.sync == .syncing(progress: 0.5, lastSynced: nil))
  }
}
