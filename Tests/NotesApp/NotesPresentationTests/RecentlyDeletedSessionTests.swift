import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesPresentation

/// Recently Deleted through a session's gestures: what a delete keeps, a restore puts back,
/// and what the status bar says.
@Suite(.noLiveBindings, .timeLimit(.minutes(2)))
@MainActor
struct RecentlyDeletedSessionTests {
  let home = NotebookID(rawValue: 1)

  @Test func aDeletedNoteIsKeptAndARestoreBringsItBackUndoably() throws {
    let session = makeSession()
    defer { session.close() }
    session.notebookSelected(home)
    let groceries = try #require(session.list.rows.first { $0.title == "Groceries" }).id
    #expect(session.noteSelected(groceries))
    #expect(session.noteDeleted().isCommitted)
    #expect(session.recentlyDeleted.map(\.id) == [groceries])
    #expect(session.recentlyDeleted.first?.deleted == fixedDate)
    #expect(session.list.row(for: groceries) == nil)

    // Restored while the list shows another notebook under a search: it is shown anyway,
    // selected and open.
    session.notebookSelected(NotebookID(rawValue: 3))
    session.searchTyped("agenda")
    #expect(session.deletedNoteRestored(groceries).isCommitted)
    #expect(session.selectedNote.value == groceries)
    #expect(session.editorState.value.noteID == groceries)
    #expect(
      session.status.value.message
        == "Restored “\u{2068}Groceries\u{2069}” to “\u{2068}Home\u{2069}”")
    #expect(session.recentlyDeleted.isEmpty)
    #expect(session.list.row(for: groceries) != nil)
    #expect(session.notebookTitle(ofNote: groceries) == "Home")
    session.expectProjectionsAgree(after: "restoring Groceries")

    #expect(session.undoRequested().isCommitted)
    #expect(session.recentlyDeleted.map(\.id) == [groceries])
    session.expectProjectionsAgree(after: "undoing the restore")
  }

  @Test func restoringWhatIsNotThereIsRefusedAndEmptyingAnEmptyListChangesNothing() {
    let session = makeSession()
    defer { session.close() }
    let refused = session.deletedNoteRestored(NoteID(rawValue: 999))
    #expect(!refused.isCommitted)
    #expect(session.status.value.message?.contains("is not in Recently Deleted") == true)
    #expect(!session.recentlyDeletedEmptied().isCommitted)
    #expect(session.noteDeleted().isCommitted)
    #expect(session.recentlyDeletedEmptied().isCommitted)
    #expect(session.status.value.message == "Deleted 1 note for good")
    #expect(session.recentlyDeleted.isEmpty)
  }
}
