import Airframe
import AirframeTesting
import Foundation
import NotesApp
import NotesCore
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
