import Foundation
import Testing

/// Terminal columns by the app's rule: a character (grapheme cluster) takes its base's
/// width, 2 for East Asian wide characters and emoji shown as pictures, 1 otherwise; a flag
/// takes 2; one that draws nothing on its own takes 1 and is drawn as �.
enum Columns {
  /// East Asian wide and fullwidth blocks (as `DisplayWidth` lists them).
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]
  private static let regionalIndicators: ClosedRange<UInt32> = 0x1F1E6...0x1F1FF
  private static let invisibleCategories: [Unicode.GeneralCategory] = [
    .nonspacingMark, .enclosingMark, .spacingMark, .format, .control, .surrogate,
    .lineSeparator, .paragraphSeparator,
  ]

  /// What the app draws for a character: its base and combining marks only, and the
  /// columns that takes.
  static func drawn(_ character: Character) -> (glyph: String, width: Int) {
    let scalars = Array(character.unicodeScalars)
    let first = scalars[0]
    if scalars.count > 1, scalars[0...1].allSatisfy({ regionalIndicators.contains($0.value) }) {
      return (String(character), 2)
    }
    let invisible =
      first.value < 0x20 || (0x7F..<0xA0).contains(first.value)
      || first.properties.isNoncharacterCodePoint
      || invisibleCategories.contains(first.properties.generalCategory)
      || regionalIndicators.contains(first.value)
    if invisible { return ("\u{FFFD}", 1) }
    var glyph = String(first)
    for scalar in scalars.dropFirst() where !scalar.properties.isVariationSelector {
      let category = scalar.properties.generalCategory
      guard category == .nonspacingMark || category == .enclosingMark else { break }
      glyph.unicodeScalars.append(scalar)
    }
    let wide =
      first.value >= 0x1100
      && (wideRanges.contains { $0.contains(first.value) } || first.properties.isEmojiPresentation)
    return (glyph, wide ? 2 : 1)
  }

  /// The columns a character takes.
  static func of(_ character: Character) -> Int { drawn(character).width }

  /// The columns a text takes.
  static func of(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + of($1) }
  }

  /// A text as the app draws it into `limit` columns (line breaks and tabs as spaces,
  /// invisible characters as �, a wide character that does not fit as a space), trailing
  /// spaces removed.
  static func fitted(_ text: some StringProtocol, _ limit: Int) -> String {
    var result = ""
    var column = 0
    for character in text {
      guard column < limit else { break }
      var (glyph, width) = drawn(character)
      if character == "\n" || character == "\t" { (glyph, width) = (" ", 1) }
      if column + width > limit {
        result += " "
        break
      }
      result += glyph
      column += width
    }
    return result.trimmingTrailingSpaces
  }

  /// A body wrapped as the editor wraps it: at each line break, and before a character
  /// that would cross `width` columns.
  static func wrapped(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    var column = 0
    for character in text {
      if character == "\n" {
        lines.append(line)
        (line, column) = ("", 0)
        continue
      }
      let characterWidth = max(1, of(character))
      if column + characterWidth > width {
        lines.append(line)
        (line, column) = ("", 0)
      }
      line.append(character)
      column += characterWidth
    }
    lines.append(line)
    return lines.map { fitted($0, width) }
  }
}

/// Whether the panes of a screen agree with each other and with the database.
///
/// The checks that every pane of the Notes screen tells the same story — with each other (sidebar
/// counts, list header, title bar, editor, status bar) and with the database as `notes export`
/// reads it.
///
/// ## Guarantees
///
/// - Pure: each check takes a parsed screen (and a library) and returns its disagreements
///   as sentences; an empty list means the screen agrees. `expectAgreement` records them.
/// - Expected text is drawn by the app's documented rules (`ScreenLayout`'s pane widths,
///   `ScreenBuffer.write`'s clipping, `TextLayout`'s wrapping, `DisplayWidth`'s columns),
///   re-stated here rather than imported, so the terminal test does not trust the code it
///   tests to say what the screen should show.
/// - Nothing is assumed about what cannot be seen: a sidebar or list that scrolls, a
///   title cut at a pane's edge, a search text the header cuts short and notes the export
///   cannot order (modified in the same millisecond) are checked only as far as they show.
enum Agreement {
  /// Where the title bar's marks go: unsaved edits before, sync state after.
  struct TitleBar {
    /// The title without its marks: "Notebook — Note", "Notebook" or "Notes".
    var text: String
    /// Whether it starts with "• " (the editor has unsaved edits).
    var isUnsaved: Bool
    /// " — Syncing 40%" or " — Sync failed", if present.
    var syncMark: String?

    init(_ title: String) {
      var text = title
      isUnsaved = text.hasPrefix("• ")
      if isUnsaved { text.removeFirst(2) }
      if let range = text.range(of: " — Sync", options: .backwards) {
        syncMark = String(text[range.lowerBound...])
        text = String(text[..<range.lowerBound])
      }
      self.text = text
    }
  }

  /// The disagreements between the panes of one screen.
  ///
  /// - Parameter screen: The screen, in browsing mode.
  /// - Returns: One sentence per disagreement.
  static func disagreements(in screen: NotesScreen) -> [String] {
    var problems: [String] = []
    func check(_ condition: Bool, _ problem: @autoclosure () -> String) {
      if !condition { problems.append(problem()) }
    }

    // Sidebar against the status bar.
    if let all = screen.allNotes {
      check(
        all.count == screen.noteCount,
        "the sidebar's All notes says \(all.count), the status bar \(screen.noteCount) notes")
    }
    let shownRows = min(screen.notebookCount + 2, screen.visibleSidebarEntries)
    let deletedRows = screen.recentlyDeleted == nil ? 0 : 1
    check(
      screen.sidebar.count + deletedRows == shownRows,
      "the sidebar shows \(screen.sidebar.count + deletedRows) rows for "
        + "\(screen.notebookCount) notebooks (the status bar's count), All notes and "
        + "Recently Deleted")
    let notebookRows = screen.sidebar.dropFirst()
    if screen.allNotes != nil, screen.sidebar.count == screen.notebookCount + 1 {
      let sum = notebookRows.reduce(0) { $0 + $1.count }
      check(
        sum == screen.noteCount,
        "the notebooks' counts add up to \(sum), the status bar says \(screen.noteCount) notes")
    }
    let selected = screen.sidebar.filter(\.isSelected)
    check(selected.count == 1, "\(selected.count) sidebar rows are highlighted, not one")

    // The list against the selected sidebar row.
    if let row = screen.selectedSidebarEntry {
      if screen.listSearch == nil {
        check(
          screen.listCount == row.count,
          "the list's header says \(screen.listCount) notes, the selected sidebar row "
            + "\"\(row.title)\" \(row.count)")
      } else {
        check(
          screen.listCount <= row.count,
          "the search finds \(screen.listCount) notes in \"\(row.title)\" with \(row.count)")
      }
    }
    let shownNotes = min(screen.listCount, screen.visibleListEntries)
    check(
      screen.list.count == shownNotes,
      "the list shows \(screen.list.count) notes, its header says \(screen.listCount)")
    if screen.listCount == 0 {
      let expected = screen.listSearch == nil ? "No notes" : "No notes match"
      check(
        screen.listPlaceholder == expected,
        "an empty list shows \(screen.listPlaceholder.map { "\"\($0)\"" } ?? "nothing"), "
          + "not \"\(expected)\"")
    }
    let highlightedNotes = screen.list.filter(\.isSelected).count
    check(highlightedNotes <= 1, "\(highlightedNotes) notes are highlighted in the list")

    // The editor, the list's selection and the title bar.
    let title = TitleBar(screen.title)
    let editorTitle = screen.editorNoteTitle
    if let entry = screen.selectedListEntry {
      let shown = editorTitle ?? ""
      check(
        editorTitle != nil && (shown.hasPrefix(entry.title) || entry.title.hasPrefix(shown)),
        "the list highlights \"\(entry.title)\", the editor shows "
          + (editorTitle.map { "\"\($0)\"" } ?? "no note"))
    }
    let titleIsWhole = Columns.of(screen.title) < screen.width - 14
    if let editorTitle, titleIsWhole {
      check(
        title.text.contains(" — " + editorTitle),
        "the editor shows \"\(editorTitle)\", the title bar \"\(title.text)\"")
    }
    let notebookTitle = screen.selectedSidebarEntry.flatMap { $0 == screen.allNotes ? nil : $0 }
    if let notebookTitle {
      // A title cut in the sidebar ends with "…"; the title bar starts with what is shown.
      let shown =
        notebookTitle.title.hasSuffix("…")
        ? String(notebookTitle.title.dropLast()) : notebookTitle.title
      check(
        title.text.hasPrefix(shown),
        "the sidebar selects \"\(notebookTitle.title)\", the title bar says \"\(title.text)\"")
    } else if notebookTitle == nil, screen.selectedSidebarEntry != nil, editorTitle == nil {
      check(
        title.text == "Notes",
        "with All notes selected and no note open the title bar says \"\(title.text)\"")
    }
    check(
      title.isUnsaved == screen.editorIsUnsaved,
      "the title bar's unsaved mark (\(title.isUnsaved)) and the editor's "
        + "(\(screen.editorIsUnsaved)) differ")

    // Sync state: the title bar (unless a long title cut its end) and the status bar.
    check(
      !titleIsWhole || title.syncMark == syncMark(screen.sync),
      "the status bar says \"\(screen.sync)\", the title bar \"\(screen.title)\"")

    // Focus: one pane, and the hint line that goes with it.
    if screen.isBrowsing {
      check(screen.focusedPane != nil, "no single pane header shows the focus")
      let inEditor = screen.hint.hasPrefix("Type to edit")
      check(
        inEditor == (screen.focusedPane == .editor),
        "the hint line \"\(screen.hint)\" does not go with the focus on the "
          + "\(screen.focusedPane?.rawValue ?? "none")")
    }
    return problems
  }

  /// The disagreements between a screen and the database.
  ///
  /// - Parameters:
  ///   - screen: The screen, in browsing mode.
  ///   - library: The database, read while the screen showed.
  /// - Returns: One sentence per disagreement.
  static func disagreements(in screen: NotesScreen, with library: Library) -> [String] {
    var problems: [String] = []
    func check(_ condition: Bool, _ problem: @autoclosure () -> String) {
      if !condition { problems.append(problem()) }
    }

    // Status bar.
    check(
      screen.notebookCount == library.notebooks.count && screen.noteCount == library.notes.count,
      "the status bar says \(screen.notebookCount) notebooks and \(screen.noteCount) notes, "
        + "the database has \(library.notebooks.count) and \(library.notes.count)")

    // Sidebar: All notes, then the notebooks in order, as a window if it scrolled.
    let notebooks = library.notebooksInSidebarOrder
    let countWidth = { (count: Int) in screen.sidebarWidth - 3 - String(count).count }
    let expectedRows: [(id: Int64?, text: String)] =
      [(nil, sidebarText("All notes", library.notes.count, countWidth))]
      + notebooks.map { ($0.id, sidebarText($0.title, library.noteCount(in: $0.id), countWidth)) }
    let shownRows = screen.sidebar.map(\.text)
    let offset = (0...max(0, expectedRows.count - shownRows.count)).first { start in
      Array(expectedRows.dropFirst(start).prefix(shownRows.count).map(\.text)) == shownRows
    }
    check(
      offset != nil,
      "the sidebar shows\n  \(shownRows.joined(separator: "\n  "))\nthe database has\n  "
        + expectedRows.map(\.text).joined(separator: "\n  "))
    var selectedNotebook: Int64?
    var selectionKnown = false
    if let offset, let index = screen.sidebar.firstIndex(where: \.isSelected) {
      selectedNotebook = expectedRows[offset + index].id
      selectionKnown = true
    }

    // List: the selected notebook's notes that match the search, in order.
    if selectionKnown, !screen.listSearchIsCut {
      let expected = library.listedNotes(
        notebook: selectedNotebook, search: screen.listSearch, sort: screen.listSort)
      check(
        screen.listCount == expected.count,
        "the list's header says \(screen.listCount) notes, the database has \(expected.count) "
          + "in the selected notebook matching the search")
      var unmatched = expected
      var matched: [Library.Note] = []
      for entry in screen.list {
        if let index = unmatched.firstIndex(where: { listEntry($0, screen) == entry.rendered }) {
          matched.append(unmatched.remove(at: index))
        } else {
          problems.append("the list shows \(entry.rendered), which is no note of the database")
        }
      }
      for (first, second) in zip(matched, matched.dropFirst()) {
        check(
          Library.isListOrdered(first, second, sort: screen.listSort),
          "the list shows \"\(first.title)\" before \"\(second.title)\" sorted by "
            + screen.listSort)
      }
    }

    // Title bar and editor: the open note, or the selected notebook.
    if let editorTitle = screen.editorNoteTitle {
      let candidates = library.notes.filter { note in
        Columns.fitted(note.title, screen.editorWidth - 1) == editorTitle
          && (!selectionKnown || selectedNotebook == nil || note.notebookID == selectedNotebook)
      }
      let agreeing = candidates.filter { note in
        let notebook = library.notebook(note.notebookID)?.title ?? "?"
        guard screen.title == titleBar("\(notebook) — \(note.title)", screen) else { return false }
        return screen.editorIsUnsaved || editorShows(note.body, screen)
      }
      check(
        !agreeing.isEmpty,
        candidates.isEmpty
          ? "the editor shows \"\(editorTitle)\", which is no note "
            + "\(selectedNotebook == nil ? "" : "of the selected notebook ")in the database"
          : "the title bar \"\(screen.title)\" and editor do not show note "
            + candidates.map { "\($0.id)" }.joined(separator: " or ") + " as the database has it")
    } else if selectionKnown {
      let expected = titleBar(
        selectedNotebook.flatMap { library.notebook($0)?.title } ?? "Notes", screen)
      check(
        screen.title == expected,
        "no note is open and the title bar says \"\(screen.title)\", not \"\(expected)\"")
    }
    return problems
  }

  /// The title bar's mark for a sync state in the status bar, if it has one.
  private static func syncMark(_ sync: String) -> String? {
    if sync.hasPrefix("Syncing") { return " — " + sync }
    if sync.hasPrefix("Sync failed") { return " — Sync failed" }
    return nil
  }

  /// The title bar's text for a title, with the marks the screen's editor and status bar
  /// call for, cut where the title bar cuts it.
  private static func titleBar(_ title: String, _ screen: NotesScreen) -> String {
    let marked =
      (screen.editorIsUnsaved ? "• " : "") + title + (syncMark(screen.sync) ?? "")
    return Columns.fitted(marked, screen.width - 13)
  }

  /// A sidebar row's text: the title (cut with "…" if it does not fit the room left of the
  /// count), a blank column, then the count.
  private static func sidebarText(
    _ title: String, _ count: Int, _ titleWidth: (Int) -> Int
  ) -> String {
    let width = titleWidth(count)
    let fitted =
      Columns.of(title) <= width
      ? Columns.fitted(title, width)
      : Columns.fitted(title, width - 1) + "…"
    return fitted + String(repeating: " ", count: max(0, width - Columns.of(fitted)))
      + " " + String(count)
  }

  /// A note's two list lines as the list draws them.
  private static func listEntry(_ note: Library.Note, _ screen: NotesScreen) -> String {
    let width = screen.listWidth - 1
    let scalars = note.body.unicodeScalars
    let lineEnd = scalars.firstIndex(of: "\n") ?? scalars.endIndex
    let snippet = String(String(scalars[..<lineEnd]).prefix(80))
    return Columns.fitted((note.pinned ? "★ " : "") + note.title, width) + " / "
      + Columns.fitted(snippet, width)
  }

  /// Whether the editor's rows are the wrapped body (a window of it, if it scrolled).
  private static func editorShows(_ body: String, _ screen: NotesScreen) -> Bool {
    var expected = Columns.wrapped(body, width: screen.editorWidth - 2)
    while expected.last?.isEmpty == true { expected.removeLast() }
    let shown = screen.editorLines
    guard shown.count <= expected.count else { return false }
    return (0...(expected.count - shown.count)).contains { start in
      Array(expected[start..<(start + shown.count)]) == shown
    }
  }

  /// Records an issue for each disagreement within the screen and, given a library, with it.
  ///
  /// - Parameters:
  ///   - screen: The screen.
  ///   - library: The database, read while the screen showed, if it was read.
  ///   - context: What the test did last (and the seed, for random input).
  ///   - sourceLocation: Where issues are recorded.
  /// - Returns: Whether everything agreed.
  @discardableResult
  static func expect(
    _ screen: NotesScreen, _ library: Library?, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let problems =
      disagreements(in: screen) + (library.map { disagreements(in: screen, with: $0) } ?? [])
    let database = library?.description ?? "(not read)"
    for problem in problems {
      Issue.record(
        "\(context): \(problem).\nThe screen:\n\(screen)\nThe database:\n\(database)",
        sourceLocation: sourceLocation)
    }
    return problems.isEmpty
  }
}

extension NotesScreen.ListEntry {
  /// The two lines as shown, for comparing with the database and for messages.
  var rendered: String { (isPinned ? "★ " : "") + title + " / " + snippet }
}
