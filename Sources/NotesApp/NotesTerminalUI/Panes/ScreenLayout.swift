/// A rectangle of cells.
struct Frame: Equatable {
  var row: Int
  var column: Int
  var width: Int
  var height: Int

  /// The rows of the frame.
  var rows: Range<Int> { row..<(row + height) }
}

/// The frames of every pane for one screen size.
///
/// ## Guarantees
///
/// - A pure function of the size. Rows: the title bar on top, the panes in the middle, a
///   hint or prompt line, and the status bar at the bottom. Columns: sidebar, note list and
///   editor, separated by one-column rules.
/// - Below the minimum size (40 × 10) only a "too small" notice is drawn.
struct ScreenLayout: Equatable {
  static let minimumWidth = 40
  static let minimumHeight = 10

  var titleBar: Frame
  var sidebar: Frame
  var list: Frame
  var editor: Frame
  /// The editor's text area (below its header).
  var editorText: Frame
  var hintLine: Frame
  var statusBar: Frame
  var isTooSmall: Bool

  init(width: Int, height: Int) {
    isTooSmall = width < Self.minimumWidth || height < Self.minimumHeight
    let paneHeight = max(0, height - 3)
    let sidebarWidth = min(26, max(12, width / 5))
    let listWidth = min(40, max(16, width * 3 / 10))
    let editorColumn = sidebarWidth + 1 + listWidth + 1
    titleBar = Frame(row: 0, column: 0, width: width, height: 1)
    sidebar = Frame(row: 1, column: 0, width: sidebarWidth, height: paneHeight)
    list = Frame(row: 1, column: sidebarWidth + 1, width: listWidth, height: paneHeight)
    editor = Frame(
      row: 1, column: editorColumn, width: max(0, width - editorColumn), height: paneHeight)
    editorText = Frame(
      row: 2, column: editorColumn + 1, width: max(0, width - editorColumn - 2),
      height: max(0, paneHeight - 1))
    hintLine = Frame(row: max(0, height - 2), column: 0, width: width, height: 1)
    statusBar = Frame(row: max(0, height - 1), column: 0, width: width, height: 1)
  }
}

extension TerminalApplication {
  /// The layout for a screen size.
  func layout(width: Int, height: Int) -> ScreenLayout {
    ScreenLayout(width: width, height: height)
  }
}

/// Keeps `index` inside a window of `visible` rows that starts at `offset`.
///
/// - Parameters:
///   - index: The row that must be visible, if any.
///   - visible: How many rows fit.
///   - count: How many rows there are.
///   - offset: The first visible row; adjusted.
func scroll(toShow index: Int?, visible: Int, count: Int, offset: inout Int) {
  guard visible > 0 else { return }
  if let index {
    if index < offset { offset = index }
    if index >= offset + visible { offset = index - visible + 1 }
  }
  offset = max(0, min(offset, max(0, count - visible)))
}
