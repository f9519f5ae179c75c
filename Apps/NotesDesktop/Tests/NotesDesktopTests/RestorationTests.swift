// Quit and launch again: every window comes back with its notebook, search, note and size,
// as far as the library still has them.

import Airframe
import Foundation
import NotesCore
import NotesHost
import NotesPresentation
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct RestorationTests {
  func frames(_ tree: AccessibleNode) -> [String] {
    (tree.children ?? []).filter { $0.role == "frame" }.map(\.name).sorted()
  }

  /// The window showing "Weekend", the one note that mentions a bike.
  let weekend = windowTitle("Home", "Weekend")

  /// Launches on the samples and searches for "bike", which lists the weekend note alone.
  func searchForTheBike(in desktop: DesktopSession) async throws {
    _ = try await desktop.launchOnSamples()
    try desktop.focusMainWindow()
    try desktop.press("ctrl+f")
    try desktop.type("bike")
    _ = try #require(await desktop.waitForTree("the search") { self.frames($0) == [weekend] })
  }

  @Test func quitAndLaunchAgainBringsBackEveryWindowAsFarAsTheLibraryHasIt() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    // The first window: a search that lists the weekend note alone.
    try await searchForTheBike(in: desktop)
    let first = try #require(try desktop.windowIDs(titled: weekend).first)
    try desktop.xdotool(["windowsize", "--sync", first, "820", "560"])
    // A second window, on a note of its own.
    try desktop.press(inWindow: first, "ctrl+alt+n")
    _ = try #require(await desktop.waitForTree("a second window") { self.frames($0).count == 2 })
    let second = try #require(try desktop.windowIDs(titled: weekend).first { $0 != first })
    try desktop.press(inWindow: second, "ctrl+n")
    try desktop.focus(windowTitled: "New Note")
    try desktop.type("Trip plan")
    try desktop.press("Return")
    let trip = windowTitle("Home", "Trip plan")
    _ = try #require(
      await desktop.waitForTree("the new note") { self.frames($0) == [trip, weekend].sorted() })
    let size = try desktop.windowSize(of: first)
    _ = try await desktop.quit()

    // Both windows come back, the first at its size, still searching.
    try desktop.launch()
    let restored = try #require(
      await desktop.waitForTree("both windows again") {
        self.frames($0) == [trip, weekend].sorted()
      })
    let searching = try #require(
      (restored.children ?? []).first { $0.role == "frame" && $0.name == weekend })
    #expect(searching.all.first { $0.name == "Search" }?.text == "bike")
    let again = try #require(try desktop.windowIDs(titled: weekend).first)
    #expect(try desktop.windowSize(of: again) == size)
    _ = try await desktop.quit()

    // The trip plan deleted meanwhile: its window comes back on the first note instead.
    let other = try NotesLibrary.open(path: desktop.database, samples: .never)
    let plan = try #require(other.session.list.rows.first { $0.title == "Trip plan" })
    #expect(other.session.noteSelected(plan.id))
    #expect(other.session.noteDeleted().isCommitted)
    other.close()
    try desktop.launch()
    let afterDeletion = try #require(
      await desktop.waitForTree("two windows, one without the deleted note") { tree in
        let names = self.frames(tree)
        return names.count == 2 && names.contains(weekend) && !names.contains(trip)
      })
    // Shown nowhere but in Recently Deleted (a page of the window, hidden but in the tree).
    func outsideRecentlyDeleted(_ node: AccessibleNode) -> [AccessibleNode] {
      guard node.role != "list" || node.name != "Recently Deleted" else { return [] }
      return [node] + (node.children ?? []).flatMap(outsideRecentlyDeleted)
    }
    #expect(
      !outsideRecentlyDeleted(afterDeletion).contains { $0.name.contains(isolated("Trip plan")) })
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the windows")
  }

  @Test func closingTheLastWindowSavesItToo() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    try await searchForTheBike(in: desktop)
    // Close Window in the only window ends the program, as Quit does, and saves it first.
    let closed = try await desktop.quit(with: "ctrl+w")
    #expect(closed.liveBindings == 0, "bindings outlived the window")

    try desktop.launch()
    let restored = try #require(
      await desktop.waitForTree("the window again") { self.frames($0) == [weekend] })
    #expect(restored.all.first { $0.name == "Search" }?.text == "bike")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
