// A library of 100,000 notes in the window: the list opens on it, scrolls to its end and
// back, and a burst of typing at full speed in a long note reaches the file key for key, in
// order. (How long each step takes is the benchmark's business: notes-desktop-bench.)

import Airframe
import Foundation
import NotesCore
import NotesHost
import NotesPresentation
import Testing

@Suite(.serialized, .timeLimit(.minutes(5)))
@MainActor
struct LargeLibraryTests {
  static let count = 100_000
  static let longBody = (1...2_000).map { "Paragraph \($0) of the long note, with some words." }
    .joined(separator: "\n")

  @Test func aHundredThousandNotesScrollAndABurstOfTypingLosesNothing() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let library = try NotesLibrary.open(path: desktop.database, samples: .never)
    var notes = (0..<Self.count).map { number in
      ImportNotes.NoteItem(
        notebook: 1, title: "Note \(number)", body: "Body of note \(number).", created: nil,
        modified: Date(timeIntervalSince1970: Double(1_000_000 + number)), isPinned: false,
        label: "note \(number)")
    }
    notes.append(
      .init(
        notebook: 1, title: "Long note", body: Self.longBody, created: nil,
        modified: Date(timeIntervalSince1970: 0), isPinned: true, label: "long"))
    let imported = library.session.notesImported(
      ImportNotes(
        notebooks: [.init(key: 1, title: "Many", created: nil, label: "Many")], notes: notes,
        now: Date()))
    library.close()
    try #require(imported.isCommitted, "\(imported)")

    try desktop.launch()
    let opened = try #require(
      await desktop.waitForTree("the library", timeout: .seconds(60)) {
        $0.first("list", named: "Notebooks")?.rowLabels.first == "All notes  \(Self.count + 1)"
          && $0.first("list", named: "Notes")?.selectedRow == noteRow("Long note", pinned: true)
      })
    #expect(
      opened.first("list", named: "Notes")?.rowLabels.prefix(3) == [
        noteRow("Long note", pinned: true), noteRow("Note \(Self.count - 1)"),
        noteRow("Note \(Self.count - 2)"),
      ])

    // To the end of the list and back, with the keyboard: the selection follows, and the
    // editor shows each note it lands on.
    let list = try #require(opened.first("list", named: "Notes"))
    try desktop.click(try #require(list.children?.dropFirst().first { $0.role == "list item" }))
    try desktop.press("End")
    let end = try #require(
      await desktop.waitForTree("the end of the list", timeout: .seconds(30)) {
        $0.first("list", named: "Notes")?.selectedRow == noteRow("Note 0")
      })
    #expect(end.first("text", named: "Note text")?.text == "Body of note 0.")
    #expect(end.first("list", named: "Notes")?.rowLabels.last == noteRow("Note 0"))
    try desktop.press("Home")
    let top = try #require(
      await desktop.waitForTree("the top of the list", timeout: .seconds(30)) {
        $0.first("list", named: "Notes")?.selectedRow == noteRow("Long note", pinned: true)
      })

    // A burst of typing at the end of the long note, one key a millisecond.
    try desktop.click(try #require(top.first("text", named: "Note text")))
    try desktop.press("ctrl+End")
    let typed = "The quick brown fox jumps over the lazy dog 0123456789."
    try desktop.xdotool(["type", "--delay", "1", typed])
    _ = try #require(
      await desktop.waitForTree("every key typed", timeout: .seconds(60)) {
        $0.first("text", named: "Note text")?.text == Self.longBody + typed
      })
    let report = try await desktop.quit()
    let stored = try #require(try desktop.notes().first { $0.title == "Long note" })
    #expect(
      stored.body == Self.longBody + typed, "a key was lost or reordered on its way to the file")
    #expect(report.forwarded.bodyEdits == typed.count)
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
