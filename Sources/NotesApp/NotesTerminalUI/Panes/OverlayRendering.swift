// Overlays: boxes drawn over the panes — the command palette, the help screen, the
// deletion confirmation and the move picker.

import Airframe
import Foundation
import NotesCore
import NotesPresentation

/// The key bindings the help screen lists, in order.
public enum KeyBindings {
  /// Each binding: the keys, and what they do.
  public static let all: [(keys: String, action: String)] = [
    ("Tab / Shift-Tab", "move focus: notebooks, notes, editor"),
    ("↑ ↓  j k  PgUp PgDn", "move the selection"),
    ("Enter", "open: notebook → notes → editor"),
    ("Esc", "leave the editor or Recently Deleted, clear, close"),
    ("n / N", "new note / new notebook"),
    ("r", "rename the selected note or notebook, in place"),
    ("m", "move the selected note to another notebook"),
    ("p", "pin or unpin the selected note"),
    ("d / Delete", "delete the note (notebook in the sidebar)"),
    ("T", "Recently Deleted: restore, delete for good, empty"),
    ("H", "the note's history: compare, restore"),
    ("/", "search as you type"),
    ("o", "sort by title or by date"),
    ("u / Ctrl-Z", "undo"),
    ("U / Ctrl-R", "redo"),
    ("s", "sync now"),
    ("I / E", "import a file or folder / export as Markdown"),
    (": / Ctrl-P", "command palette"),
    ("? / F1", "this help"),
    ("q / Ctrl-Q", "quit"),
    ("Ctrl-K / Ctrl-T", "on a conflict: keep yours / take theirs"),
    ("Ctrl-L", "repaint the screen"),
  ]
}

/// Draws a bordered box with a title and lines, centred; returns its inner frame.
///
/// When the lines do not all fit, the box shows a window of them that keeps `selected`
/// in view, starting at `scroll` (adjusted), and marks hidden lines with ▲ and ▼.
///
/// ## Guarantees
///
/// - Each box is centred, clipped to the screen, and drawn after the panes so nothing
///   overwrites it. A box too short for its lines scrolls to keep the highlighted line in
///   view and marks hidden lines with ▲ / ▼; a line too long is cut at a word, with "…".
@discardableResult
func drawBox(
  title: String, lines: [(String, CellStyle)], width: Int, selected: Int? = nil,
  scroll: inout Int, into screen: inout ScreenBuffer
) -> Frame {
  let boxWidth = min(screen.width - 2, max(width, title.displayWidth + 6))
  let boxHeight = min(screen.height - 2, lines.count + 2)
  guard boxWidth > 4, boxHeight > 2 else { return Frame(row: 0, column: 0, width: 0, height: 0) }
  let visible = boxHeight - 2
  NotesTerminalUI.scroll(toShow: selected, visible: visible, count: lines.count, offset: &scroll)
  let top = (screen.height - boxHeight) / 2
  let left = (screen.width - boxWidth) / 2
  let inner = boxWidth - 2
  screen.write(
    "┌" + String(repeating: "─", count: inner) + "┐", row: top, column: left, limit: boxWidth)
  screen.write(" \(title) ", row: top, column: left + 2, limit: inner - 2, style: .bold)
  for index in 0..<visible {
    let row = top + 1 + index
    screen.write("│", row: row, column: left, limit: 1)
    screen.fill(row: row, columns: (left + 1)..<(left + 1 + inner))
    let (text, style) = lines[scroll + index]
    screen.fill(row: row, columns: (left + 1)..<(left + 1 + inner), style: style)
    screen.write(fittedAtWord(text, inner - 2), row: row, column: left + 2, style: style)
    let isCut =
      (index == 0 && scroll > 0) || (index == visible - 1 && scroll + visible < lines.count)
    screen.write(
      isCut ? (index == 0 ? "▲" : "▼") : "│", row: row, column: left + boxWidth - 1, limit: 1)
  }
  screen.write(
    "└" + String(repeating: "─", count: inner) + "┘", row: top + boxHeight - 1, column: left,
    limit: boxWidth)
  return Frame(row: top + 1, column: left + 1, width: inner, height: boxHeight - 2)
}

/// Pads `text` with spaces to `width` columns (or leaves it if it is wider).
func padded(_ text: String, to width: Int) -> String {
  text + String(repeating: " ", count: max(0, width - text.displayWidth))
}

/// Draws the command palette, scrolled to keep the highlighted command in view.
///
/// ## Guarantees
///
/// - The palette lists every command by its label (Undo's names the step: "Undo Rename
///   Note") with its key; a disabled command is dimmed and shows its reason.
func drawPalette(
  _ rows: [CommandRow], selected: Int, scroll: inout Int, into screen: inout ScreenBuffer
) {
  // Narrow screens get narrower columns, so a reason keeps room to be read.
  let nameWidth = min(23, (rows.map(\.label.displayWidth).max() ?? 0) + 2)
  let shortcutWidth = screen.width < 70 ? 0 : 13
  let lines = rows.enumerated().map { index, row -> (String, CellStyle) in
    var text = padded(row.label, to: nameWidth)
    if shortcutWidth > 0 { text += padded(row.shortcut, to: shortcutWidth) }
    var style: CellStyle = index == selected ? [.reverse] : []
    if let reason = row.availability.reason {
      text += "— " + reason
      style.insert(.dim)
    }
    return (text, style)
  }
  drawBox(
    title: "Commands (Enter runs, Esc closes)", lines: lines, width: 76, selected: selected,
    scroll: &scroll, into: &screen)
}

/// The help screen laid out for a screen size: its lines, and how far it can scroll.
///
/// Keys sit in a column with their actions beside them, an action too long for its column
/// wrapped at words onto lines of its own below; when the action column would be too narrow
/// to read (under 20 columns), each binding's keys take a line and its action, indented,
/// the lines below. When the lines do not all fit, the title says how to scroll and the
/// scroll keys move them instead of closing the box.
struct HelpScreen {
  /// The widest box the help screen takes.
  static let boxWidth = 76
  /// The narrowest action column keys and actions are laid out side by side with.
  static let narrowestActionColumn = 20

  let lines: [(String, CellStyle)]
  /// How many lines the box shows.
  let visible: Int

  init(width: Int, height: Int) {
    let text = min(width - 2, Self.boxWidth) - 4  // inside the borders and margins
    let keysColumn = (KeyBindings.all.map(\.keys.displayWidth).max() ?? 0) + 2
    let actionColumn = text - keysColumn
    if actionColumn >= Self.narrowestActionColumn {
      lines = KeyBindings.all.flatMap { binding in
        wrappedAtWords(binding.action, actionColumn).enumerated().map { index, line in
          (padded(index == 0 ? binding.keys : "", to: keysColumn) + line, CellStyle())
        }
      }
    } else {
      lines = KeyBindings.all.flatMap { binding in
        [(binding.keys, CellStyle.bold)]
          + wrappedAtWords(binding.action, text - 2).map { ("  " + $0, CellStyle()) }
      }
    }
    visible = max(0, min(height - 2, lines.count + 2) - 2)
  }

  /// Whether some lines are hidden, so the box scrolls.
  var scrolls: Bool { lines.count > visible }

  /// The last first line a scroll can show.
  var maximumScroll: Int { max(0, lines.count - visible) }

  var title: String { scrolls ? "Keys (↑↓ scroll, Esc closes)" : "Keys (any key closes)" }
}

/// Draws the help screen, starting at line `scroll` (adjusted to the lines there are).
func drawHelp(scroll: inout Int, into screen: inout ScreenBuffer) {
  let help = HelpScreen(width: screen.width, height: screen.height)
  drawBox(
    title: help.title, lines: help.lines, width: HelpScreen.boxWidth, scroll: &scroll,
    into: &screen)
}

/// Draws a yes/no question.
func drawConfirmation(_ confirmation: DeletionConfirmation, into screen: inout ScreenBuffer) {
  var scroll = 0
  drawBox(
    title: "Confirm",
    lines: [(confirmation.message, [.bold]), ("", []), ("y: delete    n / Esc: keep", [])],
    width: confirmation.message.displayWidth + 6, scroll: &scroll, into: &screen)
}

/// Draws the notebook picker for moving a note, scrolled to keep the highlighted one in
/// view.
func drawMovePicker(
  _ targets: [SidebarRow], selected: Int, scroll: inout Int, into screen: inout ScreenBuffer
) {
  let lines = targets.enumerated().map { index, row in
    (row.title, index == selected ? CellStyle.reverse : CellStyle())
  }
  drawBox(
    title: "Move to (Enter moves, Esc cancels)",
    lines: lines.isEmpty ? [("No other notebook", .dim)] : lines, width: 40, selected: selected,
    scroll: &scroll, into: &screen)
}

/// Draws a note's history: the versions (when, where, title), a window of at most
/// ``historyRows`` around the highlighted one, then what changed from it to `now`, the
/// note's text (`VersionComparison`): removed lines marked "-" and dim, added ones "+" and
/// bold, with the lines beside each change.
func drawHistory(_ box: NoteHistoryBox, now: String, into screen: inout ScreenBuffer) {
  let first = max(0, min(box.selected - historyRows / 2, box.versions.count - historyRows))
  let shown = box.versions.indices.dropFirst(first).prefix(historyRows)
  var lines: [(String, CellStyle)] = shown.map { index in
    (
      NotesSession.label(of: box.versions[index]),
      index == box.selected ? CellStyle.reverse : CellStyle()
    )
  }
  if box.versions.count > historyRows {
    lines.append(("\(box.versions.count) versions (↑↓ for more)", .dim))
  }
  lines.append(("", []))
  // The comparison's lines whose words changed, by their index in `lines`.
  var worded: [Int: VersionComparison.Line] = [:]
  if let version = box.versions.indices.contains(box.selected) ? box.versions[box.selected] : nil {
    let comparison = VersionComparison(from: version.body, to: now)
    if comparison.isUnchanged {
      lines.append((VersionComparison.unchangedSentence, .dim))
    } else {
      lines.append((VersionComparison.heading, .bold))
      for line in comparison.lines {
        if !line.changedWords.isEmpty { worded[lines.count] = line }
        switch line {
        case .kept: lines.append((line.marked, []))
        case .removed, .gap: lines.append((line.marked, .dim))
        case .added: lines.append((line.marked, .bold))
        }
      }
    }
  }
  var scroll = 0
  let frame = drawBox(
    title: "History (Enter restores, Esc closes)", lines: lines, width: 72,
    selected: box.selected - first, scroll: &scroll, into: &screen)
  // The words that changed in a replaced line, underlined when the box shows it whole.
  for (index, line) in worded where index >= scroll && index - scroll < frame.height {
    let row = frame.row + index - scroll
    switch line {
    case .removed(let text, let changed):
      underline(text, changed, row: row, frame: frame, style: .dim, into: &screen)
    case .added(let text, let changed):
      underline(text, changed, row: row, frame: frame, style: .bold, into: &screen)
    case .kept, .gap: break
    }
  }
}

/// Underlines the `changed` ranges of a comparison's line drawn at `row` of a box, after its
/// two-column marker, when the box shows the line whole.
private func underline(
  _ text: String, _ changed: [Range<String.Index>], row: Int, frame: Frame, style: CellStyle,
  into screen: inout ScreenBuffer
) {
  guard text.displayWidth + 2 <= frame.width - 2 else { return }
  for range in changed {
    let column = frame.column + 3 + text[..<range.lowerBound].displayWidth
    screen.write(text[range], row: row, column: column, style: style.union(.underline))
  }
}

/// How many versions the history box lists at once.
let historyRows = 8
