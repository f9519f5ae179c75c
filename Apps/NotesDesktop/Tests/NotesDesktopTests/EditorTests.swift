// The editor rendered without disturbing the user: another writer changes the open note
// while the user has a word selected far down in it; the text view takes the change in
// place — the selection, the caret and the scroll position stay on the user's text. And
// typing into a note taller than the view draws it without a GTK warning.

import Airframe
import Foundation
import NotesCore
import NotesHost
import NotesPresentation
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct EditorTests {
  static let lines = (1...300).map { "Line \($0): the quick brown fox jumps over the lazy dog." }

  @Test func aChangeFromElsewhereKeepsTheSelectionTheCaretAndTheView() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let body = Self.lines.joined(separator: "\n")
    let library = try NotesLibrary.open(path: desktop.database, samples: .never)
    #expect(library.session.notebookCreated(titled: "Long").isCommitted)
    #expect(library.session.noteCreated(titled: "Essay").isCommitted)
    #expect(library.session.bodyTyped(body).isCommitted)
    library.close()

    try desktop.launch()
    let opened = try #require(
      await desktop.waitForTree("the essay") { $0.first("text", named: "Note text")?.text == body })
    // The caret at the start of line 150 (as assistive technology puts it), then a word
    // selected with the keyboard, which scrolls the view to it.
    let lineStart = Self.lines.prefix(149).reduce(0) { $0 + $1.unicodeScalars.count + 1 }
    try desktop.click(try #require(opened.first("text", named: "Note text")))
    _ = try desktop.tree(["--caret", "Note text", "\(lineStart)"])
    try desktop.press("shift+ctrl+Right")
    let selected = try #require(
      await desktop.waitForTree("the word selected") {
        $0.first("text", named: "Note text")?.selection == [lineStart, lineStart + 4]
      })
    let before = try #require(selected.first("text", named: "Note text"))
    let caret = try #require(before.caret)
    let caretY = try #require(before.caretFrame?[1])

    // Another writer: two lines added at the top, the first line edited, the last one too.
    var changed = Self.lines
    changed[0] = "Line 1, edited elsewhere."
    changed[299] += " The end."
    changed.insert(contentsOf: ["A new first line.", "And a second."], at: 0)
    let newBody = changed.joined(separator: "\n")
    let shift = newBody.unicodeScalars.count - body.unicodeScalars.count - " The end.".count
    let other = try NotesLibrary.open(path: desktop.database, samples: .never)
    let essay = try #require(other.session.list.rows.first { $0.title == "Essay" })
    #expect(other.session.noteSelected(essay.id))
    #expect(other.session.bodyTyped(newBody).isCommitted)
    other.close()

    let after = try #require(
      await desktop.waitForTree("the other writer's change") {
        $0.first("text", named: "Note text")?.text == newBody
      })
    let text = try #require(after.first("text", named: "Note text"))
    #expect(text.selection == [lineStart + shift, lineStart + 4 + shift], "the selection moved")
    #expect(text.caret == caret + shift, "the caret left the user's text")
    #expect(text.caretFrame?[1] == caretY, "the view scrolled")

    let report = try await desktop.quit()
    #expect(report.forwarded.bodyEdits == 0, "a render reached the session as typing")
    #expect(report.droppedEchoes > 0)
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }

  @Test func typingIntoANoteTallerThanTheViewLogsNoWarning() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let body = (1...2_000).map { "Paragraph \($0) of the long note, with some words." }
      .joined(separator: "\n")
    let library = try NotesLibrary.open(path: desktop.database, samples: .never)
    #expect(library.session.notebookCreated(titled: "Long").isCommitted)
    #expect(library.session.noteCreated(titled: "Essay").isCommitted)
    #expect(library.session.bodyTyped(body).isCommitted)
    library.close()

    try desktop.launch()
    let opened = try #require(
      await desktop.waitForTree("the essay") { $0.first("text", named: "Note text")?.text == body })
    // Keys typed quickly at the end: each one lengthens the last line and the view follows.
    try desktop.click(try #require(opened.first("text", named: "Note text")))
    try desktop.press("ctrl+End")
    _ = try #require(
      await desktop.waitForTree("the caret at the end") {
        $0.first("text", named: "Note text")?.caret == body.unicodeScalars.count
      })
    let typed = "The quick brown fox jumps over the lazy dog 0123456789."
    try desktop.xdotool(["type", "--delay", "1", typed])
    _ = try #require(
      await desktop.waitForTree("every key typed") {
        $0.first("text", named: "Note text")?.text == body + typed
      })
    #expect(
      desktop.toolkitWarnings.isEmpty,
      "GTK warned:\n\(desktop.toolkitWarnings.joined(separator: "\n"))")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
