import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTerminalUI
import Testing

@testable import NotesPresentation

/// Text a user wrote is isolated (U+2068 … U+2069) where it shares a row with the app's
/// text; the marks take no column, reach the terminal only in pairs, and never shift a row.
@Suite(.noLiveBindings)
@MainActor
struct IsolationRenderTests {
  static let first = "\u{2068}"
  static let pop = "\u{2069}"
  /// Arabic for "my notebook", Hebrew for "shopping list 2".
  static let notebook = "دفتري"
  static let note = "רשימת קניות 2"

  @Test func theMarksTakeNoColumnAndAreSentAroundWhatTheyEnclose() {
    #expect(Character(Self.first).displayWidth == 0 && Character(Self.pop).displayWidth == 0)
    #expect((Self.first + "abc" + Self.pop).displayWidth == 3)
    var buffer = ScreenBuffer(width: 8, height: 1)
    #expect(buffer.write("a" + Self.first + "bc" + Self.pop + "d", row: 0, column: 0) == 4)
    #expect(buffer.line(0) == "abcd    ")
    #expect(buffer.terminalLine(0) == "a\(Self.first)bc\(Self.pop)d    ")
    #expect(buffer[0, 1].isolationsOpened == 1 && buffer[0, 2].isolationsClosed == 1)
  }

  @Test func aWriteSendsOnlyMarksThatPairUpInItsRow() {
    // Clipped: what the write opened closes on the last cell it drew.
    var clipped = ScreenBuffer(width: 6, height: 1)
    clipped.write(Self.first + "abcdef" + Self.pop, row: 0, column: 0, limit: 3)
    #expect(clipped.terminalLine(0) == "\(Self.first)abc\(Self.pop)   ")
    // A pop that closes nothing the write opened, and an isolate around nothing drawn.
    var stray = ScreenBuffer(width: 4, height: 1)
    stray.write("a" + Self.pop + "b" + Self.first + Self.pop + "c" + Self.first, row: 0, column: 0)
    #expect(stray.terminalLine(0) == "abc ")
    // Text drawn over the closing mark's cell: the opening one is not sent either.
    var covered = ScreenBuffer(width: 6, height: 1)
    covered.write(Self.first + "abcdef" + Self.pop, row: 0, column: 0)
    covered.write("XY", row: 0, column: 4)
    #expect(covered.terminalLine(0) == "abcdXY")
    // A terminal narrower than the row: an isolate reaching past its edge is not sent.
    #expect(covered.terminalTexts(row: 0, columns: 3) == ["a", "b", "c"])
    var shown = ScreenBuffer(width: 6, height: 1)
    shown.write(Self.first + "ab" + Self.pop + "cdef", row: 0, column: 0)
    #expect(shown.terminalTexts(row: 0, columns: 3) == [Self.first + "a", "b" + Self.pop, "c"])
  }

  @Test func rightToLeftTitlesAreIsolatedInEveryRowAndKeepTheColumns() throws {
    let samples = SampleLibrary.state(now: fixedDate)
    var notebooks = samples.notebooks.elements.sorted { $0.id < $1.id }
    notebooks[0].title = Self.notebook
    var notes = samples.notes.elements.sorted { $0.id < $1.id }
    let index = notes.firstIndex { $0.notebookID == notebooks[0].id }!
    notes[index].title = Self.note
    let app = makeApp(state: NotesState(notebooks: notebooks, notes: notes))
    app.session.notebookSelected(notebooks[0].id)
    #expect(app.session.noteSelected(notes[index].id))
    let screen = app.render(width: 100, height: 24)
    let isolatedNotebook = Self.first + Self.notebook + Self.pop
    let isolatedNote = Self.first + Self.note + Self.pop

    // The title bar: each title isolated from the other and from the dash.
    #expect(screen.terminalLine(0).hasPrefix(" \(isolatedNotebook) — \(isolatedNote) "))
    #expect(screen.line(0).hasPrefix(" \(Self.notebook) — \(Self.note) "))
    // The sidebar: the title isolated from its count, which stays in the count column.
    let row = try #require((2..<22).first { screen.line($0).contains(Self.notebook + " ") })
    #expect(screen.terminalLine(row).hasPrefix(" \(isolatedNotebook) "))
    let rule = try #require((0..<screen.width).first { screen[row, $0].glyph == "│" })
    let count = notes.filter { $0.notebookID == notebooks[0].id }.count
    #expect(screen[row, rule - 2].glyph == String(count), "\(screen.line(row))")
    // The note list's title row and the editor's header.
    #expect(screen.lines.contains { $0.contains("│ \(Self.note) ") })
    #expect((0..<24).contains { screen.terminalLine($0).contains("│ \(isolatedNote) ") })
    // The rules between the panes are in the same columns on every row.
    let rules = (1..<22).map { row in (0..<screen.width).filter { screen[row, $0].glyph == "│" } }
    #expect(Set(rules).count == 1, "\(screen.lines)")

    // A message quoting the title, in the status bar.
    app.press(.character("d"))  // The list has the keyboard.
    let deleted = app.render(width: 100, height: 24)
    #expect(deleted.terminalLine(23).contains(" · Deleted “\(isolatedNote)” — u to undo"))
    #expect(deleted.line(23).contains(" · Deleted “\(Self.note)” — u to undo"))
    app.shutdown()
  }

  @Test func aStrayMarkInANoteIsNeverSentAlone() {
    let samples = SampleLibrary.state(now: fixedDate)
    var notes = samples.notes.elements.sorted { $0.id < $1.id }
    // The body may hold bidi controls (only titles refuse them): an unpaired isolate.
    notes[0].body = "start \(Self.first)open to the end\nnext"
    let app = makeApp(state: NotesState(notebooks: Array(samples.notebooks.elements), notes: notes))
    #expect(app.session.noteSelected(notes[0].id))
    let screen = app.render(width: 100, height: 24)
    for row in 0..<24 {
      let sent = screen.terminalLine(row).unicodeScalars
      let opened = sent.filter { $0 == "\u{2068}" }.count
      let closed = sent.filter { $0 == "\u{2069}" }.count
      #expect(opened == closed, "row \(row): \(screen.terminalLine(row).debugDescription)")
    }
    app.shutdown()
  }
}
