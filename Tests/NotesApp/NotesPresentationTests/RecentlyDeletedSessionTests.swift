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

  @Test func recentlyDeletedInTheSidebarHidesTheListAsItWasAndShowsItAgainAfter() throws {
    let session = makeSession()
    defer { session.close() }
    session.notebookSelected(home)
    let groceries = try #require(session.list.rows.first { $0.title == "Groceries" }).id
    #expect(session.noteSelected(groceries))
    #expect(session.noteDeleted().isCommitted)
    let open = try #require(session.selectedNote.value)
    #expect(session.bodyTyped("Typed before leaving").isCommitted)

    session.recentlyDeletedSelected()
    #expect(session.sidebarSelection.value == .recentlyDeleted)
    #expect(session.selectedNotebook.value == nil)
    #expect(session.title.value == "Recently Deleted")
    // No command acts on the note the hidden list has selected.
    for command in [SessionCommand.deleteNote, .renameNote, .moveNote, .togglePin, .noteHistory] {
      #expect(
        session.availability(of: command).value
          == .disabled("Recently Deleted is shown: choose All notes or a notebook first."),
        "\(command)")
    }
    #expect(!session.commandChosen(.deleteNote))
    session.expectProjectionsAgree(after: "selecting Recently Deleted")

    // A restore from here stays here, for the next one.
    #expect(session.deletedNoteRestored(groceries).isCommitted)
    #expect(session.sidebarSelection.value == .recentlyDeleted)
    #expect(session.recentlyDeleted.isEmpty)
    session.expectProjectionsAgree(after: "restoring from Recently Deleted")

    // Saved and restored in another session, Recently Deleted is shown again, over the
    // list as it was.
    let saved = session.savedViewState
    #expect(saved.showsRecentlyDeleted == true)
    #expect(saved.notebook == home)
    let other = NotesSession(library: session.library)
    defer { other.close() }
    #expect(other.restore(saved))
    #expect(other.sidebarSelection.value == .recentlyDeleted)
    other.notebookSelected(home)
    #expect(other.selectedNote.value == open)

    // Going back shows the notebook, its note and its title again.
    session.notebookSelected(home)
    #expect(session.selectedNote.value == open)
    #expect(session.editorState.value.noteID == open)
    #expect(session.title.value.hasPrefix("\u{2068}Home\u{2069} — "))
    #expect(session.availability(of: .deleteNote).value == .enabled)
    // Selecting Recently Deleted ended the typing run: what is typed now is a step of its own.
    #expect(session.bodyTyped("Typed before leaving, and more").isCommitted)
    #expect(session.undoRequested().isCommitted)
    #expect(session.editorState.value.body == "Typed before leaving")

    // A new note made from Recently Deleted is shown where it went.
    session.recentlyDeletedSelected()
    let created = session.noteCreated(titled: "Made from Recently Deleted")
    #expect(created.isCommitted)
    #expect(session.sidebarSelection.value == .notebook(home))
    #expect(session.editorState.value.title == "Made from Recently Deleted")
    session.expectProjectionsAgree(after: "a new note from Recently Deleted")
  }

  @Test func aSavedViewStateFromBeforeRecentlyDeletedStillReads() throws {
    let json = #"{"notebook":1,"search":"","sort":"modified","note":null}"#
    let saved = try JSONDecoder().decode(SavedViewState.self, from: Data(json.utf8))
    #expect(saved.notebook == home)
    #expect(saved.showsRecentlyDeleted == nil)
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

  @Test func recentlyDeletedStaysInOrderThroughEveryChangeAndEverySessionSharesIt() throws {
    var clock = fixedDate
    let model = Model(SampleLibrary.state(now: fixedDate))
    let sync = SyncDriver(model: model, service: SimulatedSyncService(steps: 2, stepDelay: .zero))
    let library = LibrarySession(model: model, sync: sync, now: { clock })
    let session = NotesSession(library: library)
    let other = NotesSession(library: library)
    defer {
      session.close()
      other.close()
      library.close()
    }
    func expectInOrder(_ step: String) {
      let expected = model.state.recentlyDeleted.elements.sorted {
        ($0.deleted, $0.id.rawValue) > ($1.deleted, $1.id.rawValue)
      }
      #expect(session.recentlyDeleted == expected, "after \(step)")
      #expect(other.recentlyDeleted == expected, "after \(step), the other session")
      #expect(session.recentlyDeletedCount == expected.count)
      for (index, entry) in expected.enumerated() {
        #expect(session.recentlyDeletedEntry(at: index) == entry, "after \(step), row \(index)")
      }
    }
    // Deleted one by one, a minute apart, and one notebook with its notes at once.
    for title in ["Groceries", "Book list", "Meeting agenda"] {
      clock += 60
      let id = try #require(model.state.notes.elements.first { $0.title == title }).id
      #expect(session.dispatcher.dispatch(DeleteNote(id: id, now: clock)).isCommitted)
      expectInOrder("deleting \(title)")
    }
    clock += 60
    #expect(
      session.dispatcher.dispatch(
        DeleteNotebook(id: NotebookID(rawValue: 1), deletingNotes: true, now: clock)
      ).isCommitted)
    expectInOrder("deleting a notebook with its notes")
    let middle = session.recentlyDeletedEntry(at: 2).id
    #expect(session.deletedNoteRestored(middle).isCommitted)
    expectInOrder("restoring one")
    #expect(session.deletedNoteDeletedForGood(session.recentlyDeletedEntry(at: 0).id).isCommitted)
    expectInOrder("deleting one for good")
    #expect(session.undoRequested().isCommitted)
    expectInOrder("undoing that")
    #expect(session.recentlyDeletedEmptied().isCommitted)
    expectInOrder("emptying")
    #expect(session.recentlyDeletedCount == 0)
  }
}
