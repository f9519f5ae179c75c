// Pane rendering: each pane drawn from its view state into a frame of the screen buffer.
//
// Pure drawing: each function reads the values it is given and writes only cells inside its
// frame (and, for the editor, the cursor position). The focused pane's header is reversed
// (`drawHeader`); the selected row is reversed when its pane has focus and bold otherwise
// (`rowStyle`). Text a user wrote (a title, the search, a title being typed) is isolated
// (`BidiIsolation`) wherever it shares a row with the app's own text, a count or another
// title, so a right-to-left title cannot reorder the row on a terminal that lays out
// right-to-left text.

import Airframe
import Foundation
import NotesCore

/// Draws a pane's header line: reversed when the pane has focus.
func drawHeader(_ text: String, focused: Bool, frame: Frame, into screen: inout ScreenBuffer) {
  let style: CellStyle = focused ? [.reverse, .bold] : [.bold]
  screen.fill(row: frame.row, columns: frame.column..<(frame.column + frame.width), style: style)
  screen.write(" " + text, row: frame.row, column: frame.column, limit: frame.width, style: style)
}

/// Draws a text left-aligned and a label right-aligned on one row of a frame.
///
/// With a label, a text too long for the room left of it is cut with "…" and a blank
/// column is kept between them, so the two never read as one word ("Notebo4973").
/// Without one, the text is clipped at the frame's edge.
func drawRow(
  _ text: some StringProtocol, trailing: String = "", row: Int, frame: Frame, style: CellStyle,
  into screen: inout ScreenBuffer
) {
  // Pane rows start blank; only a styled row needs its background filled.
  if !style.isEmpty {
    screen.fill(row: row, columns: frame.column..<(frame.column + frame.width), style: style)
  }
  guard !trailing.isEmpty else {
    screen.write(text, row: row, column: frame.column + 1, limit: frame.width - 1, style: style)
    return
  }
  // One column of margin on each side, and one between the text and the label.
  let trailingWidth = trailing.displayWidth
  let room = frame.width - 3 - trailingWidth
  screen.write(
    fittedWithEllipsis(String(text), room), row: row, column: frame.column + 1,
    limit: max(0, room), style: style)
  screen.write(
    trailing, row: row, column: frame.column + frame.width - 1 - trailingWidth,
    limit: trailingWidth, style: style)
}

/// `text` cut to `width` columns with "…" where it was cut (anywhere, even inside a word;
/// spaces before the "…" are dropped).
func fittedWithEllipsis(_ text: String, _ width: Int) -> String {
  guard text.displayWidth > width, width > 1 else { return text }
  var kept = Substring(fittedPrefix(text, width - 1))
  while kept.last == " " { kept.removeLast() }
  return kept + "…"
}

/// `text` cut to `width` columns at a word boundary, with "…" where it was cut.
///
/// A single word longer than the width is cut inside it, since nothing else would fit.
func fittedAtWord(_ text: String, _ width: Int) -> String {
  guard text.displayWidth > width, width > 1 else { return text }
  var kept = Substring(fittedPrefix(text, width - 1))
  if let space = kept.lastIndex(of: " "), kept[..<space].contains(where: { $0 != " " }) {
    kept = kept[..<space]
  }
  return kept + "…"
}

/// The end of `text` in at most `width` columns, after "…" if the start was left out.
///
/// - Complexity: O(*width*): the text is read from its end.
func ending(of text: String, fitting width: Int) -> String {
  var columns = 0
  var start = text.endIndex
  while start > text.startIndex {
    let previous = text.index(before: start)
    let characterWidth = text[previous].displayWidth
    if columns + characterWidth > width {
      // It does not fit whole: keep what fits beside the ellipsis.
      while columns > width - 1, start < text.endIndex {
        columns -= text[start].displayWidth
        start = text.index(after: start)
      }
      return "…" + text[start...]
    }
    columns += characterWidth
    start = previous
  }
  return text
}

/// `text` broken into lines of at most `width` columns at spaces; a word longer than a
/// line is cut.
func wrappedAtWords(_ text: String, _ width: Int) -> [String] {
  guard width > 0 else { return [] }
  var lines: [String] = []
  var line = ""
  for word in text.split(separator: " ") {
    let candidate = line.isEmpty ? String(word) : line + " " + word
    if candidate.displayWidth <= width {
      line = candidate
      continue
    }
    if !line.isEmpty { lines.append(line) }
    line = String(word)
    while line.displayWidth > width {
      let head = fittedPrefix(line, width)
      lines.append(head)
      line = String(line.dropFirst(head.count))
    }
  }
  if !line.isEmpty { lines.append(line) }
  return lines
}

/// The longest start of `text` that fits in `width` columns.
private func fittedPrefix(_ text: String, _ width: Int) -> String {
  var columns = 0
  var end = text.startIndex
  while end < text.endIndex {
    columns += text[end].displayWidth
    if columns > width { break }
    end = text.index(after: end)
  }
  return String(text[..<end])
}

/// The style of a row: reversed if selected in the focused pane, bold if selected elsewhere.
func rowStyle(selected: Bool, focused: Bool) -> CellStyle {
  selected ? (focused ? [.reverse] : [.bold]) : []
}

/// What the sidebar draws.
struct SidebarContent {
  var rows: [SidebarRow]
  var totalNotes: Int
  /// How many notes are in Recently Deleted.
  var deletedNotes: Int
  var selection: SidebarSelection
  var focused: Bool
  /// The title being typed for a notebook renamed in place.
  var renaming: (id: NotebookID, text: String)?
}

/// Draws the sidebar: "All notes", each notebook, then Recently Deleted, with their counts.
func drawSidebar(
  _ content: SidebarContent, scroll: inout Int, frame: Frame, into screen: inout ScreenBuffer
) {
  drawHeader("NOTEBOOKS", focused: content.focused, frame: frame, into: &screen)
  let entries: [(SidebarSelection, String, Int)] =
    [(.allNotes, "All notes", content.totalNotes)]
    + content.rows.map { (.notebook($0.id), $0.title, $0.noteCount) }
    + [(.recentlyDeleted, "Recently Deleted", content.deletedNotes)]
  let visible = frame.height - 1
  let selectedIndex = entries.firstIndex { $0.0 == content.selection }
  NotesTerminalUI.scroll(
    toShow: selectedIndex, visible: visible, count: entries.count, offset: &scroll)
  for line in 0..<max(0, visible) {
    let index = scroll + line
    guard index < entries.count else { break }
    let (entry, title, count) = entries[index]
    let selected = entry == content.selection
    if let renaming = content.renaming, let id = entry.notebook, renaming.id == id {
      drawRow(
        BidiIsolation.isolate(ending(of: renaming.text, fitting: frame.width - 3)) + "▏",
        row: frame.row + 1 + line, frame: frame, style: [.underline], into: &screen)
    } else {
      // "All notes" and "Recently Deleted" are the app's own; a notebook's title is the
      // user's. Recently Deleted is dim, as it holds no notes of the library.
      var style = rowStyle(selected: selected, focused: content.focused)
      if entry == .recentlyDeleted, !selected { style.formUnion(.dim) }
      drawRow(
        entry.notebook == nil ? title : BidiIsolation.isolate(title), trailing: String(count),
        row: frame.row + 1 + line, frame: frame, style: style, into: &screen)
    }
  }
}

/// What the note list draws.
struct NoteListContent {
  var count: Int
  var row: (Int) -> NoteRow
  var selection: NoteID?
  var selectedIndex: Int?
  var focused: Bool
  var search: String
  var sort: NoteSort
  /// The title being typed for a note renamed in place.
  var renaming: (id: NoteID, text: String)?
}

/// Draws the note list: two lines per note (title, then the body's first line).
func drawNoteList(
  _ content: NoteListContent, scroll: inout Int, frame: Frame, into screen: inout ScreenBuffer
) {
  var header = "NOTES \(content.count)"
  header += content.sort == .title ? " · by title" : " · by date"
  if !content.search.isEmpty { header += " · “\(BidiIsolation.isolate(content.search))”" }
  drawHeader(header, focused: content.focused, frame: frame, into: &screen)
  let visible = (frame.height - 1) / 2
  NotesTerminalUI.scroll(
    toShow: content.selectedIndex, visible: visible, count: content.count, offset: &scroll)
  if content.count == 0 {
    let text = content.search.isEmpty ? "No notes" : "No notes match"
    screen.write(text, row: frame.row + 2, column: frame.column + 2, limit: frame.width - 2)
    return
  }
  for line in 0..<max(0, visible) {
    let index = scroll + line
    guard index < content.count else { break }
    let note = content.row(index)
    let row = frame.row + 1 + line * 2
    let style = rowStyle(selected: note.id == content.selection, focused: content.focused)
    if let renaming = content.renaming, renaming.id == note.id {
      drawRow(
        BidiIsolation.isolate(ending(of: renaming.text, fitting: frame.width - 3)) + "▏",
        row: row, frame: frame, style: [.underline], into: &screen)
    } else {
      drawRow(
        (note.isPinned ? "★ " : "") + BidiIsolation.isolate(note.title), row: row, frame: frame,
        style: style, into: &screen)
    }
    drawRow(
      firstLine(of: note.body), row: row + 1, frame: frame, style: style.union(.dim),
      into: &screen)
  }
}

/// The first line of a body, without copying it: the row's width clips it when drawn.
///
/// The line break is looked for in the first 320 bytes only, more than a row can show, so
/// a long body is never walked to its end.
func firstLine(of body: String) -> Substring {
  body[..<(body.utf8.prefix(320).firstIndex(of: UInt8(ascii: "\n")) ?? body.endIndex)]
}

/// Draws the editor: a header with the note's state, then the wrapped body and the cursor.
func drawEditor(
  state: EditorState, cursor: TextCursor, focused: Bool, scroll: inout Int, frame: Frame,
  textFrame: Frame, into screen: inout ScreenBuffer
) {
  guard state.noteID != nil else {
    drawHeader("EDITOR", focused: focused, frame: frame, into: &screen)
    screen.write(
      "Select a note, or press n for a new one.", row: textFrame.row, column: textFrame.column,
      limit: textFrame.width, style: .dim)
    return
  }
  var header = BidiIsolation.isolate(state.title)
  if state.isDeleted {
    header += " — deleted elsewhere: Ctrl-K keeps it as a new note"
  } else if state.conflict != nil {
    header += " — changed elsewhere: Ctrl-K keeps yours, Ctrl-T takes theirs"
  } else if state.isDirty {
    header += " — unsaved"
  }
  drawHeader(header, focused: focused, frame: frame, into: &screen)
  let layout = TextLayout(
    text: cursor.text, width: textFrame.width, cursorUTF8Offset: cursor.utf8Offset)
  // While the note is not being edited it shows its start; editing scrolls to the cursor.
  if !focused { scroll = 0 }
  NotesTerminalUI.scroll(
    toShow: focused ? layout.cursorRow : nil, visible: textFrame.height,
    count: layout.lines.count, offset: &scroll)
  for line in 0..<textFrame.height {
    let index = scroll + line
    guard index < layout.lines.count else { break }
    screen.write(
      layout.lines[index].text, row: textFrame.row + line, column: textFrame.column,
      limit: textFrame.width)
  }
  if focused {
    screen.cursor = (
      textFrame.row + layout.cursorRow - scroll,
      textFrame.column + min(layout.cursorColumn, max(0, textFrame.width - 1))
    )
  }
}

/// Draws a vertical rule between panes.
func drawRule(column: Int, rows: Range<Int>, into screen: inout ScreenBuffer) {
  for row in rows { screen.write("│", row: row, column: column, limit: 1, style: .dim) }
}
