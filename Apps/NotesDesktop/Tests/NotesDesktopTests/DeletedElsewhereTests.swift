// The note open in the window deleted by another process: the window keeps it on show,
// read-only, says so, and the keys typed next reach no note; Keep Deleted Note brings its
// text back as a new note.

import Airframe
import Foundation
import NotesCore
import NotesHost
import NotesPresentation
import NotesTestSupport
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
        tree.all.contains { $0.role == "label" && $0.name.contains("was deleted elsewhere") }
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

    // Keep Deleted Note, from the palette: the text comes back as a new note, open and
    // editable, the keyboard in it.
    try desktop.press("ctrl+k")
    try desktop.focus(windowTitled: "Commands")
    try desktop.type("keep deleted")
    try desktop.press("Return")
    let kept = try #require(
      await desktop.waitForTree("the kept note") {
        $0.first("list", named: "Notes")?.selectedRow == noteRow("Welcome to Notes")
          && $0.first("text", named: "Note text")?.states.contains("editable") == true
      })
    #expect(kept.first("text", named: "Note text")?.text == welcome)
    #expect(try desktop.notes().contains { $0.title == "Welcome to Notes" && $0.body == welcome })

    let report = try await desktop.quit()
    #expect(report.forwarded.bodyEdits == 0, "a key reached the session as an edit")
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }

  @Test func aNoteDeletedByTheCommandLineReachesTheMenuBar() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let opened = try await desktop.launchOnSamples()
    try desktop.focusMainWindow()
    typealias Item = DesktopSession.MenuItem
    let before = try await desktop.menuItems("Note")
    #expect(before.item("Delete Note") == Item(label: "Delete Note", isEnabled: true))
    #expect(
      before.item("Keep Deleted Note")
        == Item(label: "Keep Deleted Note — The open note was not deleted.", isEnabled: false))

    // `notes delete` deletes the note the window shows, while the keyboard is in its text.
    try desktop.click(try #require(opened.first("text", named: "Note text")))
    let welcome = try #require(try desktop.notes().first { $0.title == "Welcome to Notes" })
    #expect(
      opened.first("list", named: "Notes")?.selectedRow == noteRow("Welcome to Notes", pinned: true)
    )
    let notes = try #require(DesktopSession.builtProgram("notes"), "notes is not built")
    let deleted = try Programs.run(
      notes, ["delete", String(welcome.id.rawValue), "--database", desktop.database],
      environment: Programs.environment(home: desktop.folder), folder: desktop.folder)
    #expect(deleted.status == 0, "\(deleted.errors)")
    _ = try #require(
      await desktop.waitForTree("the deletion, said") { tree in
        tree.all.contains { $0.role == "label" && $0.name.contains("was deleted elsewhere") }
          && tree.first("list", named: "Notes")?.rowLabels.count == 5
      })

    // Every menu agrees with what the window can do now: no note is selected (to rename,
    // move, pin or delete), no notebook either ("All notes"), the open note can be kept and
    // is in Recently Deleted, and this window has taken no step to undo.
    var menus: [String: [String]] = [:]
    for title in ["Note", "Notebook", "Edit", "View", "Library", "Window"] {
      menus[title] = try await desktop.menuItems(title).map(\.description)
    }
    let note = "Select a note first."
    let notebook = "Select a notebook first."
    let expected: [String: [String]] = [
      "Note": [
        "New Note", "Rename Note — \(note) [disabled]", "Move Note — \(note) [disabled]",
        "Pin or Unpin Note — \(note) [disabled]", "Delete Note — \(note) [disabled]",
        "Keep Deleted Note", "Recently Deleted…", "Note History… — \(note) [disabled]",
      ],
      "Notebook": [
        "New Notebook", "Rename Notebook — \(notebook) [disabled]",
        "Delete Notebook — \(notebook) [disabled]",
      ],
      "Edit": [
        "Undo — Nothing to undo. [disabled]", "Redo — Nothing to redo. [disabled]",
        "Rename Note — \(note) [disabled]", "Delete Note — \(note) [disabled]", "Search",
      ],
      "View": ["Sort by Title or Date", "Command Palette", "Help"],
      "Library": ["Sync Now", "Import…", "Export…"],
      "Window": ["New Window", "Close Window", "Quit"],
    ]
    for (title, items) in expected.sorted(by: { $0.key < $1.key }) {
      #expect(menus[title] == items, "the \(title) menu")
    }

    #expect(
      desktop.toolkitWarnings.isEmpty,
      "GTK warned:\n\(desktop.toolkitWarnings.joined(separator: "\n"))")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
