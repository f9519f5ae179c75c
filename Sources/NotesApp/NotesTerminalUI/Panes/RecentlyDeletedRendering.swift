// Recently Deleted, drawn where the note list and the editor are while the sidebar has it
// selected: its notes in the list's frame, the highlighted one's text in the editor's.

import Airframe
import NotesCore
import NotesPresentation

/// What the list pane draws while Recently Deleted is selected.
struct DeletedNotesContent {
  /// How many notes are in Recently Deleted.
  var count: Int
  /// The entry at an index, read only for the rows drawn.
  var entry: (Int) -> DeletedNote
  /// The highlighted entry's index.
  var selected: Int
  var focused: Bool
  /// How many days the library keeps a deleted note.
  var keptDays: Int
}

/// Draws Recently Deleted in the list's frame: two lines per note (its title, then the
/// notebook it was in and when it was deleted, cut at the pane's edge), the highlighted
/// one styled as the list's selection, and how long notes are kept on the last lines.
///
/// Only the rows in view are read (`entry(index)`), so a frame costs the same with 10 or
/// 100,000 deleted notes.
func drawDeletedNotes(
  _ content: DeletedNotesContent, scroll: inout Int, frame: Frame,
  into screen: inout ScreenBuffer
) {
  drawHeader(
    "RECENTLY DELETED \(content.count)", focused: content.focused, frame: frame,
    into: &screen)
  // How long notes are kept, at the bottom, over as many lines as the pane's width needs.
  let kept = wrappedAtWords(
    RecentlyDeleted.keptSentence(days: content.keptDays), frame.width - 2
  ).suffix(max(0, frame.height - 3))
  for (line, text) in kept.enumerated() {
    screen.write(
      text, row: frame.row + frame.height - kept.count + line, column: frame.column + 1,
      limit: frame.width - 1, style: .dim)
  }
  guard content.count > 0 else {
    screen.write(
      "Recently Deleted is empty.", row: frame.row + 2, column: frame.column + 2,
      limit: frame.width - 2)
    return
  }
  // The header above, the kept sentence below.
  let visible = (frame.height - 1 - kept.count) / 2
  NotesTerminalUI.scroll(
    toShow: content.selected, visible: visible, count: content.count, offset: &scroll)
  for line in 0..<max(0, visible) {
    let index = scroll + line
    guard index < content.count else { break }
    let entry = content.entry(index)
    let row = frame.row + 1 + line * 2
    let style = rowStyle(selected: index == content.selected, focused: content.focused)
    drawRow(
      BidiIsolation.isolate(entry.note.title), row: row, frame: frame, style: style,
      into: &screen)
    drawRow(
      BidiIsolation.isolate(entry.notebookTitle) + " · " + ShownDate.text(entry.deleted),
      row: row + 1, frame: frame, style: style.union(.dim), into: &screen)
  }
}

/// Draws a note of Recently Deleted in the editor's frame, read-only: its title and how to
/// bring it back in the header, then its text from the top, wrapped.
///
/// - Parameters:
///   - entry: The highlighted note; `nil` when Recently Deleted is empty.
///   - frame: The editor's frame.
///   - textFrame: Where the text goes in it.
///   - screen: The screen drawn into.
func drawDeletedNote(
  _ entry: DeletedNote?, frame: Frame, textFrame: Frame, into screen: inout ScreenBuffer
) {
  guard let entry else {
    drawHeader("RECENTLY DELETED", focused: false, frame: frame, into: &screen)
    screen.write(
      "Deleted notes are kept here until they go for good.", row: textFrame.row,
      column: textFrame.column, limit: textFrame.width, style: .dim)
    return
  }
  drawHeader(
    BidiIsolation.isolate(entry.note.title) + " — deleted: Enter restores it", focused: false,
    frame: frame, into: &screen)
  let layout = TextLayout(text: entry.note.body, width: textFrame.width, cursorUTF8Offset: 0)
  for (line, wrapped) in layout.lines.prefix(textFrame.height).enumerated() {
    screen.write(
      wrapped.text, row: textFrame.row + line, column: textFrame.column, limit: textFrame.width)
  }
}
