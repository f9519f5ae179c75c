// The note open in the window deleted by another process: the window keeps it on show,
// read-only, says so, and the keys typed next reach no note; choosing a note moves on.

import Airframe
import Foundation
import NotesCore
import NotesHost
import NotesPresentation
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct DeletedElsewhereTests {
  @Test func aNoteDeletedElsewhereStaysOnShowAndTakesNoKeys() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let opened = try await desktop.launchOnSamples()
    try desktop.focusMainWindow()
    try desktop.click(try #require(opened.first("text", named: "Note text")))
    let welcome = try #require(opened.first("text", named: "Note text")?.text)

    // Another process deletes the open note.
    let other = try NotesLibrary.open(path: desktop.database, samples: .never)
    let row = try #require(other.session.list.rows.first { $0.title == "Welcome to Notes" })
    #expect(other.session.noteSelected(row.id))
    #expect(other.session.noteDeleted().isCommitted)
    other.close()
    let shown = try #require(
      await desktop.waitForTree("the deletion, said") { tree in
        tree.all.contains { $0.role == "label" && $0.name.contains("was deleted elsewhere.") }
      })
    let text = try #require(shown.first("text", named: "Note text"))
    #expect(text.text == welcome, "the deleted note's text stays on show")
    #expect(!text.states.contains("editable"))
    #expect(shown.first("list", named: "Notes")?.selectedRow == nil)
    let notes = try desktop.notes()

    // Keys typed now reach no note.
    try desktop.type("typed after the deletion")
    try await Task.sleep(for: .milliseconds(500))
    #expect(try desktop.notes() == notes, "a key reached a note")

    // Choosing a note opens it, editable.
    let list = try #require(try desktop.tree().first("list", named: "Notes"))
    try desktop.click(try #require(list.children?.first { $0.role == "list item" }))
    _ = try #require(
      await desktop.waitForTree("a chosen note") {
        $0.first("list", named: "Notes")?.selectedRow != nil
          && $0.first("text", named: "Note text")?.states.contains("editable") == true
      })

    let report = try await desktop.quit()
    #expect(report.forwarded.bodyEdits == 0, "a key reached the session as an edit")
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
