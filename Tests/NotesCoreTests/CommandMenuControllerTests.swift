import Airframe
import AirframeTesting
import Foundation
import NotesCore
import Testing

@Suite(.noLiveBindings)
@MainActor
struct CommandMenuControllerTests {
  @Test func theMenuShowsEachCommandsSharedAvailabilityWithItsReason() {
    let app = NotesPresentations(state: sampleState())
    let selection = StateSource<NoteID?>(nil)
    let deleteNote = ActionController<NotesState, Void>(dispatcher: app.dispatcher) { state in
      guard let id = selection.value else { return .disabled("Select a note to delete.") }
      return state.notes.contains(id) ? .enabled : .disabled("The note is gone.")
    } makeAction: { _ in
      DeleteNote(id: selection.value ?? NoteID(rawValue: -1))
    }
    let newNotebook = ActionController<NotesState, String>(dispatcher: app.dispatcher) { _ in
      .enabled
    } makeAction: { title in
      CreateNotebook(title: title, now: t1)
    }
    let menu = CommandMenuController()
    menu.add("New Notebook", shortcut: "N", availability: newNotebook.availability)
    menu.add("Delete Note", shortcut: "d", availability: deleteNote.availability)
    let rows = ValueRecorder(menu.rows)
    #expect(rows.last?.map(\.name) == ["New Notebook", "Delete Note"])
    #expect(rows.last?[1].availability.reason == "Select a note to delete.")

    selection.set(plan)
    deleteNote.refreshAvailability()
    #expect(rows.last?[1].availability.isEnabled == true)
    #expect(deleteNote.trigger().isCommitted)
    #expect(rows.last?[1].availability.reason == "The note is gone.")
    // The toolbar reads the same source the menu row shows.
    #expect(deleteNote.availability.value == rows.last?[1].availability)
    menu.cancel()
    deleteNote.cancel()
    newNotebook.cancel()
    app.cancel()
  }
}
