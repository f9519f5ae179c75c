import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

@Suite(.noLiveBindings)
@MainActor
struct CommandMenuControllerTests {
  @Test func theMenuShowsEachCommandsSharedAvailabilityWithItsReason() {
    let app = NotesPresentations(state: sampleState())
    let selection = StateSource<NoteID?>(nil)
    let deleteNote = ActionController(dispatcher: app.dispatcher, reading: selection) {
      selected, _ in
      Requirement(selected, otherwise: "Select a note to delete.")
    } makeAction: { (selected: NoteID) in
      DeleteNote(id: selected)
    }
    let newNotebook = ActionController<NotesState, String>(dispatcher: app.dispatcher) {
      CreateNotebook(title: $0, now: t1)
    }
    let menu = CommandMenuController()
    menu.add("New Notebook", shortcut: "N", availability: newNotebook.availability)
    menu.add("Delete Note", shortcut: "d", availability: deleteNote.availability)
    let rows = ValueRecorder(menu.rows)
    #expect(rows.last?.map(\.name) == ["New Notebook", "Delete Note"])
    #expect(rows.last?[1].availability.reason == "Select a note to delete.")

    // Availability follows the selection it reads, then the action's own validation.
    selection.set(plan)
    #expect(rows.last?[1].availability.isEnabled == true)
    #expect(deleteNote.trigger().isCommitted)
    #expect(rows.last?[1].availability.reason == "There is no note with id \(plan).")
    // The toolbar reads the same source the menu row shows.
    #expect(deleteNote.availability.value == rows.last?[1].availability)
    menu.cancel()
    deleteNote.cancel()
    newNotebook.cancel()
    app.cancel()
  }
}
