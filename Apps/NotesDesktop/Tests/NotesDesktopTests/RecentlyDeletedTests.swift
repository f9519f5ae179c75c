// Recently Deleted in the window: the sidebar's last entry. A note deleted with the Delete
// key is listed there, Return puts it back where it was, and Delete for Good… and Empty…
// ask first.

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

  /// Deletes the note titled `title` with the Delete key in the note list.
  func delete(_ title: String, in desktop: DesktopSession) async throws {
    try await desktop.chooseNote(title)
    try desktop.press("Delete")
    _ = try #require(
      await desktop.waitForTree("\(title) deleted") {
        $0.first("list", named: "Notes")?.rowLabels.contains(noteRow(title)) == false
      })
  }

  /// Opens Recently Deleted through the command palette; returns the tree showing it.
  func openRecentlyDeleted(_ desktop: DesktopSession) async throws -> AccessibleNode {
    try desktop.focusMainWindow()
    try desktop.press("ctrl+k")
    try desktop.focus(windowTitled: "Commands")
    try desktop.type("recently")
    try desktop.press("Return")
    return try #require(
      await desktop.waitForTree("Recently Deleted shown") {
        self.frames($0) == ["Recently Deleted"]
          && $0.first("list", named: "Recently Deleted")?.rowLabels.isEmpty == false
      })
  }

  @Test func aDeletedNoteIsRestoredFromRecentlyDeletedInTheSidebar() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    _ = try await desktop.launchOnSamples()
    try desktop.focusMainWindow()
    typealias Item = DesktopSession.MenuItem
    #expect(
      try await desktop.menuItems("Note").item("Recently Deleted")
        == Item(label: "Recently Deleted… — Recently Deleted is empty.", isEnabled: false))

    // The note list has the keyboard: Delete deletes Groceries, and the sidebar counts it.
    try await delete("Groceries", in: desktop)
    _ = try #require(
      await desktop.waitForAgreement(after: "deleting Groceries") {
        $0.first("list", named: "Notebooks")?.rowLabels.last == "Recently Deleted  1"
      })

    // Note ▸ Recently Deleted… selects it in the sidebar: the window shows its notes, the
    // highlighted one's text, how long they are kept, and names itself after it.
    #expect(
      try await desktop.menuItems("Note").item("Recently Deleted")
        == Item(label: "Recently Deleted…", isEnabled: true))
    let shown = try await openRecentlyDeleted(desktop)
    #expect(shown.first("list", named: "Notebooks")?.selectedRow == "Recently Deleted  1")
    let rows = shown.first("list", named: "Recently Deleted")?.rowLabels ?? []
    #expect(rows.count == 1 && rows[0].contains("Groceries") && rows[0].contains("Home"), "\(rows)")
    #expect(shown.all.contains { $0.name.hasSuffix("Notes here go for good after 30 days.") })
    let body = try #require(try desktop.state().recentlyDeleted.elements.first?.note.body)
    #expect(shown.first("text", named: "Deleted note text")?.text == body)
    #expect(
      Set(shown.all.filter { $0.role == "push button" }.map(\.name)).isSuperset(
        of: ["Restore", "Delete for Good…", "Empty…"]))
    // The notes' commands wait for the notes.
    #expect(
      try await desktop.menuItems("Note").item("Pin")
        == Item(
          label: "Pin or Unpin Note — Recently Deleted is shown: choose All notes or a notebook "
            + "first.",
          isEnabled: false))

    // Return restores the highlighted note; the window stays on Recently Deleted.
    try desktop.focusMainWindow()
    let row = try #require(
      try desktop.tree().first("list", named: "Recently Deleted")?.children?.first {
        $0.role == "list item"
      })
    try desktop.click(row)
    try desktop.press("Return")
    _ = try #require(
      await desktop.waitForTree("Groceries restored") { tree in
        tree.first("list", named: "Recently Deleted")?.rowLabels.isEmpty == true
          && tree.all.contains { $0.role == "label" && $0.name.contains("Restored “") }
          && tree.first("list", named: "Notebooks")?.rowLabels.last == "Recently Deleted  0"
      })
    let state = try desktop.state()
    #expect(state.recentlyDeleted.count == 0)
    #expect(state.notes.elements.contains { $0.title == "Groceries" })

    // All notes shows the notes again, Groceries among them.
    let tree = try desktop.tree()
    let allNotes = try #require(
      tree.first("list", named: "Notebooks")?.children?.first {
        $0.first("label")?.name == "All notes  6"
      })
    try desktop.click(allNotes)
    _ = try #require(
      await desktop.waitForAgreement(after: "back to All notes") {
        $0.first("list", named: "Notes")?.rowLabels.contains(noteRow("Groceries")) == true
      })

    #expect(
      desktop.toolkitWarnings.isEmpty,
      "GTK warned:\n\(desktop.toolkitWarnings.joined(separator: "\n"))")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}

extension RecentlyDeletedTests {
  /// Delete and Empty… in Recently Deleted ask first, then delete for good; Undo puts the
  /// notes back in Recently Deleted.
  @Test func notesAreDeletedForGoodAndRecentlyDeletedEmptied() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    _ = try await desktop.launchOnSamples()
    try desktop.focusMainWindow()
    // Two notes deleted: Groceries, then another.
    try await delete("Groceries", in: desktop)
    let other = try #require(try desktop.state().notes.elements.map(\.title).sorted().first)
    try await delete(other, in: desktop)
    #expect(try desktop.state().recentlyDeleted.count == 2)

    // The newest first, highlighted: Delete asks before it deletes it for good.
    _ = try await openRecentlyDeleted(desktop)
    try desktop.focusMainWindow()
    try desktop.press("Delete")
    let question = try #require(
      await desktop.waitForTree("the question") { self.frames($0).contains("Delete for Good") })
    #expect(question.all.contains { $0.name.contains(other) && $0.name.contains("for good?") })
    #expect(try desktop.state().recentlyDeleted.count == 2, "deleted before it was confirmed")
    try desktop.focus(windowTitled: "Delete for Good")
    try desktop.press("Return")
    let left = try #require(
      await desktop.waitForTree("one note left in Recently Deleted") { tree in
        self.frames(tree) == ["Recently Deleted"]
          && tree.first("list", named: "Recently Deleted")?.rowLabels.count == 1
      })
    #expect(
      left.first("list", named: "Recently Deleted")?.rowLabels.first?.contains("Groceries")
        == true)
    #expect(try desktop.state().recentlyDeleted.elements.map(\.note.title) == ["Groceries"])

    // Empty… empties it, once confirmed.
    try desktop.click(try #require(left.first("push button", named: "Empty…")))
    _ = try #require(
      await desktop.waitForTree("the question") {
        self.frames($0).contains("Empty Recently Deleted")
      })
    try desktop.focus(windowTitled: "Empty Recently Deleted")
    try desktop.press("Return")
    _ = try #require(
      await desktop.waitForTree("Recently Deleted emptied") { tree in
        self.frames(tree).count == 1
          && tree.all.contains { $0.role == "label" && $0.name.contains("Deleted 1 note for good") }
          && tree.first("list", named: "Recently Deleted")?.rowLabels.isEmpty == true
      })
    #expect(try desktop.state().recentlyDeleted.count == 0)

    // Undo puts Groceries back in Recently Deleted, and in its list.
    try desktop.focusMainWindow()
    try desktop.press("ctrl+z")
    _ = try #require(
      await desktop.waitForTree("Groceries back in Recently Deleted") { tree in
        tree.first("list", named: "Recently Deleted")?.rowLabels.count == 1
          && (try? desktop.state().recentlyDeleted.elements.map(\.note.title)) == ["Groceries"]
      })

    #expect(
      desktop.toolkitWarnings.isEmpty,
      "GTK warned:\n\(desktop.toolkitWarnings.joined(separator: "\n"))")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
