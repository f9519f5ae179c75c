// Terminal+Drawing: puts a screen buffer on the terminal, glyph by glyph, clipped to its size.

import CNcurses
import Dispatch
import NotesTerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Terminal {
  /// Shows `buffer`: its cells, then its cursor (hidden when it has none).
  ///
  /// - Parameter buffer: The screen to show; clipped to `size`.
  func draw(_ buffer: ScreenBuffer) {
    guard !isStopped else { return }
    let window = airframe_stdscr()
    // Blank first: a glyph the terminal draws narrower than we measured leaves no stale
    // cell behind. ncurses sends only the differences when it refreshes.
    werase(window)
    let rows = min(buffer.height, size.height)
    let columns = min(buffer.width, size.width)
    for y in 0..<rows {
      // Each cell's glyph with the isolation marks that pair up in the columns shown.
      let texts = buffer.terminalTexts(row: y, columns: columns)
      for x in 0..<columns where !buffer[y, x].glyph.isEmpty {
        let cell = buffer[y, x]
        // A wide character cut by the screen's right edge would wrap; draw a blank (with
        // the cell's marks, which pair with others in the row).
        let isCutWide =
          x == columns - 1 && x + 1 < buffer.width && buffer[y, x + 1].glyph.isEmpty
        let text =
          isCutWide ? texts[x].replacing(cell.glyph, with: " ", maxReplacements: 1) : texts[x]
        wattr_set(window, Self.attributes(cell.style), 0, nil)
        _ = mvwaddstr(window, Int32(y), Int32(x), text)
      }
    }
    wattr_set(window, 0, 0, nil)
    if let cursor = buffer.cursor, (0..<rows).contains(cursor.row),
      (0..<columns).contains(cursor.column)
    {
      wmove(window, Int32(cursor.row), Int32(cursor.column))
      curs_set(1)
    } else {
      curs_set(0)
    }
    wrefresh(window)
  }

  /// Makes the next `draw(_:)` repaint every cell, whatever ncurses believes the screen
  /// shows (for Ctrl-L, after another program or a terminal quirk left stray cells).
  func repaintNextDraw() {
    guard !isStopped else { return }
    clearok(airframe_curscr(), true)
  }

  /// The ncurses attributes for a cell style.
  ///
  /// - Parameter style: The style.
  /// - Returns: The attributes.
  fileprivate static func attributes(_ style: CellStyle) -> attr_t {
    var attributes: attr_t = 0
    if style.contains(.bold) { attributes |= airframe_attribute_bold() }
    if style.contains(.reverse) { attributes |= airframe_attribute_reverse() }
    if style.contains(.dim) { attributes |= airframe_attribute_dim() }
    if style.contains(.underline) { attributes |= airframe_attribute_underline() }
    return attributes
  }
}
