import Foundation

/// A parse of the screen of the Notes app in browsing mode.
///
/// What the Notes app's screen says, read back from the terminal the way a user reads it — the
/// title bar, each pane's header and rows, the editor, the hint line and the status bar — so tests
/// can compare the panes with each other and with the database.
///
/// ## Guarantees
///
/// - Parsing follows the layout of `ScreenLayout`: the title bar on row 0, the pane
///   headers on row 1, the pane rows down to the hint line (second to last row) and the
///   status bar (last row); panes are separated by the dim rules (│) between them.
/// - A selected row is one drawn highlighted (reversed in the focused pane, bold in
///   another); a focused pane is one whose header is reversed.
/// - A screen that does not have this shape (an overlay box is open, the terminal is too
///   small, the program is not running) is refused with the reason, never guessed at.
struct NotesScreen: CustomStringConvertible {
  /// A sidebar row: "All notes" or a notebook, with its count.
  struct SidebarEntry: Equatable {
    /// The row's text after the pane's first column, trailing spaces removed.
    var text: String
    /// The title as shown (a long one is cut before the count, ending in "…").
    var title: String
    /// The count shown at the right.
    var count: Int
    /// Whether the row is highlighted.
    var isSelected: Bool
  }

  /// A note in the list: its title line and its snippet line.
  struct ListEntry: Equatable {
    /// The title as shown, without the pin marker.
    var title: String
    /// Whether the ★ pin marker shows.
    var isPinned: Bool
    /// The second line: the body's first line, as shown.
    var snippet: String
    /// Whether the row is highlighted.
    var isSelected: Bool
  }

  /// A pane that can have the focus.
  enum Pane: String {
    case sidebar, list, editor
  }

  /// The rows as captured, with their attributes.
  let styled: [StyledText]
  /// The rows as plain text, trailing spaces removed.
  let rows: [String]
  /// The title bar's text, without the leading space and the "? help" label.
  let title: String
  /// The pane whose header is reversed, if exactly one is.
  let focusedPane: Pane?
  /// The sidebar's rows: "All notes", then the notebooks (a window of them if it scrolled).
  let sidebar: [SidebarEntry]
  /// The sidebar's last row, Recently Deleted, when it is in view.
  let recentlyDeleted: SidebarEntry?
  /// The count in the list's header ("NOTES 6").
  let listCount: Int
  /// The list's order, as its header says: "date" or "title".
  let listSort: String
  /// The search text the list's header shows, if any.
  let listSearch: String?
  /// Whether the header cuts the search text short (it has no closing quote).
  let listSearchIsCut: Bool
  /// The notes the list shows.
  let list: [ListEntry]
  /// What the list shows instead of notes ("No notes", "No notes match"), if anything.
  let listPlaceholder: String?
  /// The editor's header: "EDITOR" when no note is open, else the note's title and marks.
  let editorHeader: String
  /// The editor's text rows, trailing spaces removed, trailing empty rows dropped.
  let editorLines: [String]
  /// The hint line (or the prompt).
  let hint: String
  /// The status bar's notebook count.
  let notebookCount: Int
  /// The status bar's note count.
  let noteCount: Int
  /// The status bar's sync state, such as "Not synced".
  let sync: String
  /// The status bar's message, if any.
  let message: String?

  /// The screen's width in columns.
  let width: Int
  /// How many notes the list shows at most at this height.
  let visibleListEntries: Int
  /// How many sidebar rows fit at this height.
  let visibleSidebarEntries: Int

  /// Why a screen could not be read.
  struct Unreadable: Error, CustomStringConvertible {
    var description: String
  }

  /// Reads a captured screen.
  ///
  /// - Parameter styled: The rows with their attributes.
  /// - Throws: `Unreadable` when the screen is not the app's browsing screen.
  init(_ styled: [StyledText]) throws {
    self.styled = styled
    let rows = styled.map(\.trimmedText)
    self.rows = rows
    let height = rows.count
    guard height >= 10 else { throw Unreadable(description: "only \(height) rows") }
    if let box = rows.firstIndex(where: { $0.contains("┌") || $0.contains("└") }) {
      throw Unreadable(description: "an overlay box is open (row \(box))")
    }

    // Title bar.
    let titleRow = rows[0]
    guard titleRow.hasPrefix(" "), titleRow.hasSuffix("? help") else {
      throw Unreadable(description: "no title bar: \(titleRow)")
    }
    title = String(titleRow.dropFirst().dropLast("? help".count)).trimmingTrailingSpaces
    // "? help" ends one column before the right edge.
    width = Columns.of(titleRow) + 1

    // Panes: split each pane row at the dim rules.
    var panes: [[StyledText]] = [[], [], []]
    for row in 1..<(height - 2) {
      let parts = styled[row].split { $0.character == "│" && $0.style.contains(.dim) }
      guard parts.count == 3 else {
        throw Unreadable(description: "row \(row) is not three panes: \(rows[row])")
      }
      for pane in 0..<3 { panes[pane].append(parts[pane]) }
    }
    let headers = panes.map { $0[0] }
    let focused = zip([Pane.sidebar, .list, .editor], headers)
      .filter { $0.1.firstStyle.contains(.reverse) }.map(\.0)
    focusedPane = focused.count == 1 ? focused[0] : nil

    // Sidebar.
    guard headers[0].trimmedText == " NOTEBOOKS" else {
      throw Unreadable(description: "no sidebar header: \(headers[0].text)")
    }
    var sidebar: [SidebarEntry] = []
    var deletedEntry: SidebarEntry?
    for row in panes[0].dropFirst() {
      let text = row.dropFirst(1).trimmedText
      if text.isEmpty { break }
      let digits = text.reversed().prefix { $0.isASCII && $0.isNumber }.count
      guard digits > 0 else {
        throw Unreadable(description: "a sidebar row without a count: \(text)")
      }
      // The app keeps a blank column between a title and its count.
      guard text.dropLast(digits).last == " " else {
        throw Unreadable(description: "a sidebar row whose title touches its count: \(text)")
      }
      let entry = SidebarEntry(
        text: text, title: String(text.dropLast(digits)).trimmingTrailingSpaces,
        count: Int(text.suffix(digits)) ?? 0,
        isSelected: row.firstStyle.isHighlighted)
      // The dim row (the last) is Recently Deleted, not a notebook. Selected, it is not dim,
      // but then the list's header says so, and the screen is refused below.
      if row.firstStyle.contains(.dim) {
        deletedEntry = entry
      } else {
        sidebar.append(entry)
      }
    }
    self.sidebar = sidebar
    recentlyDeleted = deletedEntry
    visibleSidebarEntries = panes[0].count - 1

    // List header: " NOTES 6 · by date · “search”".
    let header = headers[1].trimmedText
    if header.hasPrefix(" RECENTLY DELETED") {
      throw Unreadable(description: "Recently Deleted is shown where the notes are")
    }
    let headerParts = header.dropFirst().components(separatedBy: " · ")
    guard headerParts.count >= 2, headerParts[0].hasPrefix("NOTES "),
      let listCount = Int(headerParts[0].dropFirst("NOTES ".count)),
      headerParts[1].hasPrefix("by ")
    else { throw Unreadable(description: "no list header: \(header)") }
    self.listCount = listCount
    listSort = String(headerParts[1].dropFirst("by ".count))
    let search = headerParts.dropFirst(2).joined(separator: " · ")
    listSearchIsCut = !search.isEmpty && (search.count < 2 || search.last != "”")
    listSearch = search.isEmpty ? nil : String(search.dropFirst().dropLast(listSearchIsCut ? 0 : 1))

    // List rows: a title line and a snippet line per note.
    var list: [ListEntry] = []
    let listRows = Array(panes[1].dropFirst())
    visibleListEntries = listRows.count / 2
    var placeholder: String?
    for index in 0..<visibleListEntries {
      let titleRow = listRows[index * 2]
      let title = String(titleRow.dropFirst(1).trimmedText)
      if title.isEmpty {
        let text = listRows[index * 2 + 1].trimmedText.trimmingLeadingSpaces
        if index == 0, !text.isEmpty { placeholder = text }
        break
      }
      let isPinned = title.hasPrefix("★ ")
      list.append(
        ListEntry(
          title: isPinned ? String(title.dropFirst(2)) : title, isPinned: isPinned,
          snippet: listRows[index * 2 + 1].dropFirst(1).trimmedText,
          isSelected: titleRow.firstStyle.isHighlighted))
    }
    self.list = list
    listPlaceholder = placeholder

    // Editor.
    editorHeader = String(headers[2].trimmedText.dropFirst())
    var editorLines = panes[2].dropFirst().map { $0.dropFirst(1).trimmedText }
    while editorLines.last?.isEmpty == true { editorLines.removeLast() }
    self.editorLines = editorLines

    // Hint line and status bar: " 3 notebooks · 6 notes · Not synced · message".
    hint = rows[height - 2].trimmingLeadingSpaces
    let status = rows[height - 1]
    let statusParts = status.dropFirst().components(separatedBy: " · ")
    guard status.hasPrefix(" "), statusParts.count >= 3,
      let notebooks = Self.count(statusParts[0], "notebook"),
      let notes = Self.count(statusParts[1], "note")
    else { throw Unreadable(description: "no status bar: \(status)") }
    notebookCount = notebooks
    noteCount = notes
    sync = statusParts[2]
    let message = statusParts.dropFirst(3).joined(separator: " · ")
    self.message = message.isEmpty ? nil : message
  }

  /// Reads "1 note" or "6 notes".
  private static func count(_ text: String, _ noun: String) -> Int? {
    let words = text.split(separator: " ")
    guard words.count == 2, let count = Int(words[0]) else { return nil }
    return words[1] == (count == 1 ? noun : noun + "s") ? count : nil
  }

  /// The sidebar pane's width (as `ScreenLayout` computes it).
  var sidebarWidth: Int { min(26, max(12, width / 5)) }
  /// The note list pane's width.
  var listWidth: Int { min(40, max(16, width * 3 / 10)) }
  /// The editor pane's width.
  var editorWidth: Int { width - sidebarWidth - listWidth - 2 }

  /// The "All notes" row, if the sidebar shows it.
  var allNotes: SidebarEntry? { sidebar.first.flatMap { $0.title == "All notes" ? $0 : nil } }

  /// The highlighted sidebar row (the sidebar always has one).
  var selectedSidebarEntry: SidebarEntry? {
    let selected = sidebar.filter(\.isSelected)
    return selected.count == 1 ? selected[0] : nil
  }

  /// The highlighted note in the list, if one is.
  var selectedListEntry: ListEntry? { list.first(where: \.isSelected) }

  /// The title of the note open in the editor, without the marks after it; `nil` when no
  /// note is open.
  var editorNoteTitle: String? {
    guard editorHeader != "EDITOR" else { return nil }
    for mark in [" — unsaved", " — deleted elsewhere", " — changed elsewhere"] {
      if let range = editorHeader.range(of: mark) {
        return String(editorHeader[..<range.lowerBound])
      }
    }
    return editorHeader
  }

  /// Whether the editor says it holds text the database does not have.
  var editorIsUnsaved: Bool { editorHeader.contains(" — unsaved") }

  /// Whether the app is browsing (no prompt is open): the hint line shows the keys.
  var isBrowsing: Bool {
    hint.hasPrefix("Tab pane · ") || hint.hasPrefix("Type to edit · ")
  }

  /// The screen as it looks, for failure messages.
  var description: String { rows.joined(separator: "\n") }
}

extension String {
  /// The string without trailing spaces.
  var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }

  /// The string without leading spaces.
  var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
