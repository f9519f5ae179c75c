import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesPresentation

/// A presentation's view state, saved as it closes and restored as far as the library still
/// has what it names.
@Suite(.noLiveBindings)
@MainActor
struct SavedViewStateTests {
  let home = NotebookID(rawValue: 1)
  let work = NotebookID(rawValue: 3)

  @Test func aSavedViewComesBackWhole() throws {
    let first = makeSession()
    first.notebookSelected(home)
    first.sortToggled()
    first.searchTyped("e")
    let weekend = try #require(first.list.rows.first { $0.title == "Weekend" }).id
    #expect(first.noteSelected(weekend))
    first.cursorMoved(to: 4)
    let saved = first.savedViewState
    first.close()
    #expect(
      saved == SavedViewState(notebook: home, search: "e", sort: .title, note: weekend, cursor: 4))
    // The value survives its file.
    let decoded = try JSONDecoder().decode(
      SavedViewState.self, from: JSONEncoder().encode(saved))
    #expect(decoded == saved)

    let second = makeSession()
    #expect(second.restore(decoded))
    #expect(second.selectedNotebook.value == home)
    #expect(second.sort == .title)
    #expect(second.search.value == "e")
    #expect(second.selectedNote.value == weekend)
    #expect(second.editorState.value.noteID == weekend)
    #expect(second.editorState.value.cursor == 4)
    second.expectProjectionsAgree(after: "restoring")
    second.close()
  }

  @Test func aCursorPastAShorterTextGoesToItsEnd() throws {
    let session = makeSession()
    let groceries = try #require(session.list.rows.first { $0.title == "Groceries" })
    #expect(
      session.restore(
        SavedViewState(
          notebook: nil, search: "", sort: .modified, note: groceries.id, cursor: 10_000)))
    #expect(session.editorState.value.cursor == groceries.body.utf8.count)
    // A file saved before cursors were saved reads without one.
    let old = #"{"search":"","sort":"modified","note":6}"#
    let decoded = try JSONDecoder().decode(SavedViewState.self, from: Data(old.utf8))
    #expect(decoded.cursor == nil)
    session.close()
  }

  @Test func whatIsGoneIsNotRestored() throws {
    let samples = SampleLibrary.state(now: fixedDate)
    let workNote = try #require(samples.notes.elements.first { $0.notebookID == work }?.id)
    let saved = SavedViewState(notebook: work, search: "", sort: .modified, note: workNote)
    // Another process deleted the notebook and its notes meanwhile.
    let state = NotesState(
      notebooks: samples.notebooks.elements.filter { $0.id != work },
      notes: samples.notes.elements.filter { $0.notebookID != work })

    let session = makeSession(state: state)
    #expect(!session.restore(saved))
    #expect(session.selectedNotebook.value == nil)
    #expect(session.selectedNote.value == session.list.row(at: 0).id)
    session.expectProjectionsAgree(after: "restoring a deleted notebook and note")
    session.close()
  }

  @Test func aNoteGoneLeavesItsNotebookAndTheFirstNote() throws {
    let samples = SampleLibrary.state(now: fixedDate)
    let homeNotes = samples.notes.elements.filter { $0.notebookID == home }.map(\.id).sorted()
    let state = NotesState(
      notebooks: Array(samples.notebooks.elements),
      notes: samples.notes.elements.filter { $0.id != homeNotes[0] })
    let session = makeSession(state: state)
    #expect(
      !session.restore(
        SavedViewState(notebook: home, search: "", sort: .modified, note: homeNotes[0])))
    #expect(session.selectedNotebook.value == home)
    #expect(session.selectedNote.value == homeNotes[1], "the only note left in Home")
    session.expectProjectionsAgree(after: "restoring a deleted note")
    session.close()
  }
}
