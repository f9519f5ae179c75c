// Rendering the whole screen from the app's view state.

import Airframe
import NotesCore
import NotesPresentation

extension TerminalApplication {
  /// Draws every pane into a buffer of the given size.
  ///
  /// ## Guarantees
  ///
  /// - Every pane is drawn from the values the controllers last published, inside
  ///   `Rendering.perform`: rendering sends no input and dispatches nothing. Its only side
  ///   effect is keeping each pane's scroll offset around its selection.
  /// - The list draws only its visible rows (O(visible × log n) at any list size).
  ///
  /// - Parameters:
  ///   - width: Columns.
  ///   - height: Rows.
  /// - Returns: The screen.
  public func render(width: Int, height: Int) -> ScreenBuffer {
    Rendering.perform { draw(width: width, height: height) }
  }

  private func draw(width: Int, height: Int) -> ScreenBuffer {
    lastSize = (width, height)
    var screen = ScreenBuffer(width: width, height: height)
    let layout = layout(width: width, height: height)
    guard !layout.isTooSmall else {
      let message = "Notes needs at least 40 × 10; this terminal is \(width) × \(height)."
      for (row, line) in wrappedAtWords(message, width).prefix(height).enumerated() {
        screen.write(line, row: row, column: 0)
      }
      return screen
    }
    screen.fill(row: 0, columns: 0..<width, style: .reverse)
    screen.write(
      " " + session.title.value, row: 0, column: 0, limit: width - 12, style: [.reverse, .bold])
    screen.write("? help", row: 0, column: width - 7, limit: 6, style: .reverse)

    var renamingNotebook: (NotebookID, String)?
    var renamingNote: (NoteID, String)?
    if case .prompt(let prompt) = interaction {
      if case .renameNotebook(let id) = prompt.purpose { renamingNotebook = (id, prompt.text) }
      if case .renameNote(let id) = prompt.purpose { renamingNote = (id, prompt.text) }
    }
    let sidebarSelection = session.sidebarSelection.value
    drawSidebar(
      SidebarContent(
        rows: session.notebooks.value, totalNotes: session.noteCount,
        deletedNotes: session.recentlyDeletedCount, selection: sidebarSelection,
        focused: focus == .sidebar, renaming: renamingNotebook),
      scroll: &sidebarScroll, frame: layout.sidebar, into: &screen)
    drawRule(column: layout.list.column - 1, rows: layout.list.rows, into: &screen)
    if sidebarSelection == .recentlyDeleted {
      drawRecentlyDeleted(layout, into: &screen)
    } else {
      drawNotes(layout, renaming: renamingNote, into: &screen)
    }
    drawHintLine(layout.hintLine, into: &screen)
    screen.fill(row: layout.statusBar.row, columns: 0..<width, style: .reverse)
    // A message that does not fit beside the counts is shown on its own, cut at a word.
    let status = session.status.value
    let statusText = " " + status.text
    screen.write(
      statusText.displayWidth <= width
        ? statusText : fittedAtWord(status.message.map { " " + $0 } ?? statusText, width),
      row: layout.statusBar.row, column: 0, style: .reverse)
    drawOverlay(into: &screen)
    return screen
  }

  /// The note list and the editor.
  private func drawNotes(
    _ layout: ScreenLayout, renaming renamingNote: (NoteID, String)?,
    into screen: inout ScreenBuffer
  ) {
    let list = session.list
    let selectedNote = session.selectedNote.value
    drawNoteList(
      NoteListContent(
        count: list.count, row: { list.row(at: $0) }, selection: selectedNote,
        selectedIndex: selectedNote.flatMap { list.index(of: $0) }, focused: focus == .list,
        search: session.search.value, sort: session.sort, renaming: renamingNote),
      scroll: &listScroll, frame: layout.list, into: &screen)
    drawRule(column: layout.editor.column - 1, rows: layout.editor.rows, into: &screen)
    drawEditor(
      state: session.editorState.value, cursor: cursor,
      focused: focus == .editor && interaction == .browsing,
      scroll: &editorScroll, frame: layout.editor, textFrame: layout.editorText, into: &screen)
  }

  /// Recently Deleted in the list's frame, and its highlighted note in the editor's.
  private func drawRecentlyDeleted(_ layout: ScreenLayout, into screen: inout ScreenBuffer) {
    let count = session.recentlyDeletedCount
    let selected = highlightedDeletedIndex
    drawDeletedNotes(
      DeletedNotesContent(
        count: count, entry: session.recentlyDeletedEntry(at:), selected: selected,
        focused: focus == .list, keptDays: session.recentlyDeletedDays),
      scroll: &listScroll, frame: layout.list, into: &screen)
    drawRule(column: layout.editor.column - 1, rows: layout.editor.rows, into: &screen)
    drawDeletedNote(
      count > 0 ? session.recentlyDeletedEntry(at: selected) : nil, frame: layout.editor,
      textFrame: layout.editorText, into: &screen)
  }

  private func drawHintLine(_ frame: Frame, into screen: inout ScreenBuffer) {
    if case .prompt(let prompt) = interaction {
      // The cursor is at the end of the text: a long text shows its end.
      let label = "\(prompt.label): "
      let room = frame.width - 3 - label.displayWidth
      let text =
        room > 1
        ? label + BidiIsolation.isolate(ending(of: prompt.text, fitting: room)) : prompt.text
      let written = screen.write(text, row: frame.row, column: 1, limit: frame.width - 2)
      screen.cursor = (frame.row, min(frame.width - 1, 1 + written))
      return
    }
    if case .deletedNotesQuestion(let question) = interaction {
      screen.write(
        deletedNotesQuestionText(question) + " y: delete, any other key: keep", row: frame.row,
        column: 1, limit: frame.width - 2, style: .bold)
      return
    }
    let hint =
      if session.sidebarSelection.value == .recentlyDeleted {
        "Enter restores · x deletes for good · E empties · u undo · Esc back to notes · q quit"
      } else if focus == .editor {
        "Type to edit · Esc leaves the editor · Ctrl-Q quits"
      } else {
        "Tab pane · n note · N notebook · r rename · d delete · / search · : commands"
          + " · ? help · q quit"
      }
    screen.write(hint, row: frame.row, column: 1, limit: frame.width - 2, style: .dim)
  }

  private func drawOverlay(into screen: inout ScreenBuffer) {
    switch interaction {
    case .browsing, .prompt, .deletedNotesQuestion: return
    case .palette(let selected):
      drawPalette(session.menu.value, selected: selected, scroll: &overlayScroll, into: &screen)
    case .help: drawHelp(scroll: &overlayScroll, into: &screen)
    case .confirmation(let confirmation): drawConfirmation(confirmation, into: &screen)
    case .moving(let note, let selected):
      drawMovePicker(
        session.moveTargets(for: note), selected: selected, scroll: &overlayScroll, into: &screen)
    case .history(let box):
      drawHistory(box, now: session.editorState.value.body, into: &screen)
    }
    screen.cursor = nil
  }
}
