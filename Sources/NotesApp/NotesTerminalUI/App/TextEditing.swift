// TextEditing: the editor pane's text operations on a body and a cursor, and the layout
// of the body into screen lines.

/// A body of text with a cursor, edited one key at a time.
///
/// The cursor is kept as a UTF-8 offset, so typing at the cursor costs O(1) to find the
/// place however long the body is; it always sits on a character boundary.
///
/// ## Guarantees
///
/// - Pure functions of their arguments; the cursor is a UTF-8 offset that always sits on a
///   character boundary inside the text, so finding it costs O(1) at any body length.
public struct TextCursor: Equatable, Sendable {
  /// The text.
  public private(set) var text: String
  /// The cursor, as a number of UTF-8 bytes from the start.
  public private(set) var utf8Offset: Int

  /// Creates a cursor at `offset` characters into `text`.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - offset: Characters from the start; clamped to the text.
  public init(text: String, offset: Int) {
    self.text = text
    let index =
      text.index(text.startIndex, offsetBy: max(0, offset), limitedBy: text.endIndex)
      ?? text.endIndex
    utf8Offset = text.utf8.distance(from: text.startIndex, to: index)
  }

  /// Creates a cursor at a UTF-8 offset, clamped to the text and rounded down to a
  /// character boundary.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - utf8Offset: Bytes from the start.
  public init(text: String, utf8Offset: Int) {
    self.text = text
    let clamped = min(max(0, utf8Offset), text.utf8.count)
    var index = text.utf8.index(text.startIndex, offsetBy: clamped)
    if String.Index(index, within: text) == nil {
      // Rounds down: the character containing the byte, then its start.
      index = text.index(before: text.index(after: index))
    }
    self.utf8Offset = text.utf8.distance(from: text.startIndex, to: index)
  }

  /// Creates a cursor at the end of `text`.
  ///
  /// - Parameter text: The text.
  public init(atEndOf text: String) {
    self.text = text
    utf8Offset = text.utf8.count
  }

  /// The cursor, as a number of characters from the start.
  ///
  /// - Complexity: O(*n*) in the characters before the cursor.
  public var offset: Int { text[..<index].count }

  /// The cursor as an index of `text`.
  var index: String.Index { text.utf8.index(text.startIndex, offsetBy: utf8Offset) }

  private mutating func moveTo(_ index: String.Index) {
    utf8Offset = text.utf8.distance(from: text.startIndex, to: index)
  }

  /// Inserts characters at the cursor and moves past them.
  ///
  /// - Parameter inserted: The characters.
  public mutating func insert(_ inserted: String) {
    text.insert(contentsOf: inserted, at: index)
    utf8Offset += inserted.utf8.count
    // A combining mark merges with the character before it: step past the merged one.
    let landed = index
    if String.Index(landed, within: text) == nil { moveTo(text.index(after: landed)) }
  }

  /// Deletes the character before the cursor.
  public mutating func deleteBackward() {
    guard utf8Offset > 0 else { return }
    let end = index
    let start = text.index(before: end)
    text.removeSubrange(start..<end)
    moveTo(start)
  }

  /// Deletes the character after the cursor.
  public mutating func deleteForward() {
    let start = index
    guard start < text.endIndex else { return }
    text.remove(at: start)
  }

  /// Moves the cursor by `delta` characters, staying inside the text.
  ///
  /// - Parameter delta: Characters to move; negative moves left.
  public mutating func move(by delta: Int) {
    let limit = delta < 0 ? text.startIndex : text.endIndex
    moveTo(text.index(index, offsetBy: delta, limitedBy: limit) ?? limit)
  }

  /// Moves the cursor to the start of its line.
  public mutating func moveToLineStart() {
    let prefix = text[..<index]
    moveTo(prefix.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex)
  }

  /// Moves the cursor to the end of its line.
  public mutating func moveToLineEnd() {
    moveTo(text[index...].firstIndex(of: "\n") ?? text.endIndex)
  }

  /// Moves the cursor to the same column of the previous or next line of a layout.
  ///
  /// - Parameters:
  ///   - rows: Lines to move; negative moves up.
  ///   - width: The layout's width.
  public mutating func moveVertically(by rows: Int, width: Int) {
    let layout = TextLayout(text: text, width: width, cursorUTF8Offset: utf8Offset)
    let target = min(max(0, layout.cursorRow + rows), layout.lines.count - 1)
    guard target != layout.cursorRow else { return }
    let line = layout.lines[target]
    var column = 0
    var position = line.text.startIndex
    for character in line.text {
      let next = column + character.displayWidth
      if next > layout.cursorColumn { break }
      column = next
      position = line.text.index(after: position)
    }
    moveTo(position)
  }
}

/// A body wrapped into screen lines, with the cursor's place in them.
///
/// ## Guarantees
///
/// - Layout wraps each paragraph at the pane's width in display columns (wide characters
///   never straddle the edge) and gives the cursor's row and column in the wrapped lines.
public struct TextLayout: Equatable, Sendable {
  /// One wrapped line.
  public struct Line: Equatable, Sendable {
    /// Its characters.
    public var text: Substring
    /// The UTF-8 offset of its first character in the body.
    public var startUTF8Offset: Int
  }

  /// The wrapped lines; at least one.
  public private(set) var lines: [Line] = []
  /// The cursor's line.
  public private(set) var cursorRow = 0
  /// The cursor's column, in display columns.
  public private(set) var cursorColumn = 0

  /// Wraps `text` at `width` columns and finds the cursor.
  ///
  /// - Parameters:
  ///   - text: The body.
  ///   - width: Columns per line (at least 2 are used).
  ///   - cursorUTF8Offset: The cursor, as a UTF-8 offset on a character boundary.
  public init(text: String, width: Int, cursorUTF8Offset: Int) {
    let width = max(2, width)
    var offset = 0
    var lineStart = text.startIndex
    var lineOffset = 0
    var column = 0
    var index = text.startIndex
    var cursorFound = false
    func place(at row: Int, column: Int) {
      if !cursorFound, offset == cursorUTF8Offset {
        cursorRow = row
        cursorColumn = column
        cursorFound = true
      }
    }
    let utf8 = text.utf8
    while index < text.endIndex {
      // Fast path: an ASCII byte followed by another ASCII byte (or the end) is a whole
      // character one column wide, or a line break; no grapheme breaking needed. A
      // carriage return is left to the slow path, since "\r\n" is one character.
      let byte = utf8[index]
      let next = utf8.index(after: index)
      if byte < 0x80, byte != 0x0D, next == utf8.endIndex || utf8[next] < 0x80 {
        if byte == 0x0A {
          place(at: lines.count, column: column)
          lines.append(Line(text: text[lineStart..<index], startUTF8Offset: lineOffset))
          lineStart = next
          lineOffset = offset + 1
          column = 0
        } else {
          if column + 1 > width {
            lines.append(Line(text: text[lineStart..<index], startUTF8Offset: lineOffset))
            lineStart = index
            lineOffset = offset
            column = 0
          }
          place(at: lines.count, column: column)
          column += 1
        }
        index = next
        offset += 1
        continue
      }
      let character = text[index]
      if character == "\n" {
        place(at: lines.count, column: column)
        lines.append(Line(text: text[lineStart..<index], startUTF8Offset: lineOffset))
        index = text.index(after: index)
        offset += 1  // "\n" is one byte
        lineStart = index
        lineOffset = offset
        column = 0
        continue
      }
      let characterWidth = max(1, character.displayWidth)
      if column + characterWidth > width {
        lines.append(Line(text: text[lineStart..<index], startUTF8Offset: lineOffset))
        lineStart = index
        lineOffset = offset
        column = 0
      }
      place(at: lines.count, column: column)
      column += characterWidth
      index = text.index(after: index)
      offset += character.utf8.count
    }
    if !cursorFound {
      if column >= width {
        lines.append(Line(text: text[lineStart..<index], startUTF8Offset: lineOffset))
        lineStart = index
        lineOffset = offset
        column = 0
      }
      cursorRow = lines.count
      cursorColumn = column
    }
    lines.append(Line(text: text[lineStart..<text.endIndex], startUTF8Offset: lineOffset))
  }
}
