import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

/// Every text the app composes around a title isolates the title (U+2068 … U+2069), so a
/// title in Arabic or Hebrew cannot reorder the app's words, counts or the other title;
/// what is stored and what logs keep has no mark.
@Suite(.noLiveBindings)
@MainActor
struct RightToLeftTextTests {
  /// Arabic for "my notebook", Hebrew for "shopping list 2".
  static let notebook = "دفتري"
  static let note = "רשימת קניות 2"

  static func isolated(_ text: String) -> String { "\u{2068}" + text + "\u{2069}" }

  static func state() -> NotesState {
    NotesState(
      notebooks: [
        Notebook(id: work, title: notebook, created: t0),
        Notebook(id: home, title: "Home", created: t0),
      ],
      notes: [Note(id: plan, notebookID: work, title: note, body: "Ship it", created: t0)])
  }

  @Test func theWindowTitleIsolatesBothTitles() {
    let title = WindowTitleController.title(
      for: Self.state(), note: plan, notebook: nil, hasUnsavedEdits: true)
    #expect(title == "• \(Self.isolated(Self.notebook)) — \(Self.isolated(Self.note))")
    let notebookOnly = WindowTitleController.title(
      for: Self.state(), note: nil, notebook: work, hasUnsavedEdits: false)
    #expect(notebookOnly == Self.isolated(Self.notebook))
  }

  @Test func theConfirmationIsolatesTheNotebooksTitle() {
    let dispatcher = ActionDispatcher(model: Model(Self.state()))
    let deletion = NotebookDeletion(dispatcher: dispatcher)
    #expect(deletion.deleteRequested(work) == .unchanged)
    let view = ValueRecorder(deletion.confirmations)
    #expect(
      view.values.map(\.message) == ["Delete \"\(Self.isolated(Self.notebook))\" and its note?"])
    deletion.cancel()
  }

  @Test(arguments: [false, true])
  func aRefusalQuotingATitleIsIsolatedOnlyForDisplay(_ duplicate: Bool) {
    let dispatcher = ActionDispatcher(model: Model(Self.state()))
    let status = StatusBarController(model: dispatcher.model)
    defer { status.cancel() }
    // A duplicate notebook title, or a rename based on a title changed elsewhere.
    let outcome =
      duplicate
      ? dispatcher.dispatch(CreateNotebook(title: Self.notebook, now: t1))
      : dispatcher.dispatch(RenameNote(id: plan, title: "New", now: t1, expectedTitle: "Old"))
    let (plain, shown) =
      duplicate
      ? (
        "A notebook title \"\(Self.notebook)\" already exists.",
        "A notebook title \"\(Self.isolated(Self.notebook))\" already exists."
      )
      : (
        "\"\(Self.note)\" was changed elsewhere meanwhile.",
        "\"\(Self.isolated(Self.note))\" was changed elsewhere meanwhile."
      )
    #expect(outcome.description == plain)
    #expect(outcome.displayDescription == shown)
    status.report(outcome)
    #expect(status.status.value.message == shown)
    // Nothing stored holds a mark.
    #expect(dispatcher.model.state.notebooks.elements.allSatisfy { !$0.title.contains("\u{2068}") })
  }
}
