// Several windows on one session, and confirmations as durable outcomes for real: a
// question pending when a window opens shows in it, closing a window leaves the question
// pending, and once answered (in any window) it shows nowhere and never again.

import Airframe
import Foundation
import NotesCore
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct SeveralWindowsTests {
  func count(_ tree: AccessibleNode, framesNamed name: String) -> Int {
    (tree.children ?? []).filter { $0.role == "frame" && $0.name == name }.count
  }

  @Test func aConfirmationOutlivesItsWindowAndIsAnsweredOnce() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    try desktop.launch()
    _ = try #require(
      await desktop.waitForTree("the sample library") {
        $0.first("list", named: "Notes")?.rowLabels.count == 6
      })
    // A notebook with a note, by keyboard in the first window.
    try desktop.focusMainWindow()
    try desktop.press("ctrl+shift+n")
    try desktop.focus(windowTitled: "New Notebook")
    try desktop.type("Trip")
    try desktop.press("Return")
    try desktop.focus(windowTitled: windowTitle("Trip"))
    try desktop.press("ctrl+n")
    try desktop.focus(windowTitled: "New Note")
    try desktop.type("Tickets")
    try desktop.press("Return")
    let title = windowTitle("Trip", "Tickets")
    _ = try #require(
      await desktop.waitForTree("the note") { self.count($0, framesNamed: title) == 1 })

    // A second window shows the same session: the same notebook and note.
    let first = try #require(try desktop.windowIDs(titled: title).first)
    try desktop.press(inWindow: first, "ctrl+alt+n")
    _ = try #require(
      await desktop.waitForTree("a second window") { self.count($0, framesNamed: title) == 2 })
    let second = try #require(try desktop.windowIDs(titled: title).first { $0 != first })

    // Deleting the notebook asks in every window that shows the session.
    try desktop.press(inWindow: first, "ctrl+shift+Delete")
    _ = try #require(
      await desktop.waitForTree("the question in both windows") {
        self.count($0, framesNamed: "Delete Notebook") == 2
      })
    // Closing the first window takes its dialog along; the question is still pending.
    try desktop.press(inWindow: first, "ctrl+w")
    _ = try #require(
      await desktop.waitForTree("one window and its question") {
        self.count($0, framesNamed: title) == 1
          && self.count($0, framesNamed: "Delete Notebook") == 1
      })
    // A window opened now shows the pending question at once.
    try desktop.press(inWindow: second, "ctrl+alt+n")
    _ = try #require(
      await desktop.waitForTree("the question in the new window") {
        self.count($0, framesNamed: title) == 2
          && self.count($0, framesNamed: "Delete Notebook") == 2
      })
    #expect(try desktop.notes().contains { $0.title == "Tickets" })

    // Answered in one window, it goes from both, and the notebook is deleted.
    let question = try #require(try desktop.windowIDs(titled: "Delete Notebook").last)
    try desktop.press(inWindow: question, "Return")
    _ = try #require(
      await desktop.waitForTree("the question gone from every window") {
        self.count($0, framesNamed: "Delete Notebook") == 0
          && !($0.first("list", named: "Notebooks")?.rowLabels.contains {
            $0.contains(isolated("Trip"))
          }
            ?? true)
      })
    #expect(try !desktop.notes().contains { $0.title == "Tickets" })
    // And never again: a new window asks nothing.
    let remaining = try #require(
      try desktop.windowIDs(titled: windowTitle("Home", "Groceries")).first
        ?? desktop.tree().first("frame").flatMap { try? desktop.windowIDs(titled: $0.name).first })
    try desktop.press(inWindow: remaining, "ctrl+alt+n")
    let three = try #require(
      await desktop.waitForTree("a third window") { tree in
        (tree.children ?? []).filter { $0.role == "frame" }.count == 3
      })
    try await Task.sleep(for: .milliseconds(300))
    #expect(count(try desktop.tree(), framesNamed: "Delete Notebook") == 0)
    _ = three

    let report = try await desktop.quit()
    #expect(report.windowsOpened == 4)
    #expect(report.liveBindings == 0, "bindings outlived the windows")
  }
}
