// TextEditing: the editor pane's text operations on a body and a cursor, and the layout
// of the body into screen lines.
//
// Guarantees
// - Pure functions of their arguments; the cursor is a character offset, always clamped
//   to `0...text.count`.
// - Layout wraps each paragraph at the pane's width in display columns (wide characters
//   never straddle the edge) and gives the cursor's row and column in the wrapped lines.

/// A body of text with a cursor, edited one key at a time.
public struct TextCursor: Equatable, Sendable {
  /// The text.
  public private(set) var text: String
  /// The cursor, as a number of characters from the start.
  public private(set) var offset: Int

  /// Creates a cursor at `offset` in `text`.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - offset: Characters from the start; clamped to the text.
  public init(text: String, offset: Int) {
    self.text = text
    self.offset = min(max(0, offset), text.count)
  }

  private var index: String.Index { text.index(text.startIndex, offsetBy: offset) }

  /// Inserts characters at the cursor and moves past them.
  ///
  /// - Parameter inserted: The characters.
  public mutating func insert(_ inserted: String) {
    let before = text.count
    text.insert(contentsOf: inserted, at: index)
    // A combining mark can merge with the character before it, so count what was added.
    offset += text.count - before
  }

  /// Deletes the character before the cursor.
  public mutating func deleteBackward() {
    guard offset > 0 else { return }
    text.remove(at: text.index(before: index))
    offset -= 1
  }

  /// Deletes the character after the cursor.
  public mutating func deleteForward() {
    guard offset < text.count else { return }
    text.remove(at: index)
  }

  /// Moves the cursor by `delta` characters, staying inside the text.
  ///
  /// - Parameter delta: Characters to move; negative moves left.
  public mutating func move(by delta: Int) {
    offset = min(max(0, offset + delta), text.count)
  }

  /// Moves the cursor to the start of its line.
  public mutating func moveToLineStart() {
    let prefix = text[..<index]
    if let newline = prefix.lastIndex(of: "\n") {
      offset = text.distance(from: text.startIndex, to: newline) + 1
    } else {
      offset = 0
    }
  }

  /// Moves the cursor to the end of its line.
  public mutating func moveToLineEnd() {
    let suffix = text[index...]
    offset += suffix.prefix { $0 != "\n" }.count
  }

  /// Moves the cursor to the same column of the previous or next line of a layout.
  ///
  /// - Parameters:
  ///   - rows: Lines to move; negative moves up.
  ///   - width: The layout's width.
  public mutating func moveVertically(by rows: Int, width: Int) {
    let layout = TextLayout(text: text, width: width, cursor: offset)
    let target = min(max(0, layout.cursorRow + rows), layout.lines.count - 1)
    guard target != layout.cursorRow else { return }
    let line = layout.lines[target]
    var column = 0
    var characters = 0
    for character in line.text {
      let next = column + character.displayWidth
      if next > layout.cursorColumn { break }
      column = next
      characters += 1
    }
    offset = line.startOffset + characters
  }
}

/// A body wrapped into screen lines, with the cursor's place in them.
public struct TextLayout: Equatable, Sendable {
  /// One wrapped line.
  public struct Line: Equatable, Sendable {
    /// Its characters.
    public var text: Substring
    /// The character offset of its first character in the body.
    public var startOffset: Int
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
  ///   - cursor: The cursor's character offset.
  public init(text: String, width: Int, cursor: Int) {
    let width = max(2, width)
    var offset = 0
    var lineStart = text.startIndex
    var lineOffset = 0
    var column = 0
    var index = text.startIndex
    var cursorFound = false
    func place(at row: Int, column: Int) {
      if !cursorFound, offset == cursor {
        cursorRow = row
        cursorColumn = column
        cursorFound = true
      }
    }
    while index < text.endIndex {
      let character = text[index]
      if character == "\n" {
        place(at: lines.count, column: column)
        lines.append(Line(text: text[lineStart..<index], startOffset: lineOffset))
        index = text.index(after: index)
        offset += 1
        lineStart = index
        lineOffset = offset
        column = 0
        continue
      }
      let characterWidth = max(1, character.displayWidth)
      if column + characterWidth > width {
        lines.append(Line(text: text[lineStart..<index], startOffset: lineOffset))
        lineStart = index
        lineOffset = offset
        column = 0
      }
      place(at: lines.count, column: column)
      column += characterWidth
      index = text.index(after: index)
      offset += 1
    }
    if !cursorFound {
      if column >= width {
        lines.append(Line(text: text[lineStart..<index], startOffset: lineOffset))
        lineStart = index
        lineOffset = offset
        column = 0
      }
      cursorRow = lines.count
      cursorColumn = column
    }
    lines.append(Line(text: text[lineStart..<text.endIndex], startOffset: lineOffset))
  }
}
