import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTerminalUI
import Testing

@testable import NotesPresentation

/// Small windows and long content: the selection stays in view at every size, reasons are
/// cut only at a word, and long text shows the part that matters.
@Suite(.noLiveBindings)
@MainActor
struct SmallWindowTests {
  /// The rows of `screen` drawn reversed from `column` on (a highlighted line).
  func reversedText(_ screen: ScreenBuffer) -> [String] {
    (0..<screen.height).compactMap { row in
      let cells = (0..<screen.width).filter { screen[row, $0].style.contains(.reverse) }
      guard cells.count > 2, cells.count < screen.width else { return nil }
      return cells.map { screen[row, $0].glyph }.joined()
    }
  }

  @Test(arguments: [(60, 15), (40, 10), (45, 12), (100, 30)])
  func thePaletteScrollsToKeepTheSelectionInView(width: Int, height: Int) {
    let app = makeApp()
    app.press(.character(":"))
    let names = app.session.commandMenu.rows.value.map(\.name)
    for index in names.indices {
      let screen = app.render(width: width, height: height)
      #expect(
        reversedText(screen).contains { $0.contains(names[index]) },
        "\(names[index]) is not in view at \(width) × \(height): \(screen.lines)")
      app.press(.down)
    }
    // Enter runs the command in view: the last one, Quit.
    app.press(.enter)
    #expect(app.isFinished)
    app.shutdown()
  }

  @Test(arguments: [(60, 15), (40, 10)])
  func paletteReasonsAreCutOnlyAtAWord(width: Int, height: Int) {
    let app = makeApp()
    app.press(.tab, .tab)  // the sidebar, "All notes": no notebook selected
    app.press(.character(":"))
    let rows = app.session.commandMenu.rows.value
    let reasons = rows.compactMap(\.availability.reason)
    #expect(!reasons.isEmpty)
    let words = Set(reasons.flatMap { $0.split(separator: " ").map(String.init) })
    for _ in rows {
      for line in app.screen(width: width, height: height).dropFirst() {
        guard let dash = line.range(of: "— ") else { continue }
        let shown = line[dash.upperBound...].prefix { $0 != "│" && $0 != "▲" && $0 != "▼" }
          .trimmingCharacters(in: .whitespaces)
        if reasons.contains(shown) { continue }
        #expect(shown.hasSuffix("…"), "\(line)")
        let lastWord = shown.dropLast().split(separator: " ").last.map(String.init) ?? ""
        #expect(words.contains(lastWord), "cut mid-word: \(line)")
      }
      app.press(.down)
    }
    app.shutdown()
  }

  @Test func theTooSmallMessageFitsAt20By5() {
    let app = makeApp()
    let lines = app.screen(width: 20, height: 5).map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(
      lines.filter { !$0.isEmpty }.joined(separator: " ")
        == "Notes needs at least 40 × 10; this terminal is 20 × 5.")
    app.shutdown()
  }

  @Test func aLongNoteShowsItsStartUntilItIsEdited() {
    let samples = SampleLibrary.state(now: fixedDate)
    var notes = samples.notes.elements.sorted { $0.id < $1.id }
    notes[0].body = (1...100).map { "line \($0)" }.joined(separator: "\n")
    let app = makeApp(state: NotesState(notebooks: Array(samples.notebooks.elements), notes: notes))
    #expect(app.screen()[2].contains("│ line 1 "))
    #expect(!app.screen().contains { $0.contains("line 100") })
    app.press(.enter)  // editing: the cursor is at the end
    #expect(app.screen().contains { $0.contains("│ line 100") })
    app.press(.escape)
    #expect(app.screen()[2].contains("│ line 1 "))
    app.shutdown()
  }

  @Test func aLongRenameShowsItsEndWhereTheCursorIs() {
    let app = makeApp()
    app.press(.character("r"), .control("u"))
    app.type(String(repeating: "a", count: 60) + "END")
    #expect(app.screen()[2].contains("│ …aaaa"))
    #expect(app.screen()[2].contains("aaaaEND▏ │"))
    app.shutdown()
  }

  @Test func theSidebarKeepsTheSelectionInViewInAShortWindow() {
    let notebooks = (1...30).map {
      Notebook(id: NotebookID(rawValue: Int64($0)), title: "Book \(100 + $0)", created: fixedDate)
    }
    let app = makeApp(state: NotesState(notebooks: notebooks, notes: []))
    app.press(.backTab)
    for index in 1...30 {
      app.press(.down)
      let screen = app.render(width: 40, height: 10)
      #expect(
        reversedText(screen).contains { $0.contains("Book \(100 + index)") },
        "Book \(100 + index): \(screen.lines)")
    }
    app.shutdown()
  }

  /// The lines inside the box drawn over `screen` (the help screen), without its borders
  /// and scroll marks, trimmed.
  func boxLines(_ screen: ScreenBuffer) -> [String] {
    func glyphs(_ row: Int, _ columns: Range<Int>) -> String {
      columns.map { screen[row, $0].glyph }.joined()
    }
    for top in 0..<screen.height {
      guard let left = (0..<screen.width).first(where: { screen[top, $0].glyph == "┌" }),
        let right = (left..<screen.width).first(where: { screen[top, $0].glyph == "┐" })
      else { continue }
      let rows = (top + 1..<screen.height).prefix { screen[$0, left].glyph == "│" }
      return rows.map {
        glyphs($0, left + 1..<right).trimmingCharacters(in: .whitespaces)
      }
    }
    return []
  }

  @Test(arguments: [(60, 15), (40, 10), (45, 12)])
  func theHelpScreenScrollsToEveryBindingInASmallWindow(width: Int, height: Int) {
    let app = makeApp()
    _ = app.render(width: width, height: height)  // the size the keys are read at
    app.press(.character("?"))
    let firstBuffer = app.render(width: width, height: height)
    let first = firstBuffer.lines
    #expect(first.contains { $0.contains("Keys (↑↓ scroll, Esc closes)") }, "\(first)")
    #expect(first.contains { $0.contains("▼") })
    #expect(!first.contains { $0.contains(KeyBindings.all.last!.keys) })
    // Down to the end, a line at a time: every binding's keys and action show on the way.
    var lines = boxLines(firstBuffer)
    var shown = lines
    for _ in 0..<60 {
      app.press(.down)
      let next = boxLines(app.render(width: width, height: height))
      #expect(next.count == lines.count)
      if next != lines {
        #expect(Array(next.dropLast()) == Array(lines.dropFirst()))
        shown.append(next.last!)
      }
      lines = next
    }
    #expect(app.interaction == .help)
    let text = shown.joined(separator: " ")
    for binding in KeyBindings.all {
      #expect(
        shown.contains { $0.hasPrefix(binding.keys) }, "\(binding.keys) at \(width) × \(height)")
      #expect(text.contains(binding.action), "\(binding.action): \(shown)")
    }
    #expect(!text.contains("…"))
    // The end stays the end; PgUp and Home go back up; Esc closes.
    let last = app.screen(width: width, height: height)
    #expect(last.contains { $0.contains("▲") } && !last.contains { $0.contains("▼") })
    app.press(.pageDown, .end)
    #expect(app.screen(width: width, height: height) == last)
    app.press(.pageUp, .home)
    #expect(app.screen(width: width, height: height) == first)
    app.press(.escape)
    #expect(app.interaction == .browsing)
    app.shutdown()
  }

  @Test func theHelpScreenThatFitsClosesOnAnyKey() {
    let app = makeApp()
    _ = app.render(width: 100, height: 30)
    app.press(.character("?"))
    let screen = app.render(width: 100, height: 30)
    #expect(screen.lines.contains { $0.contains("Keys (any key closes)") })
    #expect(!screen.lines.contains { $0.contains("▼") })
    #expect(boxLines(screen).count == KeyBindings.all.count)
    app.press(.down)
    #expect(app.interaction == .browsing)
    app.shutdown()
  }

  /// A notebook's name never runs into its count: a long name is cut with "…" and a blank
  /// column is left before the count.
  @Test(arguments: [40, 50, 60, 80, 140])
  func aLongNotebookNameStaysApartFromItsCount(width: Int) throws {
    let book = Notebook(
      id: NotebookID(rawValue: 1), title: "Notebook with a long name", created: fixedDate)
    let short = Notebook(id: NotebookID(rawValue: 2), title: "Bo", created: fixedDate)
    let notes = (1...1_234).map {
      Note(
        id: NoteID(rawValue: Int64(10 + $0)), notebookID: book.id, title: "N\($0)",
        created: fixedDate)
    }
    let app = makeApp(state: NotesState(notebooks: [book, short], notes: notes))
    // The sidebar is what comes before the rule that ends it.
    let rows = app.screen(width: width, height: 12).map { String($0.prefix { $0 != "│" }) }
    print("ROWS", width, rows.map { "[\($0)]" })
    for (name, count) in [("All notes", 1_234), (book.title, 1_234), (short.title, 0)] {
      let row = try #require(
        rows.first { $0.hasSuffix(" \(count) ") && $0.dropFirst().hasPrefix(name.prefix(2)) },
        "\(name) at \(width): \(rows)")
      let shown = row.dropFirst().dropLast(" \(count) ".count).trimmingCharacters(in: .whitespaces)
      if shown != name {
        #expect(shown.hasSuffix("…") && name.hasPrefix(shown.dropLast()), "\(row)")
      }
    }
    app.shutdown()
  }
}

/// The list keeps a selection whenever it has rows.
@Suite(.noLiveBindings)
@MainActor
struct ListSelectionTests {
  @Test func rowsThatComeBackAfterASearchWithNoMatchGetASelection() {
    let app = makeApp()
    app.press(.character("/"))
    app.type("zzzz")
    #expect(app.session.noteList.lens.count == 0)
    #expect(app.session.noteList.lens.selection.value == nil)
    app.press(.escape)
    #expect(app.session.noteList.lens.count == 6)
    #expect(app.session.noteList.lens.selection.value != nil)
    app.press(.enter)
    #expect(app.focus == .editor)
    app.shutdown()
  }
}
