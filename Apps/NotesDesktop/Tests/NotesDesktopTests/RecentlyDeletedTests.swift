// Recently Deleted in the window: a note deleted with the Delete key is listed in Note ▸
// Recently Deleted…, choosing it there puts it back where it was, and Delete for Good… and
// Empty… ask first.

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

  /// Opens Recently Deleted through the command palette; returns the tree showing it.
  func openRecentlyDeleted(_ desktop: DesktopSession) async throws -> AccessibleNode {
    try desktop.press("ctrl+k")
    try desktop.focus(windowTitled: "Commands")
    try desktop.type("recently")
    try desktop.press("Return")
    return try #require(
      await desktop.waitForTree("the Recently Deleted dialog") {
        self.frames($0).contains("Recently Deleted")
      })
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
    let dialog = try await openRecentlyDeleted(desktop)
    #expect(dialog.all.contains { $0.name.hasPrefix("Groceries — Home — ") })
    #expect(dialog.all.contains { $0.name.hasSuffix("Notes here go for good after 30 days.") })
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

extension RecentlyDeletedTests {
  /// Delete for Good… and Empty… in the Recently Deleted dialog ask first, then delete for
  /// good; Undo puts the notes back in Recently Deleted.
  @Test func notesAreDeletedForGoodAndRecentlyDeletedEmptiedFromTheDialog() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    _ = try await desktop.launchOnSamples()
    try desktop.focusMainWindow()
    // Two notes deleted: Groceries, then another.
    try await desktop.chooseNote("Groceries")
    try desktop.press("Delete")
    _ = try #require(
      await desktop.waitForTree("Groceries deleted") {
        $0.first("list", named: "Notes")?.rowLabels.contains(noteRow("Groceries")) == false
      })
    let other = try #require(try desktop.state().notes.elements.map(\.title).sorted().first)
    try await desktop.chooseNote(other)
    try desktop.press("Delete")
    _ = try #require(
      await desktop.waitForTree("\(other) deleted") { _ in
        (try? desktop.state().recentlyDeleted.count) == 2
      })

    let dialog = try await openRecentlyDeleted(desktop)
    // Named as shown.
    let buttons = dialog.all.filter { $0.role == "push button" }.map(\.name)
    #expect(buttons.contains("Delete for Good…") && buttons.contains("Empty…"), "\(buttons)")
    // With no row highlighted (the filter matches none), Alt-D is refused with the reason.
    try desktop.focus(windowTitled: "Recently Deleted")
    try desktop.type("zzz")
    try desktop.press("alt+d")
    _ = try #require(
      await desktop.waitForTree("the reason") { tree in
        tree.all.contains { $0.role == "label" && $0.name == "Nothing matches." }
      })
    #expect(try desktop.state().recentlyDeleted.count == 2)
    #expect(try desktop.windowIDs(titled: "Delete for Good").isEmpty)
    try desktop.press("BackSpace", "BackSpace", "BackSpace")
    // The newest first, highlighted: Alt-D asks before it deletes it for good.
    try desktop.press("alt+d")
    let question = try #require(
      await desktop.waitForTree("the question") { self.frames($0).contains("Delete for Good") })
    #expect(question.all.contains { $0.name.contains(other) && $0.name.contains("for good?") })
    #expect(try desktop.state().recentlyDeleted.count == 2, "deleted before it was confirmed")
    try desktop.focus(windowTitled: "Delete for Good")
    try desktop.press("Return")
    let left = try #require(
      await desktop.waitForTree("one note left in Recently Deleted") { tree in
        self.frames(tree).count == 2 && self.frames(tree).contains("Recently Deleted")
          && tree.first("list", named: "Recently Deleted")?.rowLabels.count == 1
      })
    #expect(
      left.first("list", named: "Recently Deleted")?.rowLabels.first?.hasPrefix("Groceries — ")
        == true)
    #expect(try desktop.state().recentlyDeleted.elements.map(\.note.title) == ["Groceries"])

    // Alt-E empties it, once confirmed; the dialog closes with nothing left in it.
    try desktop.focus(windowTitled: "Recently Deleted")
    try desktop.press("alt+e")
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
      })
    #expect(try desktop.state().recentlyDeleted.count == 0)

    // Undo puts Groceries back in Recently Deleted.
    try desktop.focusMainWindow()
    try desktop.press("ctrl+z")
    _ = try #require(
      await desktop.waitForTree("Groceries back in Recently Deleted") { _ in
        (try? desktop.state().recentlyDeleted.elements.map(\.note.title)) == ["Groceries"]
      })

    #expect(
      desktop.toolkitWarnings.isEmpty,
      "GTK warned:\n\(desktop.toolkitWarnings.joined(separator: "\n"))")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
