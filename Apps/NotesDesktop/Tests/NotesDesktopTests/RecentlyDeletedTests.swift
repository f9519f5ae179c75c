// Recently Deleted in the window: a note deleted with the Delete key is listed in Note ▸
// Recently Deleted…, and choosing it there puts it back where it was.

import Airframe
import Foundation
import NotesCore
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct RecentlyDeletedTests {
  func frames(_ tree: AccessibleNode) -> [String] {
    (tree.children ?? []).filter { $0.role == "frame" }.map(\.name)
  }

  @Test func aDeletedNoteIsRestoredFromRecentlyDeleted() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    _ = try await desktop.launchOnSamples()
    try desktop.focusMainWindow()
    typealias Item = DesktopSession.MenuItem
    #expect(
      try await desktop.menuItems("Note").item("Recently Deleted")
        == Item(label: "Recently Deleted… — Recently Deleted is empty.", isEnabled: false))

    // The note list has the keyboard: Delete deletes Groceries.
    try await desktop.chooseNote("Groceries")
    try desktop.press("Delete")
    _ = try #require(
      await desktop.waitForTree("Groceries deleted") {
        $0.first("list", named: "Notes")?.rowLabels.contains(noteRow("Groceries")) == false
      })
    #expect(try desktop.state().recentlyDeleted.count == 1)

    // Note ▸ Recently Deleted… lists it; Return restores the highlighted one.
    #expect(
      try await desktop.menuItems("Note").item("Recently Deleted")
        == Item(label: "Recently Deleted…", isEnabled: true))
    try desktop.press("ctrl+k")
    try desktop.focus(windowTitled: "Commands")
    try desktop.type("recently")
    try desktop.press("Return")
    let dialog = try #require(
      await desktop.waitForTree("the Recently Deleted dialog") {
        self.frames($0).contains("Recently Deleted")
      })
    #expect(dialog.all.contains { $0.name.hasPrefix("Groceries — Home — ") })
    try desktop.focus(windowTitled: "Recently Deleted")
    try desktop.press("Return")
    _ = try #require(
      await desktop.waitForTree("Groceries back") { tree in
        tree.first("list", named: "Notes")?.rowLabels.contains(noteRow("Groceries")) == true
          && self.frames(tree).count == 1
          && tree.all.contains { $0.role == "label" && $0.name.contains("Restored “") }
      })
    let state = try desktop.state()
    #expect(state.recentlyDeleted.count == 0)
    #expect(state.notes.elements.contains { $0.title == "Groceries" })

    #expect(
      desktop.toolkitWarnings.isEmpty,
      "GTK warned:\n\(desktop.toolkitWarnings.joined(separator: "\n"))")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
