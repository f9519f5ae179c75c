import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTerminalUI
import Testing

@testable import NotesPresentation

/// The status bar says what happened: refusals until the next key, what undo, redo and
/// delete did, the duplicate as it is spelled, and how to quit.
@Suite(.noLiveBindings)
@MainActor
struct FeedbackTests {
  /// The status bar's text at the standard test size, without padding.
  func statusLine(_ app: TerminalApplication) -> String {
    app.screen()[23].trimmingCharacters(in: .whitespaces)
  }

  @Test func aRefusalClearsOnTheNextKeyOrEsc() {
    let app = makeApp()
    app.press(.backTab)  // the sidebar, on "All notes": no notebook is selected
    app.press(.character("r"))
    #expect(statusLine(app).hasSuffix("Select a notebook first."))
    app.press(.down)
    #expect(statusLine(app) == "3 notebooks · 6 notes · Not synced")
    app.press(.up, .character("d"))
    #expect(statusLine(app).hasSuffix("Select a notebook first."))
    app.press(.escape)
    #expect(statusLine(app) == "3 notebooks · 6 notes · Not synced")
    app.shutdown()
  }

  @Test func aRefusalInAPromptStaysWhileTheTextIsCorrectedUntilEsc() {
    let app = makeApp()
    app.press(.character("N"))
    app.type("work")
    app.press(.enter)
    // The duplicate is named as it is stored.
    #expect(statusLine(app).hasSuffix("A notebook title \"Work\" already exists."))
    app.type("s")
    #expect(statusLine(app).hasSuffix("already exists."))
    app.press(.escape)
    #expect(statusLine(app) == "3 notebooks · 6 notes · Not synced")
    app.shutdown()
  }

  @Test func deleteUndoAndRedoSayWhatTheyDid() {
    let app = makeApp()
    app.press(.character("d"))
    #expect(statusLine(app).hasSuffix("Deleted “Welcome to Notes” — u to undo"))
    app.press(.character("u"))
    #expect(statusLine(app).hasSuffix("Undid “Delete Note” — U or Ctrl-R redoes it"))
    #expect(app.session.model.state.notes.count == 6)
    app.press(.character("U"))
    #expect(statusLine(app).hasSuffix("Redid “Delete Note” — u undoes it"))
    app.press(.character("u"), .character("u"))
    #expect(statusLine(app).hasSuffix("Nothing to undo."))
    app.shutdown()
  }

  @Test func deletingANotebookSaysWhichOne() {
    let samples = SampleLibrary.state(now: fixedDate)
    let empty = Notebook(id: NotebookID(rawValue: 50), title: "Empty", created: fixedDate)
    let app = makeApp(
      state: NotesState(
        notebooks: Array(samples.notebooks.elements) + [empty],
        notes: Array(samples.notes.elements)))
    app.press(.backTab, .down, .character("d"))  // "Empty", first by title
    #expect(statusLine(app).hasSuffix("Deleted the notebook “Empty” — u to undo"))
    // "Work", with its notes: last of the notebooks, above Recently Deleted.
    app.press(.end, .up, .character("d"), .character("y"))
    #expect(statusLine(app).hasSuffix("Deleted the notebook “Work” and its notes — u to undo"))
    app.shutdown()
  }

  @Test func ctrlCSaysHowToQuit() {
    let app = makeApp()
    app.press(.control("c"))
    #expect(!app.isFinished)
    #expect(statusLine(app).hasSuffix("To quit, press q (or Ctrl-Q)."))
    app.press(.enter, .control("c"))
    #expect(statusLine(app).hasSuffix("To quit, press Ctrl-Q."))
    app.shutdown()
  }
}
