import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTerminalUI
import Testing

@testable import NotesPresentation

/// Widths follow grapheme clusters, and the terminal is sent only what draws at that width.
@Suite(.noLiveBindings)
@MainActor
struct UnicodeRenderTests {
  nonisolated static let clusters: [(text: String, width: Int, glyph: String)] = [
    ("👩‍👩‍👧", 2, "👩"),  // a zero-width-joiner sequence
    ("🇺🇸", 2, "🇺🇸"),  // a flag: a regional-indicator pair
    ("e\u{301}", 1, "e\u{301}"),  // a combining mark
    ("❤️", 1, "❤"),  // a variation selector, which terminals disagree on
    ("👍🏽", 2, "👍"),  // an emoji modifier
    ("1️⃣", 1, "1\u{20E3}"),  // a keycap
    ("漢", 2, "漢"),
    ("\u{202E}", 1, "\u{FFFD}"),  // bidi override
    ("\u{200B}", 1, "\u{FFFD}"),  // zero-width space
    ("\u{FEFF}", 1, "\u{FFFD}"),  // byte-order mark
    ("\u{FFFF}", 1, "\u{FFFD}"),  // noncharacter
    ("\u{1F1FA}", 1, "\u{FFFD}"),  // a lone regional indicator
    ("\u{1B}", 1, "\u{FFFD}"),
  ]

  @Test(arguments: 0..<clusters.count)
  func aClusterTakesItsBasesWidthAndIsSentAsItsBase(_ index: Int) {
    let (text, width, glyph) = Self.clusters[index]
    let character = Character(text)
    #expect(character.displayWidth == width, "\(text.debugDescription)")
    #expect(character.terminalGlyph == glyph, "\(text.debugDescription)")
    var buffer = ScreenBuffer(width: 6, height: 1)
    #expect(buffer.write("a" + text + "b", row: 0, column: 0) == width + 2)
    #expect(buffer[0, 1].glyph == glyph)
    #expect(buffer[0, 1 + width].glyph == "b")
  }

  @Test func rowsWithJoinedEmojiFlagsAndInvisiblesNeverShift() {
    let samples = SampleLibrary.state(now: fixedDate)
    var notes = samples.notes.elements.sorted { $0.id < $1.id }
    notes[0].title = "👩‍👩‍👧 family 🇺🇸 e\u{301} ❤️ 👍🏽"
    notes[0].body = "bidi \u{202E}abc\u{202C} zero\u{200B}width \u{FEFF} \u{FFFF} end\n👩‍👩‍👧🇺🇸"
    notes[1].title = "🇯🇵🇫🇷 flags"
    var notebooks = Array(samples.notebooks.elements)
    notebooks[0].title = "Fam 👩‍👩‍👧"
    let app = makeApp(state: NotesState(notebooks: notebooks, notes: notes))
    app.press(.tab, .tab, .tab)  // the editor shows the body wherever the focus is
    for step in 0..<4 {
      let screen = app.render(width: 90, height: 20)
      let ruleColumns = (1..<18).map { row in
        (0..<screen.width).filter { screen[row, $0].glyph == "│" }
      }
      #expect(Set(ruleColumns).count == 1, "step \(step): \(screen.lines)")
      for row in 0..<screen.height {
        var columns = 0
        for column in 0..<screen.width {
          let glyph = screen[row, column].glyph
          columns += glyph.isEmpty ? 0 : glyph.displayWidth
          // Nothing a terminal might draw at another width, or not at all, is sent.
          let sent = glyph.unicodeScalars.map(\.value)
          #expect(!sent.contains { [0x200D, 0xFE0F, 0x202E, 0x200B, 0xFEFF, 0xFFFF].contains($0) })
          #expect(!sent.contains { (0x1F3FB...0x1F3FF).contains($0) })
        }
        #expect(columns == 90, "row \(row): \(screen.line(row))")
      }
      app.press(.down)
    }
    app.shutdown()
  }

  @Test func ctrlLAsksForARepaintInEveryModeAndChangesNothingElse() {
    let app = makeApp()
    var repaints = 0
    app.onRepaint = { repaints += 1 }
    app.press(.control("l"))
    app.press(.enter, .control("l"))  // the editor
    let body = app.session.model.state.notes[NoteID(rawValue: 4)]?.body
    app.press(.escape, .character("N"), .control("l"))  // a prompt
    #expect(app.prompt?.text == "")
    app.press(.escape, .character(":"), .control("l"))  // the palette
    #expect(app.interaction == .palette(selected: 0))
    #expect(repaints == 4)
    #expect(app.session.model.state.notes[NoteID(rawValue: 4)]?.body == body)
    app.shutdown()
  }
}
