import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesPresentation

/// Several presentations of one library, as several windows are: each session its own view
/// state, the library's state, undo history and confirmations shared.
@Suite(.noLiveBindings, .timeLimit(.minutes(2)))
@MainActor
struct SeveralSessionsTests {
  let home = NotebookID(rawValue: 1)
  let work = NotebookID(rawValue: 3)

  /// A library over the sample state, and `count` sessions over it.
  func open(_ count: Int) -> (LibrarySession, [NotesSession]) {
    let model = Model(SampleLibrary.state(now: fixedDate))
    let sync = SyncDriver(model: model, service: SimulatedSyncService(steps: 2, stepDelay: .zero))
    let library = LibrarySession(model: model, sync: sync, now: { fixedDate })
    let sessions = (0..<count).map { _ in
      NotesSession(library: library) { [.undo: "Ctrl+Z", .redo: "Shift+Ctrl+Z"][$0] ?? "" }
    }
    return (library, sessions)
  }

  func close(_ library: LibrarySession, _ sessions: [NotesSession]) {
    for session in sessions { session.close() }
    library.close()
  }

  /// Runs `body` on two sessions of one library over the samples, then closes them all.
  func withTwoSessions(_ body: (NotesSession, NotesSession) throws -> Void) rethrows {
    let (library, sessions) = open(2)
    defer { close(library, sessions) }
    try body(sessions[0], sessions[1])
  }

  func id(of title: String, in session: NotesSession) throws -> NoteID {
    try #require(session.list.rows.first { $0.title == title }).id
  }

  @Test func twoSessionsShowTwoNotes() throws {
    try withTwoSessions { first, second in
      first.notebookSelected(home)
      let groceries = try id(of: "Groceries", in: first)
      first.noteSelected(groceries)
      second.searchTyped("release")
      let agenda = try #require(second.list.rows.first).id
      second.noteSelected(agenda)

      #expect(first.editorState.value.noteID == groceries)
      #expect(second.editorState.value.noteID == agenda)
      #expect(first.selectedNotebook.value == home)
      #expect(second.selectedNotebook.value == nil)
      #expect(first.search.value.isEmpty)
      #expect(first.title.value != second.title.value)
      first.expectProjectionsAgree(after: "choosing Groceries in the first")
      second.expectProjectionsAgree(after: "searching release in the second")
    }
  }

  @Test func aChangeInOneSessionReachesEveryOtherInTheSameCommit() throws {
    try withTwoSessions { first, second in
      let groceries = try id(of: "Groceries", in: first)
      first.noteSelected(groceries)
      second.noteSelected(groceries)
      let before = second.revision.value

      #expect(first.noteRenameBegan() == "Groceries")
      #expect(first.noteRenamed(to: "Shopping").isCommitted)
      #expect(second.revision.value == before + 1)
      #expect(second.list.row(for: groceries)?.title == "Shopping")
      #expect(second.editorState.value.title == "Shopping")
      #expect(second.title.value.contains("Shopping"))

      #expect(first.notebookCreated(titled: "Trips").isCommitted)
      #expect(second.notebooks.value.contains { $0.title == "Trips" })
      // The new notebook is selected where it was made, and nowhere else.
      #expect(first.selectedNotebook.value != nil)
      #expect(second.selectedNotebook.value == nil)
      first.expectProjectionsAgree(after: "the first's changes, in the first")
      second.expectProjectionsAgree(after: "the first's changes, in the second")
    }
  }

  @Test func aRenameBegunBeforeAnotherSessionRenamedTheNoteIsRefused() throws {
    try withTwoSessions { first, second in
      let groceries = try id(of: "Groceries", in: first)
      first.noteSelected(groceries)
      second.noteSelected(groceries)
      #expect(first.noteRenameBegan() == "Groceries")
      second.noteRenameBegan()
      #expect(second.noteRenamed(to: "Shopping").isCommitted)

      // The first's rename began from "Groceries": refused, with why, changing nothing.
      let refused = first.noteRenamed(to: "Errands")
      #expect(!refused.isCommitted)
      #expect(first.title(of: groceries) == "Shopping")
      #expect(first.status.value.message?.contains("changed elsewhere") == true)
      // Begun again, it starts from the title the note has now.
      #expect(first.noteRenameBegan() == "Shopping")
      #expect(first.noteRenamed(to: "Errands").isCommitted)
      #expect(second.editorState.value.title == "Errands")
    }
  }

  @Test func aNoteDeletedInAnotherSessionStaysOpenAsDeletedAndTakesNoKeys() throws {
    try withTwoSessions { first, second in
      let groceries = try id(of: "Groceries", in: first)
      first.noteSelected(groceries)
      second.noteSelected(groceries)
      #expect(second.noteDeleted().isCommitted)
      let others = first.model.state.notes

      // The first keeps the note, shown as deleted, and says so; nothing is selected.
      #expect(first.editorState.value.noteID == groceries)
      #expect(first.editorState.value.isDeleted)
      #expect(first.selectedNote.value == nil)
      #expect(first.status.value.message == "“\u{2068}Groceries\u{2069}” was deleted elsewhere")
      first.expectProjectionsAgree(after: "the note deleted in the second")
      // Keys typed into the editor reach no note at all.
      #expect(first.bodyTyped("Milk, eggs, butter") == .rejected("The note was deleted."))
      #expect(first.model.state.notes == others)
      // The second, whose gesture it was, moved on to the neighbour.
      #expect(second.selectedNote.value != nil)
      #expect(second.editorState.value.noteID == second.selectedNote.value)

      // The deletion undone, the note is selected again in the first and takes keys.
      #expect(second.undoRequested().isCommitted)
      #expect(first.selectedNote.value == groceries)
      #expect(!first.editorState.value.isDeleted)
      #expect(first.bodyTyped("Milk, eggs, butter").isCommitted)
      #expect(second.list.row(for: groceries)?.body == "Milk, eggs, butter")
      first.expectProjectionsAgree(after: "the deletion undone")
    }
  }

  @Test func aNoteDeletedElsewhereCanBeKeptAsANewNoteWithWhatTheEditorShows() throws {
    try withTwoSessions { first, second in
      let groceries = try id(of: "Groceries", in: first)
      first.noteSelected(groceries)
      #expect(first.deletedNoteKept().description == "The open note was not deleted.")
      #expect(first.bodyTyped("Milk\nEggs\nOat milk").isCommitted)
      second.noteSelected(groceries)
      // Deleted with its notebook: the kept note goes to the first notebook there is.
      second.notebookSelected(home)
      #expect(second.notebookDeletionRequested() == .unchanged)
      let question = try #require(second.confirmations.pending.first)
      #expect(second.deletionAnswered(question.id, confirmed: true).isCommitted)
      #expect(first.editorState.value.isDeleted)

      let kept = first.deletedNoteKept()
      let id = try #require(kept.createdID(in: \NotesState.notes))
      let note = try #require(first.model.state.notes[id])
      #expect(note.title == "Groceries")
      #expect(note.body == "Milk\nEggs\nOat milk")
      #expect(first.model.state.notebooks[note.notebookID] != nil)
      #expect(first.selectedNote.value == id)
      #expect(first.editorState.value.noteID == id)
      #expect(!first.editorState.value.isDeleted)
      #expect(
        first.status.value.message?.hasPrefix("Kept “\u{2068}Groceries\u{2069}” as a new note")
          == true)
      first.expectProjectionsAgree(after: "keeping the deleted note")
      second.expectProjectionsAgree(after: "the other kept the deleted note")
      // One undo step, like any new note.
      #expect(first.undoNames.value.undoName == "New Note")
    }
  }

  @Test func typingThatStopsMatchingTheSearchKeepsTheNoteOpen() throws {
    try withTwoSessions { first, _ in
      first.searchTyped("milk")
      let groceries = try id(of: "Groceries", in: first)
      #expect(first.selectedNote.value == groceries)
      let before = first.model.state.notes

      #expect(first.bodyTyped("Eggs").isCommitted)
      #expect(first.list.row(for: groceries) == nil)
      #expect(first.editorState.value.noteID == groceries)
      #expect(first.bodyTyped("Eggs and bread").isCommitted)
      // Only the note the user chose changed.
      #expect(first.model.state.notes[groceries]?.body == "Eggs and bread")
      for note in before.elements where note.id != groceries {
        #expect(first.model.state.notes[note.id] == note)
      }
      first.expectProjectionsAgree(after: "typing the note out of the search")
      // The search cleared, the open note is the selection again.
      first.searchTyped("")
      #expect(first.selectedNote.value == groceries)
      first.expectProjectionsAgree(after: "clearing the search")
    }
  }

  @Test func undoTakesBackTheLibrarysLastStepWhicheverSessionTookIt() throws {
    try withTwoSessions { first, second in
      let groceries = try id(of: "Groceries", in: first)
      first.noteSelected(groceries)
      #expect(first.pinToggled().isCommitted)
      #expect(second.undoNames.value.undoName == first.undoNames.value.undoName)
      #expect(second.list.row(for: groceries)?.isPinned == true)

      #expect(second.undoRequested().isCommitted)
      #expect(second.list.row(for: groceries)?.isPinned == false)
      #expect(first.list.row(for: groceries)?.isPinned == false)
      // The message is the second's, which undid; the first's is its own.
      #expect(second.status.value.message == "Undid “Pin Note” — Shift+Ctrl+Z redoes it")
      #expect(first.status.value.message?.hasPrefix("Undid") != true)
      #expect(first.undoNames.value.redoName == "Pin Note")
    }
  }

  @Test func typingInTwoSessionsMakesAStepEach() throws {
    try withTwoSessions { first, second in
      let groceries = try id(of: "Groceries", in: first)
      first.noteSelected(groceries)
      second.noteSelected(groceries)
      let body = first.editorState.value.body

      #expect(first.bodyTyped(body + "a").isCommitted)
      #expect(second.editorState.value.body == body + "a")
      #expect(second.bodyTyped(body + "ab").isCommitted)
      #expect(first.editorState.value.body == body + "ab")
      // The first's run goes on; the second's typing stays a step of its own.
      #expect(first.bodyTyped(body + "abc").isCommitted)

      #expect(second.undoRequested().isCommitted)
      #expect(first.editorState.value.body == body + "ab")
      #expect(second.undoRequested().isCommitted)
      #expect(first.editorState.value.body == body + "a")
      #expect(first.undoRequested().isCommitted)
      #expect(second.editorState.value.body == body)
    }
  }

  @Test func aConfirmationIsTheLibrarysAndIsAnsweredOnce() throws {
    try withTwoSessions { first, second in
      first.notebookSelected(work)
      #expect(first.notebookDeletionRequested() == .unchanged)
      let question = try #require(second.confirmations.pending.first)
      #expect(first.confirmations.pending.map(\.id) == [question.id])

      #expect(second.deletionAnswered(question.id, confirmed: true).isCommitted)
      #expect(first.confirmations.pending.isEmpty)
      #expect(!first.notebooks.value.contains { $0.id == work })
      // The sessions that showed the notebook go back to "All notes".
      #expect(first.selectedNotebook.value == nil)
      first.expectProjectionsAgree(after: "the deletion answered in the second")
      second.expectProjectionsAgree(after: "answering the deletion")
    }
  }

  @Test func closingOneSessionLeavesTheOthersWorking() throws {
    let (library, sessions) = open(2)
    let (first, second) = (sessions[0], sessions[1])
    let groceries = try id(of: "Groceries", in: first)
    second.noteSelected(groceries)
    second.editor.userEditedBody("draft")
    second.close()
    // Its draft was saved as it closed, and the other session shows it.
    #expect(first.list.row(for: groceries)?.body == "draft")
    #expect(first.noteCreated(titled: "After").isCommitted)
    #expect(first.undoRequested().isCommitted)
    first.expectProjectionsAgree(after: "the second closed")
    close(library, [first, second])
  }

  @Test func aSessionCanStartWhereAnotherIs() {
    withTwoSessions { first, second in
      first.notebookSelected(home)
      first.sortToggled()
      first.searchTyped("l")
      let last = first.list.row(at: first.list.count - 1).id
      first.noteSelected(last)

      second.show(sameAs: first)
      #expect(second.selectedNotebook.value == home)
      #expect(second.sort == first.sort)
      #expect(second.search.value == "l")
      #expect(second.selectedNote.value == last)
      #expect(second.editorState.value.noteID == last)
      // And goes its own way from there.
      second.notebookSelected(nil)
      #expect(first.selectedNotebook.value == home)
      second.expectProjectionsAgree(after: "starting where the first is")
    }
  }
}
