import Airframe
@_spi(Instrumentation) import NotesCore
import NotesTerminalUI
import Testing

@testable import NotesPresentation

extension TerminalApplication {
  /// Checks that every pane on the screen shows the model as it is now: the title bar, each
  /// sidebar count, the status bar, the note list's count and the editor's note.
  func expectPanesAgree(
    width: Int = 100, height: Int = 24, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let rendered = render(width: width, height: height)
    let lines = rendered.lines
    let state = session.model.state
    let showsDeleted = session.sidebarSelection.value == .recentlyDeleted
    let title = WindowTitleController.title(
      for: state, note: session.noteList.lens.selection.value,
      notebook: session.sidebar.selectedNotebook.value,
      hasUnsavedEdits: false, showsRecentlyDeleted: showsDeleted)
    // The title as the terminal is sent it: each title isolated, as the controller made it.
    #expect(rendered.terminalLine(0).hasPrefix(" " + title), sourceLocation: sourceLocation)
    let status = StatusBarController.status(for: state, message: nil)
    #expect(lines[height - 1].contains(status.counts), sourceLocation: sourceLocation)
    #expect(lines[height - 1].contains(status.sync), sourceLocation: sourceLocation)
    for row in SidebarController.recomputedRows(for: state) {
      let shown = lines.contains {
        $0.hasPrefix(" \(row.title)") && $0.contains(" \(row.noteCount) │")
      }
      #expect(shown, "sidebar row \(row.title) \(row.noteCount)", sourceLocation: sourceLocation)
    }
    let deleted = state.recentlyDeleted.count
    let deletedRow = lines.contains {
      $0.hasPrefix(" Recently Deleted") && $0.contains(" \(deleted) │")
    }
    #expect(deletedRow, "sidebar row Recently Deleted \(deleted)", sourceLocation: sourceLocation)
    guard !showsDeleted else {
      // The list's frame shows Recently Deleted; its highlighted note heads the editor.
      #expect(lines[1].contains("RECENTLY DELETED \(deleted) "), sourceLocation: sourceLocation)
      if deleted > 0 {
        let entry = session.recentlyDeletedEntry(at: highlightedDeletedIndex)
        #expect(
          lines[1].contains("│ \(entry.note.title) — deleted"), sourceLocation: sourceLocation)
      }
      return
    }
    let listed = NoteListController.recomputedRows(
      for: state, notebook: session.sidebar.selectedNotebook.value, search: session.noteList.search,
      sort: session.noteList.sort)
    #expect(lines[1].contains("NOTES \(listed.count) "), sourceLocation: sourceLocation)
    if let id = session.noteList.lens.selection.value, let note = state.notes[id] {
      #expect(lines[1].contains("│ \(note.title)"), sourceLocation: sourceLocation)
    }
  }
}
