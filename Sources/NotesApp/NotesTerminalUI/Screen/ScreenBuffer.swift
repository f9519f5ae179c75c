import Airframe

/// How a cell is drawn.
public struct CellStyle: OptionSet, Hashable, Sendable {
  /// The style bits.
  public let rawValue: UInt8

  /// Creates a style from its raw bits.
  ///
  /// - Parameter rawValue: The bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Bold text.
  public static let bold = CellStyle(rawValue: 1 << 0)
  /// Foreground and background swapped.
  public static let reverse = CellStyle(rawValue: 1 << 1)
  /// Dimmed text.
  public static let dim = CellStyle(rawValue: 1 << 2)
  /// Underlined text.
  public static let underline = CellStyle(rawValue: 1 << 3)
}

/// One terminal cell.
public struct ScreenCell: Equatable, Sendable {
  /// The character drawn here; empty for the second cell of a wide character.
  public var glyph: String
  /// How it is drawn.
  public var style: CellStyle
  /// How many isolations (U+2068) open just before the glyph.
  public var isolationsOpened = 0
  /// How many isolations (U+2069) close just after the glyph.
  public var isolationsClosed = 0

  /// Creates a cell with no isolation mark.
  ///
  /// - Parameters:
  ///   - glyph: The character drawn.
  ///   - style: How it is drawn.
  public init(glyph: String, style: CellStyle) {
    self.glyph = glyph
    self.style = style
  }

  /// A blank cell.
  public static let blank = ScreenCell(glyph: " ", style: [])
}

/// A grid of cells the size of the terminal, drawn by the panes and shown by a terminal.
///
/// ## Guarantees
///
/// - Fixed size; writes outside the grid are clipped, never a crash.
/// - A wide character takes two cells: its glyph in the first, an empty continuation in
///   the second. A wide character that would straddle the right edge of a write's limit
///   is replaced by a space, so columns always line up.
/// - A cell holds what the terminal is sent (`Character.terminalGlyph`): characters that
///   draw nothing on their own (control and format characters, noncharacters) are drawn as
///   U+FFFD, so an escape byte, a bidi override or an invisible character can never reach
///   the terminal through a note's text.
/// - Isolation marks (U+2068 … U+2069, `BidiIsolation`: the app's way of keeping user text
///   apart from its own words) take no column. A write keeps each on the cell of the
///   character after (an opening mark) or before it (a closing one), leaves out a closing
///   mark that closes nothing it opened, and closes what it opened on the last cell it
///   drew. The terminal is sent only the marks that pair up within their row
///   (`terminalTexts(row:columns:)`): an isolation can never reach past its row, nor past
///   text drawn over part of it, so it cannot reorder anything but the text it encloses.
/// - `lines` is the text a terminal would show, one string per row, trailing spaces kept;
///   `terminalLine(_:)` is a row with the isolation marks it is sent.
public struct ScreenBuffer: Equatable, Sendable {
  /// Columns.
  public let width: Int
  /// Rows.
  public let height: Int
  /// The cells, row after row, in one array.
  private var cells: [ScreenCell]
  /// Where the terminal's cursor goes, as (row, column); `nil` hides it.
  public var cursor: (row: Int, column: Int)? {
    get { cursorPosition.map { ($0.row, $0.column) } }
    set { cursorPosition = newValue.map { CursorPosition(row: $0.row, column: $0.column) } }
  }
  private var cursorPosition: CursorPosition?

  private struct CursorPosition: Equatable, Sendable {
    var row: Int
    var column: Int
  }

  /// One-character strings for the printable ASCII characters, made once.
  private static let asciiGlyphs: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

  /// Creates a blank buffer.
  ///
  /// - Parameters:
  ///   - width: Columns (at least 0).
  ///   - height: Rows (at least 0).
  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: .blank, count: self.width * self.height)
  }

  /// The cell at a position.
  ///
  /// - Parameters:
  ///   - row: A row in `0..<height`.
  ///   - column: A column in `0..<width`.
  public subscript(row: Int, column: Int) -> ScreenCell {
    cells[row * width + column]
  }

  /// The cells, row by row, as new arrays.
  ///
  /// - Complexity: O(*width* × *height*) on every call; to read cells in a loop, use
  ///   the subscript, `buffer[row, column]`.
  public var rows: [[ScreenCell]] {
    (0..<height).map { Array(cells[($0 * width)..<(($0 + 1) * width)]) }
  }

  /// Writes `text` at a position, clipped to `limit` columns and the buffer's edge.
  ///
  /// Newlines and tabs are drawn as spaces; each other character as its
  /// `Character.terminalGlyph`, in `Character.displayWidth` columns. Isolation marks take
  /// no column (see the buffer's guarantees).
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - row: The row.
  ///   - column: The first column.
  ///   - limit: The most columns to use; to the right edge when `nil`.
  ///   - style: How the text is drawn.
  /// - Returns: The number of columns written.
  @discardableResult
  public mutating func write<S: StringProtocol>(
    _ text: S, row: Int, column: Int, limit: Int? = nil,
    style: CellStyle = []
  ) -> Int {
    guard row >= 0, row < height, column >= 0, column < width else { return 0 }
    let end = min(width, column + max(0, limit ?? width))
    let base = row * width
    var x = column
    // Fast path: a run of printable ASCII needs no grapheme breaking and takes one column
    // per byte. It stops at the first other byte, and the rest goes character by character.
    let utf8 = text.utf8
    var position = utf8.startIndex
    var lastASCII: S.UTF8View.Index?
    while position < utf8.endIndex, x < end {
      let byte = utf8[position]
      guard byte >= 0x20, byte < 0x7F else { break }
      cells[base + x] = ScreenCell(glyph: Self.asciiGlyphs[Int(byte)], style: style)
      x += 1
      lastASCII = position
      position = utf8.index(after: position)
    }
    guard position < utf8.endIndex, x < end else { return x - column }
    if let lastASCII {
      // The last ASCII character may combine with what follows (a combining accent), so
      // it is drawn again as part of the slow path's first character.
      position = lastASCII
      x -= 1
    }
    // Isolations opened by marks not followed by a drawn character yet, and those opened
    // on a drawn cell and not closed yet.
    var opening = 0
    var open = 0
    var lastDrawn: Int?
    for character in text[position...] {
      guard x < end else { break }
      if character.isIsolationMark {
        if character.unicodeScalars.first == BidiIsolation.firstStrongIsolate {
          opening += 1
        } else if opening > 0 {
          opening -= 1  // It enclosed nothing drawn.
        } else if open > 0, let lastDrawn {
          cells[lastDrawn].isolationsClosed += 1
          open -= 1
        }
        continue
      }
      let isSpace = character == "\n" || character == "\t" || character == "\r\n"
      let glyph = isSpace ? " " : character.terminalGlyph
      let glyphWidth = character.displayWidth
      if x + glyphWidth > end {
        cells[base + x] = ScreenCell(glyph: " ", style: style)
        x += 1
        break
      }
      cells[base + x] = ScreenCell(glyph: glyph, style: style)
      cells[base + x].isolationsOpened = opening
      open += opening
      opening = 0
      lastDrawn = base + x
      if glyphWidth == 2 { cells[base + x + 1] = ScreenCell(glyph: "", style: style) }
      x += glyphWidth
    }
    // Clipped, or the text left some open: what this write opened ends with it.
    if open > 0, let lastDrawn { cells[lastDrawn].isolationsClosed += open }
    return x - column
  }

  /// Fills columns of a row with blanks in a style.
  ///
  /// - Parameters:
  ///   - row: The row.
  ///   - columns: The columns; clipped to the buffer.
  ///   - style: The style of the blanks.
  public mutating func fill(row: Int, columns: Range<Int>, style: CellStyle = []) {
    guard row >= 0, row < height else { return }
    let lower = max(0, columns.lowerBound)
    let upper = min(width, columns.upperBound)
    guard lower < upper else { return }
    let blank = ScreenCell(glyph: " ", style: style)
    for x in lower..<upper { cells[row * width + x] = blank }
  }

  /// The text of one row, as a terminal shows it.
  ///
  /// - Parameter row: The row.
  /// - Returns: The row's characters; wide characters once. The invisible isolation marks
  ///   are not in it (``terminalLine(_:)`` has them).
  public func line(_ row: Int) -> String {
    guard row >= 0, row < height else { return "" }
    var text = ""
    for cell in cells[(row * width)..<((row + 1) * width)] { text += cell.glyph }
    return text
  }

  /// The text of one row as a terminal is sent it: ``line(_:)`` with the isolation marks
  /// that pair up in the row (see ``terminalTexts(row:columns:)``).
  ///
  /// - Parameter row: The row.
  /// - Returns: The row's characters and marks.
  public func terminalLine(_ row: Int) -> String {
    terminalTexts(row: row, columns: width).joined()
  }

  /// What a terminal is sent for each cell of a row's first `columns` columns: the cell's
  /// glyph (empty for the second cell of a wide character), with the isolation marks
  /// around it that pair up within those columns.
  ///
  /// A mark whose partner is not in those columns — drawn over by a later write, or past
  /// the terminal's edge — is left out, so no isolation reaches past the text it encloses.
  ///
  /// - Parameters:
  ///   - row: The row.
  ///   - columns: How many columns the terminal shows (at most the buffer's width).
  /// - Returns: One text per column.
  public func terminalTexts(row: Int, columns: Int) -> [String] {
    guard row >= 0, row < height else { return [] }
    let count = min(max(0, columns), width)
    let rowCells = cells[(row * width)..<(row * width + count)]
    var texts = rowCells.map(\.glyph)
    guard rowCells.contains(where: { $0.isolationsOpened > 0 }) else { return texts }
    // Pair each closing mark with the latest opening one still open, as the Unicode
    // Bidirectional Algorithm does.
    var opened = Array(repeating: 0, count: count)
    var closed = Array(repeating: 0, count: count)
    var stack: [Int] = []
    for (column, cell) in rowCells.enumerated() {
      stack += Array(repeating: column, count: cell.isolationsOpened)
      for _ in 0..<cell.isolationsClosed {
        guard let start = stack.popLast() else { break }
        opened[start] += 1
        closed[column] += 1
      }
    }
    let first = String(BidiIsolation.firstStrongIsolate)
    let pop = String(BidiIsolation.popDirectionalIsolate)
    for column in 0..<count where opened[column] > 0 || closed[column] > 0 {
      texts[column] =
        String(repeating: first, count: opened[column]) + texts[column]
        + String(repeating: pop, count: closed[column])
    }
    return texts
  }

  /// Every row's text, top to bottom.
  public var lines: [String] { (0..<height).map(line) }

  /// Whether two buffers hold the same cells and cursor.
  ///
  /// - Parameters:
  ///   - lhs: A buffer.
  ///   - rhs: Another buffer.
  /// - Returns: `true` if they look the same on a terminal.
  public static func == (lhs: ScreenBuffer, rhs: ScreenBuffer) -> Bool {
    lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells
      && lhs.cursorPosition == rhs.cursorPosition
  }
}
