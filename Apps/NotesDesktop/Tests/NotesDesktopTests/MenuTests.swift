// The menu bar after a menu was opened and closed: the commands that change its labels (a
// reason that comes or goes) run without GTK using a widget after it was freed.

import Foundation
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct MenuTests {
  @Test func commandsRunSafelyAfterAMenuWasOpenedAndClosed() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    try desktop.launch()
    let opened = try #require(
      await desktop.waitForTree("the sample library") {
        $0.first("list", named: "Notes")?.selectedRow == noteRow("Welcome to Notes", pinned: true)
      })
    try desktop.focusMainWindow()
    // Two menus opened and closed, as a user looking for a command does.
    for menu in ["Note", "Edit"] {
      try desktop.click(try #require(opened.first("menu item", named: menu)))
      _ = try #require(
        await desktop.waitForTree("the \(menu) menu open") {
          $0.first("menu item", named: menu)?.first("menu") != nil
        })
      try desktop.press("Escape")
      _ = try #require(
        await desktop.waitForTree("the \(menu) menu closed") {
          $0.first("menu item", named: menu)?.first("menu") == nil
        })
    }
    // Each of these changes what Undo and Redo say in the Edit menu.
    for (keys, row) in [
      ("ctrl+p", noteRow("Welcome to Notes")),
      ("ctrl+z", noteRow("Welcome to Notes", pinned: true)),
      ("ctrl+shift+z", noteRow("Welcome to Notes")),
    ] {
      try desktop.press(keys)
      _ = try #require(
        await desktop.waitForTree("\(keys) to show \(row)") {
          $0.first("list", named: "Notes")?.selectedRow == row
        })
    }
    // Edit ▸ Undo names the step it would undo: the unpinning redone last.
    try desktop.click(try #require(opened.first("menu item", named: "Edit")))
    _ = try #require(
      await desktop.waitForTree("Edit ▸ Undo Unpin Note") { tree in
        tree.all.contains { $0.role == "menu item" && $0.name.hasPrefix("Undo Unpin Note") }
      })
    try desktop.press("Escape")
    #expect(
      desktop.toolkitWarnings.isEmpty,
      "GTK warned:\n\(desktop.toolkitWarnings.joined(separator: "\n"))")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
