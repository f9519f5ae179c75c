import Airframe
import AirframeTesting
import Testing

/// Consecutive steps with one coalescing key undo as one step.
@Suite(.noLiveBindings)
@MainActor
struct UndoCoalescingTests {
  func makeDispatcher() -> ActionDispatcher<Library> {
    ActionDispatcher(model: Model(Library(notes: EntityTable([Note(id: 1, title: "a")]))))
  }

  @Test func aRunWithOneKeyUndoesToTheStateBeforeItsFirstStep() {
    let dispatcher = makeDispatcher()
    for title in ["ab", "abc", "abcd"] {
      dispatcher.dispatch(RenameNote(id: 1, title: title), coalescingKey: "typing")
    }
    #expect(dispatcher.undo().isCommitted)
    #expect(dispatcher.model.state.notes[1]?.title == "a")
    #expect(dispatcher.undoAvailability.value.undoName == nil)
    #expect(dispatcher.redo().isCommitted)
    #expect(dispatcher.model.state.notes[1]?.title == "abcd")
  }

  @Test func anotherKeyNoKeyOrAnUndoEndsTheRun() {
    let dispatcher = makeDispatcher()
    dispatcher.dispatch(RenameNote(id: 1, title: "b"), coalescingKey: "one")
    dispatcher.dispatch(RenameNote(id: 1, title: "c"), coalescingKey: "two")
    dispatcher.dispatch(RenameNote(id: 1, title: "d"))
    dispatcher.dispatch(RenameNote(id: 1, title: "e"), coalescingKey: "two")
    dispatcher.undo()
    #expect(dispatcher.model.state.notes[1]?.title == "d")
    // After an undo, the same key starts a new step instead of extending an old one.
    dispatcher.dispatch(RenameNote(id: 1, title: "f"), coalescingKey: "two")
    dispatcher.undo()
    #expect(dispatcher.model.state.notes[1]?.title == "d")
    dispatcher.undo()
    #expect(dispatcher.model.state.notes[1]?.title == "c")
    dispatcher.undo()
    #expect(dispatcher.model.state.notes[1]?.title == "b")
    dispatcher.undo()
    #expect(dispatcher.model.state.notes[1]?.title == "a")
  }

  @Test func groupsCoalesceLikeSingleSteps() {
    let dispatcher = makeDispatcher()
    for title in ["x", "xy"] {
      let outcome = dispatcher.group(named: "Typing", coalescingKey: 7) {
        dispatcher.dispatch(RenameNote(id: 1, title: title))
      }
      #expect(outcome.isCommitted)
    }
    #expect(dispatcher.undoAvailability.value.undoName == "Typing")
    dispatcher.undo()
    #expect(dispatcher.model.state.notes[1]?.title == "a")
    #expect(dispatcher.undoAvailability.value.undoName == nil)
  }

  @Test func anActionControllersRunOfTriggersUndoesAsOneNamedStep() {
    let dispatcher = makeDispatcher()
    let rename = ActionController<Library, String>(dispatcher: dispatcher, name: "Rename") {
      RenameNote(id: 1, title: $0)
    }
    defer { rename.cancel() }
    for title in ["x", "xy", "xyz"] {
      #expect(rename.trigger(title, step: "Typing", coalescingKey: "run 1").isCommitted)
    }
    // Refused input records no step and leaves the run as it was.
    #expect(!rename.trigger("", step: "Typing", coalescingKey: "run 1").isCommitted)
    #expect(dispatcher.undoAvailability.value.undoName == "Typing")
    // Another run is another step.
    #expect(rename.trigger("w", step: "Typing", coalescingKey: "run 2").isCommitted)
    dispatcher.undo()
    #expect(dispatcher.model.state.notes[1]?.title == "xyz")
    dispatcher.undo()
    #expect(dispatcher.model.state.notes[1]?.title == "a")
    #expect(dispatcher.undoAvailability.value.undoName == nil)
  }
}
