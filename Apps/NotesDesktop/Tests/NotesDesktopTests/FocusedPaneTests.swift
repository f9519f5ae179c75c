// Commands follow the focus: Delete acts on the item of the list that has the keyboard,
// the notebook in the sidebar and the note in the note list.

import Airframe
import Foundation
import NotesCore
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct FocusedPaneTests {
  func frames(_ tree: AccessibleNode) -> [String] {
    (tree.children ?? []).filter { $0.role == "frame" }.map(\.name)
  }

  @Test func deleteActsOnTheFocusedListsItem() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let opened = try await desktop.launchOnSamples()
    try desktop.focusMainWindow()
    // The sidebar has the keyboard: Delete asks about the notebook.
    let sidebar = try #require(opened.first("list", named: "Notebooks"))
    let homeRow = try #require(
      sidebar.children?.first { $0.first("label")?.name == sidebarRow("Home", 2) })
    try desktop.click(homeRow)
    _ = try #require(
      await desktop.waitForTree("Home's notes") {
        $0.first("list", named: "Notes")?.rowLabels.count == 2
      })
    try desktop.press("Delete")
    _ = try #require(
      await desktop.waitForTree("the notebook's question") {
        self.frames($0).contains("Delete Notebook")
      })
    try desktop.press("Escape")
    _ = try #require(
      await desktop.waitForTree("the question closed") { self.frames($0).count == 1 })
    #expect(try desktop.notes().count == 6, "a question changed the library")

    // The note list has the keyboard: Delete deletes the note.
    try desktop.focusMainWindow()
    let shown = try desktop.tree()
    let list = try #require(shown.first("list", named: "Notes"))
    let groceriesRow = try #require(
      list.children?.first {
        $0.first("label")?.name.hasPrefix(noteRow("Groceries") + "\n") == true
      })
    try desktop.click(groceriesRow)
    _ = try #require(
      await desktop.waitForTree("Groceries selected") {
        $0.first("frame")?.name == windowTitle("Home", "Groceries")
      })
    try desktop.press("Delete")
    _ = try #require(
      await desktop.waitForTree("the note deleted") {
        $0.first("list", named: "Notes")?.rowLabels.count == 1
      })
    #expect(try !desktop.notes().contains { $0.title == "Groceries" })
    #expect(try desktop.state().notebooks.elements.contains { $0.title == "Home" })

    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
