// Long titles and lines never make a window wider than its screen (Xvfb's, 1,280 pixels):
// the header's title and the status bar are cut with an ellipsis, the note's text and a
// dialog's message wrap.

import Airframe
import Foundation
import NotesCore
import NotesHost
import NotesPresentation
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct LongTextTests {
  /// The width of the test's screen (see `DesktopSession`).
  static let screenWidth = 1_280
  /// A title of 200 characters (the longest allowed) with spaces, ending in a word to find.
  static let spacedTitle = String(String(repeating: "Long title ", count: 19).prefix(195)) + " last"
  /// A title of 200 characters without a space.
  static let unbrokenTitle = String(repeating: "W", count: 199) + "z"
  /// A body whose first line has 3,000 characters without a space.
  static let unbrokenBody = String(repeating: "x", count: 3_000) + "\nsecond line"

  @Test func longTitlesAndLinesKeepTheWindowWithinTheScreen() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let library = try NotesLibrary.open(path: desktop.database, samples: .never)
    let imported = library.session.notesImported(
      ImportNotes(
        notebooks: [
          .init(key: 1, title: "Long", created: nil, label: "Long"),
          .init(key: 2, title: "Other", created: nil, label: "Other"),
        ],
        notes: [
          .init(
            notebook: 1, title: Self.spacedTitle, body: "short", created: nil,
            modified: Date(timeIntervalSince1970: 2_000), isPinned: true, label: "spaced"),
          .init(
            notebook: 1, title: Self.unbrokenTitle, body: Self.unbrokenBody, created: nil,
            modified: Date(timeIntervalSince1970: 1_000), isPinned: false, label: "unbroken"),
        ],
        now: Date()))
    library.close()
    try #require(imported.isCommitted, "\(imported)")
    #expect(Self.spacedTitle.count == 200 && Self.unbrokenTitle.count == 200)

    try desktop.launch()
    // The pinned note is open: its title is in the header.
    let opened = try #require(
      await desktop.waitForTree("the long title in the header") {
        $0.first("frame")?.name.hasSuffix(" last\u{2069}") == true
      })
    try expectWithinTheScreen(desktop, "with the long title open")

    // The title without a space, and the line without a space in the text.
    let list = try #require(opened.first("list", named: "Notes"))
    let row = try #require(list.children?.filter { $0.role == "list item" }.last)
    try desktop.click(row)
    _ = try #require(
      await desktop.waitForTree("the unbroken title and line") {
        $0.first("frame")?.name.hasSuffix("Wz\u{2069}") == true
          && $0.first("text", named: "Note text")?.text == Self.unbrokenBody
      })
    try expectWithinTheScreen(desktop, "with the unbroken title and line open")
    // A dialog that quotes the title fits the screen too.
    try desktop.focusMainWindow()
    try desktop.press("ctrl+m")
    _ = try #require(
      await desktop.waitForTree("the notebook picker") {
        $0.first("frame", named: "Move Note")?.all.contains {
          $0.role == "label" && $0.name.hasSuffix("Wz\u{2069}” to:")
        } == true
      })
    _ = try desktop.tree()
    let picker = try #require(try desktop.windowIDs(titled: "Move Note").first)
    let pickerSize = try desktop.windowSize(of: picker)
    #expect(
      pickerSize.width <= Self.screenWidth,
      "the notebook picker is \(pickerSize.width) pixels wide")
    try desktop.press("Escape")
    _ = try #require(
      await desktop.waitForTree("the picker closed") {
        $0.first("frame", named: "Move Note") == nil
      })

    // The status bar says which note was deleted, quoting its whole title.
    try desktop.focusMainWindow()
    try desktop.press("ctrl+Delete")
    _ = try #require(
      await desktop.waitForTree("the deletion in the status bar") { tree in
        tree.all.contains { $0.role == "label" && $0.name.contains("Deleted") }
      })
    try expectWithinTheScreen(desktop, "with the deletion in the status bar")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }

  /// Checks that the main window fits the screen, once GTK has laid out what the tree shows.
  private func expectWithinTheScreen(
    _ desktop: DesktopSession, _ when: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    // Each read of the tree is a round trip through GTK's loop, which lays out a changed
    // window before it answers the next one.
    let tree = try desktop.tree()
    let size = try desktop.windowSize()
    #expect(
      size.width <= Self.screenWidth,
      "the window is \(size.width) pixels wide \(when)", sourceLocation: sourceLocation)
    let frame = tree.first("frame")?.frame ?? []
    #expect(
      frame.count == 4 && frame[2] <= Self.screenWidth,
      "the window's content is \(frame) \(when)", sourceLocation: sourceLocation)
  }
}
