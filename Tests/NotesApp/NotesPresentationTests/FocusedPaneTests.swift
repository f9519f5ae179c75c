import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesPresentation

/// Commands follow the focus: Delete and Rename act on the item of the pane with the
/// keyboard, and their label and availability say which.
@Suite(.noLiveBindings, .timeLimit(.minutes(2)))
@MainActor
struct FocusedPaneTests {
  let home = NotebookID(rawValue: 1)

  func label(_ command: SessionCommand, in session: NotesSession) -> String? {
    session.menu.value.first { $0.name == command.name }?.label
  }

  @Test func deleteAndRenameNameTheFocusedPanesItem() {
    let session = makeSession()
    defer { session.close() }
    #expect(session.focusedPane.value == .list)
    #expect(label(.delete, in: session) == "Delete Note")
    #expect(label(.rename, in: session) == "Rename Note")

    session.paneFocused(.sidebar)
    #expect(label(.delete, in: session) == "Delete Notebook")
    #expect(label(.rename, in: session) == "Rename Notebook")
    // "All notes" is no notebook: Delete says so, as Delete Notebook does.
    #expect(session.selectedNotebook.value == nil)
    #expect(session.availability(of: .delete).value == .disabled("Select a notebook first."))
    #expect(session.availability(of: .rename).value == .disabled("Select a notebook first."))
    session.expectProjectionsAgree(after: "the sidebar taking the keyboard")

    session.notebookSelected(home)
    #expect(session.availability(of: .delete).value == .enabled)
    session.expectProjectionsAgree(after: "choosing Home in the sidebar")

    session.paneFocused(.editor)
    #expect(label(.delete, in: session) == "Delete Note")
    #expect(session.availability(of: .delete).value == .enabled)
    session.expectProjectionsAgree(after: "the editor taking the keyboard")
  }

  @Test func deleteFollowsTheSelectionOfTheFocusedPane() {
    let session = makeSession(state: NotesState())
    defer { session.close() }
    // No notes: the list's Delete cannot run; the sidebar's can once a notebook is chosen.
    #expect(session.notebookCreated(titled: "Inbox").isCommitted)
    #expect(session.availability(of: .delete).value == .disabled("Select a note first."))
    session.paneFocused(.sidebar)
    #expect(session.availability(of: .delete).value == .enabled)
    session.paneFocused(.list)
    #expect(session.noteCreated(titled: "First").isCommitted)
    #expect(session.availability(of: .delete).value == .enabled)
    session.expectProjectionsAgree(after: "creating a note")
  }

  @Test func routingPicksTheFocusedPanesCommand() {
    #expect(SessionCommand.delete.routed(to: .sidebar) == .deleteNotebook)
    #expect(SessionCommand.delete.routed(to: .list) == .deleteNote)
    #expect(SessionCommand.delete.routed(to: .editor) == .deleteNote)
    #expect(SessionCommand.rename.routed(to: .sidebar) == .renameNotebook)
    #expect(SessionCommand.rename.routed(to: .editor) == .renameNote)
    for command in SessionCommand.allCases where !command.followsFocus {
      for pane in Pane.allCases { #expect(command.routed(to: pane) == command) }
    }
  }

  @Test func theKeyboardLeavingTheEditorEndsTheTypingRun() throws {
    let session = makeSession()
    defer { session.close() }
    let note = try #require(session.selectedNote.value)
    let body = session.editorState.value.body
    session.paneFocused(.editor)
    #expect(session.bodyTyped(body + "a").isCommitted)
    #expect(session.bodyTyped(body + "ab").isCommitted)
    // Away and back: the next keys are a step of their own.
    session.paneFocused(.list)
    session.paneFocused(.editor)
    #expect(session.bodyTyped(body + "abc").isCommitted)
    #expect(session.undoRequested().isCommitted)
    #expect(session.model.state.notes[note]?.body == body + "ab")
    #expect(session.undoRequested().isCommitted)
    #expect(session.model.state.notes[note]?.body == body)
  }
}
