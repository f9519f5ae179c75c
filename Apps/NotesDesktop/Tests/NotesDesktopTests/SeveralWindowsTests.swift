// Several windows on one library, each its own session: two windows show two notes and agree
// on every change at once. And confirmations as durable outcomes for real: a question
// pending when a window opens shows in it, closing a window leaves the question pending,
// and once answered (in any window) it shows nowhere and never again.

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

  /// The frame named `name`'s note list, as its rows' labels.
  func noteRows(_ tree: AccessibleNode, inFrameNamed name: String) -> [String]? {
    (tree.children ?? []).first { $0.role == "frame" && $0.name == name }?
      .first("list", named: "Notes")?.rowLabels
  }

  @Test func twoWindowsShowTwoNotesAndAgreeOnEveryChange() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let opened = try await desktop.launchOnSamples()
    let title = try #require(opened.first("frame")?.name)
    let first = try #require(try desktop.windowIDs(titled: title).first)
    // New Window starts where the first window is…
    try desktop.press(inWindow: first, "ctrl+alt+n")
    _ = try #require(
      await desktop.waitForTree("a second window") { self.count($0, framesNamed: title) == 2 })
    let second = try #require(try desktop.windowIDs(titled: title).first { $0 != first })

    // …and goes its own way: a note made there is selected there only.
    try desktop.press(inWindow: second, "ctrl+n")
    try desktop.focus(windowTitled: "New Note")
    try desktop.type("Second thoughts")
    try desktop.press("Return")
    let made = try #require(
      await desktop.waitForTree("the new note in the second window only") { tree in
        (tree.children ?? []).contains {
          $0.role == "frame" && $0.name.contains(isolated("Second thoughts"))
        } && self.count(tree, framesNamed: title) == 1
      })
    // The first window lists it at once, still showing its own note.
    #expect(noteRows(made, inFrameNamed: title)?.contains(noteRow("Second thoughts")) == true)
    #expect(try desktop.notes().contains { $0.title == "Second thoughts" })

    let report = try await desktop.quit()
    #expect(report.windowsOpened == 2)
    #expect(report.liveBindings == 0, "bindings outlived the windows")
  }

  @Test func aConfirmationOutlivesItsWindowAndIsAnsweredOnce() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    _ = try await desktop.launchOnSamples()
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

    // A second window starts where the first is: the same notebook and note.
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
