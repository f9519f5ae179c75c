import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTerminalUI
import Testing

@Suite(.noLiveBindings)
@MainActor
struct RenderTests {
  @Test func firstScreenShowsEveryPane() {
    let app = makeApp()
    let lines = app.screen()
    #expect(lines.count == 24)
    #expect(lines[0].hasPrefix(" Work — Welcome to Notes"))
    #expect(lines[0].hasSuffix("? help "))
    #expect(lines[1].hasPrefix(" NOTEBOOKS"))
    #expect(lines[1].contains("NOTES 6 · by date"))
    #expect(lines[1].contains("│ Welcome to Notes"))
    #expect(lines[2].hasPrefix(" All notes        6 │ ★ Welcome to Notes"))
    // The editor wraps the body at its width.
    #expect(lines[2].hasSuffix("│ Notes keeps notebooks and notes in one SQLite  "))
    #expect(lines[3].contains("│ file."))
    #expect(lines[3].hasPrefix(" Home             2 │"))
    #expect(lines[22].contains("? help · q quit"))
    #expect(lines[23] == padded(" 3 notebooks · 6 notes · Not synced", 100))
    app.expectPanesAgree()
    app.shutdown()
  }

  @Test func everyRowIsExactlyTheScreenWidthWithWideCharacters() {
    let samples = SampleLibrary.state(now: fixedDate)
    var notes = samples.notes.elements.sorted { $0.id < $1.id }
    notes[0].title = "三体 · 🎉 notes"
    notes[0].body = "漢字かな交じり文 and ASCII\n二行目"
    let state = NotesState(notebooks: Array(samples.notebooks.elements), notes: notes)
    let app = makeApp(state: state)
    let screen = app.render(width: 90, height: 20)
    for row in 0..<screen.height {
      #expect(screen.line(row).displayWidth == 90, "row \(row): \(screen.line(row))")
    }
    // The rules between panes are in the same columns on every pane row.
    let ruleColumns = (1..<18).map { row in
      screen.rows[row].indices.filter { screen.rows[row][$0].glyph == "│" }
    }
    #expect(Set(ruleColumns).count == 1)
    #expect(screen.line(0).hasPrefix(" Work — 三体 · 🎉 notes"))
    #expect(screen.lines.contains { $0.contains("漢字かな交じり文 and ASCII") })
    app.shutdown()
  }

  @Test func controlCharactersNeverReachTheScreen() {
    var buffer = ScreenBuffer(width: 20, height: 1)
    buffer.write("a\u{1B}[2J\u{7}b", row: 0, column: 0)
    #expect(buffer.line(0) == padded("a\u{FFFD}[2J\u{FFFD}b", 20))
    #expect(!buffer.line(0).contains("\u{1B}"))
  }

  @Test func asciiFollowedByACombiningMarkIsOneCharacter() {
    var buffer = ScreenBuffer(width: 6, height: 1)
    #expect(buffer.write("cafe\u{301}!", row: 0, column: 0) == 5)
    #expect(buffer.line(0) == "café! ")
  }

  @Test func wideCharacterAtTheEdgeBecomesASpace() {
    var buffer = ScreenBuffer(width: 5, height: 1)
    let written = buffer.write("ab漢字", row: 0, column: 0)
    #expect(written == 5)
    #expect(buffer.line(0) == "ab漢 ")
    #expect(buffer.rows[0][3].glyph == "")
    #expect(buffer[0, 2].glyph == "漢" && buffer[0, 3].glyph == "")
  }

  @Test func writesOutsideTheBufferAreClipped() {
    var buffer = ScreenBuffer(width: 4, height: 2)
    #expect(buffer.write("x", row: 5, column: 0) == 0)
    #expect(buffer.write("x", row: 0, column: -1) == 0)
    #expect(buffer.write("abcdef", row: 1, column: 2) == 2)
    #expect(buffer.lines == ["    ", "  ab"])
  }

  @Test func tooSmallATerminalSaysSo() {
    let app = makeApp()
    let lines = app.screen(width: 30, height: 8)
    #expect(lines[0].hasPrefix("Notes needs at least 40 × 10"))
    app.shutdown()
  }

  @Test func longListsScrollToKeepTheSelectionVisible() {
    let notes = (0..<100).map { index in
      Note(
        id: NoteID(rawValue: Int64(index + 2)), notebookID: NotebookID(rawValue: 1),
        title: "Note \(index)", created: fixedDate.addingTimeInterval(Double(-index)))
    }
    let state = NotesState(
      notebooks: [Notebook(id: NotebookID(rawValue: 1), title: "All", created: fixedDate)],
      notes: notes)
    let app = makeApp(state: state)
    app.press(.end)
    let lines = app.screen()
    #expect(lines.contains { $0.contains("│ Note 99") })
    #expect(!lines.contains { $0.contains("│ Note 0 ") })
    app.press(.home)
    #expect(app.screen().contains { $0.contains("│ Note 0 ") })
    app.shutdown()
  }
}

/// `text` padded with spaces to `width` columns.
func padded(_ text: String, _ width: Int) -> String {
  text + String(repeating: " ", count: max(0, width - text.displayWidth))
}
