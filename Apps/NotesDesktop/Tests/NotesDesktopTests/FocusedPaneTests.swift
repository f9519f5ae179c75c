// Commands follow the focus: Delete and Rename act on the item of the pane that has the
// keyboard, the notebook in the sidebar and the note in the note list, and Edit ▸ Delete
// and Edit ▸ Rename say which, enabled exactly when it can run.

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

  /// Clicks Home in the sidebar, which gives the sidebar the keyboard, and waits for its
  /// two notes.
  func chooseHome(in desktop: DesktopSession, shown: AccessibleNode) async throws {
    let sidebar = try #require(shown.first("list", named: "Notebooks"))
    let homeRow = try #require(
      sidebar.children?.first { $0.first("label")?.name == sidebarRow("Home", 2) })
    try desktop.click(homeRow)
    _ = try #require(
      await desktop.waitForTree("Home's notes") {
        $0.first("list", named: "Notes")?.rowLabels.count == 2
      })
  }

  @Test func deleteActsOnTheFocusedListsItem() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let opened = try await desktop.launchOnSamples()
    try desktop.focusMainWindow()
    // The sidebar has the keyboard: Delete asks about the notebook.
    try await chooseHome(in: desktop, shown: opened)
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
    try await desktop.chooseNote("Groceries")
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

  @Test func theEditMenuAndF2FollowTheFocusedPane() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let opened = try await desktop.launchOnSamples()
    try desktop.focusMainWindow()
    typealias Item = DesktopSession.MenuItem

    // The sidebar on Home: Delete and Rename act on the notebook.
    try await chooseHome(in: desktop, shown: opened)
    let onHome = try await desktop.menuItems("Edit")
    #expect(onHome.item("Delete") == Item(label: "Delete Notebook", isEnabled: true))
    #expect(onHome.item("Rename") == Item(label: "Rename Notebook", isEnabled: true))
    try desktop.press("F2")
    _ = try #require(
      await desktop.waitForTree("the notebook's rename") {
        self.frames($0).contains("Rename Notebook")
      })
    try desktop.press("Escape")
    _ = try #require(await desktop.waitForTree("the rename closed") { self.frames($0).count == 1 })

    // "All notes" is no notebook: the sidebar's Delete is disabled, with the reason.
    try desktop.focusMainWindow()
    let allNotes = try #require(
      try desktop.tree().first("list", named: "Notebooks")?.children?.first {
        $0.first("label")?.name.hasPrefix("All notes") == true
      })
    try desktop.click(allNotes)
    _ = try #require(
      await desktop.waitForTree("every note listed") {
        $0.first("list", named: "Notes")?.rowLabels.count == 6
      })
    #expect(
      try await desktop.menuItems("Edit").item("Delete")
        == Item(label: "Delete Notebook — Select a notebook first.", isEnabled: false))

    // The note list: Delete and Rename act on the note; F2 renames it.
    try await desktop.chooseNote("Groceries")
    let onGroceries = try await desktop.menuItems("Edit")
    #expect(onGroceries.item("Delete") == Item(label: "Delete Note", isEnabled: true))
    #expect(onGroceries.item("Rename") == Item(label: "Rename Note", isEnabled: true))
    try desktop.press("F2")
    let rename = try #require(
      await desktop.waitForTree("the note's rename") { self.frames($0).contains("Rename Note") })
    #expect(rename.all.contains { $0.role == "text" && $0.text == "Groceries" })
    try desktop.press("Escape")
    _ = try #require(await desktop.waitForTree("the rename closed") { self.frames($0).count == 1 })
    #expect(try desktop.notes().count == 6, "a menu or a dialog changed the library")

    #expect(
      desktop.toolkitWarnings.isEmpty,
      "GTK warned:\n\(desktop.toolkitWarnings.joined(separator: "\n"))")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
