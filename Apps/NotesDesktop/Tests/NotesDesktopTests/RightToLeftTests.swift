// Titles in Arabic and Hebrew inside the window's own text: every label that puts a title
// or a note's first line beside the app's words, a count or another title isolates it
// (U+2068 … U+2069), so the right-to-left text cannot take them into its run, and a line
// that starts with one starts with a left-to-right mark (U+200E), so it reads left to right
// as the window's words do.

import Airframe
import Foundation
import NotesCore
import NotesHost
import NotesPresentation
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct RightToLeftTests {
  /// Arabic for "my notebook"; Hebrew for "shopping list" and "hello world".
  static let notebook = "دفتري"
  static let note = "רשימת קניות"
  static let firstLine = "שלום עולם"

  @Test func rightToLeftTitlesAreIsolatedInEveryComposedLabel() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let library = try NotesLibrary.open(path: desktop.database, samples: .never)
    let imported = library.session.notesImported(
      ImportNotes(
        notebooks: [.init(key: 1, title: Self.notebook, created: nil, label: "notebook")],
        notes: [
          .init(
            notebook: 1, title: Self.note, body: Self.firstLine + "\n2", created: nil,
            modified: nil, isPinned: true, label: "note")
        ],
        now: Date()))
    library.close()
    try #require(imported.isCommitted, "\(imported)")

    try desktop.launch()
    let tree = try #require(
      await desktop.waitForTree("the note and its preview") { tree in
        tree.first("list", named: "Notes")?.rowTexts.first?.contains("\n") == true
      })
    // The sidebar: the count stays apart from the notebook's title.
    #expect(
      tree.first("list", named: "Notebooks")?.rowLabels == [
        "All notes  1", "\u{200E}\u{2068}\(Self.notebook)\u{2069}  1", "Recently Deleted  0",
      ])
    // The note's row: its title after the pin's star, its first line before the counts.
    #expect(
      tree.first("list", named: "Notes")?.rowTexts == [
        "\u{200E}★ \u{2068}\(Self.note)\u{2069}\n"
          + "\u{200E}\u{2068}\(Self.firstLine)\u{2069} · 2 lines, 3 words"
      ])
    // The window's title and its header: each title apart from the other and the dash.
    let title = "\u{200E}\u{2068}\(Self.notebook)\u{2069} — \u{2068}\(Self.note)\u{2069}"
    #expect(tree.first("frame")?.name == title)
    #expect(tree.all.contains { $0.role == "label" && $0.name == title })
    if let picture = ProcessInfo.processInfo.environment["NOTES_DESKTOP_RTL_SCREENSHOT"] {
      try desktop.screenshot(to: picture)
    }

    // The status bar's message quoting the deleted note's title.
    try desktop.focusMainWindow()
    try desktop.press("ctrl+Delete")
    _ = try #require(
      await desktop.waitForTree("the deletion's message") { tree in
        tree.all.contains {
          $0.role == "label"
            && $0.name.hasSuffix(" · Deleted “\u{2068}\(Self.note)\u{2069}” — Ctrl+Z to undo")
        }
      })
    #expect(
      desktop.toolkitWarnings.isEmpty,
      "GTK warned:\n\(desktop.toolkitWarnings.joined(separator: "\n"))")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
    // Nothing stored holds a mark.
    let state = try desktop.state()
    #expect(state.notebooks.elements.map(\.title) == [Self.notebook])
  }
}
