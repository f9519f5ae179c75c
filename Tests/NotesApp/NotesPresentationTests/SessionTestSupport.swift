import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@_spi(Instrumentation) @testable import NotesPresentation

/// A fixed clock for modification dates.
let fixedDate = Date(timeIntervalSinceReferenceDate: 800_000_000)

/// A session over the sample library (or `state`), with an instant sync service.
@MainActor
func makeSession(state: NotesState = SampleLibrary.state(now: fixedDate)) -> NotesSession {
  let model = Model(state)
  let sync = SyncDriver(model: model, service: SimulatedSyncService(steps: 2, stepDelay: .zero))
  return NotesSession(model: model, sync: sync, now: { fixedDate })
}

extension NotesSession {
  /// Checks every projection against a recomputation from the model's state and the view
  /// state (notebook, search, order), and the rules that tie them together.
  func expectProjectionsAgree(
    after step: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let state = model.state
    func check(_ condition: Bool, _ what: String) {
      #expect(condition, "after \(step): \(what)", sourceLocation: sourceLocation)
    }
    check(
      notebooks.value == SidebarController.recomputedRows(for: state), "the sidebar's rows")
    // Recently Deleted hides the list as it was, which shows again after it.
    let showsDeleted = sidebarSelection.value == .recentlyDeleted
    let notebook = showsDeleted ? noteList.notebook : selectedNotebook.value
    check(notebook == nil || state.notebooks[notebook!] != nil, "the selected notebook exists")
    check(
      title.value.hasPrefix("Recently Deleted") == showsDeleted,
      "the title names Recently Deleted exactly while it is shown")
    let expected = NoteListController.recomputedRows(
      for: state, notebook: notebook, search: search.value, sort: sort)
    check(list.rows.map(\.id) == expected.map(\.id), "the list's rows")
    check(list.count == expected.count, "the list's count")
    check(search.value == noteList.search, "the published search is the list's")
    // The list keeps a selection while it has rows, and the editor shows it; unless the
    // editor kept a note that something other than this session's gestures took out of
    // the list, which then has no selection.
    let selected = selectedNote.value
    let open = editorState.value.noteID
    let kept = open.map { selected == nil && list.row(for: $0) == nil } ?? false
    check(
      (selected == nil) == (list.count == 0) || kept,
      "a note is selected exactly when one is listed, unless the editor kept one")
    if let selected {
      check(list.row(for: selected) != nil, "the selected note is listed")
      check(open == selected, "the editor shows the selected note")
    } else if !kept {
      check(open == nil, "no note is open without a selection")
    }
    if let open {
      check(
        (state.notes[open] == nil) == editorState.value.isDeleted,
        "the open note shows as deleted exactly when it is gone")
    }
    if let open, let note = state.notes[open], !editorState.value.isDirty {
      check(editorState.value.body == note.body, "the editor shows the note's body")
    }
    check(
      title.value
        == WindowTitleController.title(
          for: state, note: open, notebook: notebook,
          hasUnsavedEdits: editorState.value.isDirty, showsRecentlyDeleted: showsDeleted),
      "the window title")
    check(
      status.value.counts == StatusBarController.status(for: state, message: nil).counts,
      "the status bar's counts")
    check(noteCount == state.notes.count, "the note count")
    for row in menu.value {
      guard let command = SessionCommand(rawValue: row.name) else {
        check(false, "menu row \(row.name) names a command")
        continue
      }
      check(row.availability == availability(of: command).value, "the menu's \(row.name)")
      // Delete and Rename: the focused pane's command, by name and availability.
      let routed = command.routed(to: focusedPane.value)
      check(row.label == routed.name || !command.followsFocus, "the menu's \(row.name) label")
      check(
        availability(of: command).value == availability(of: routed).value,
        "\(row.name) can run exactly when \(routed.name) can")
    }
    for pending in confirmations.pending {
      check(state.notebooks[pending.notebookID] != nil, "a pending deletion's notebook exists")
    }
    let consistency = ConsistencyCheck(model: model)
    defer { consistency.cancel() }
    for (name, controller) in viewStateControllers { consistency.register(name, controller) }
    let mismatches = consistency.verify()
    check(mismatches.isEmpty, "every controller shows the latest revision: \(mismatches)")
  }
}
