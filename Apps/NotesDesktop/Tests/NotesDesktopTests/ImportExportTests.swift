// Export and import from the window's Library menu shortcuts, through their path dialogs:
// the status bar says what each did, the library file has the imported notes, and every
// presentation agrees with it afterwards.

import Airframe
import Foundation
import NotesCore
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct ImportExportTests {
  @Test func exportThenImportThroughTheirDialogs() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    try desktop.launch()
    let opened = try #require(
      await desktop.waitForAgreement(after: "opening") {
        $0.first("list", named: "Notes")?.rowLabels.count == 6
      })
    // The menu bar has the Library menu that offers both.
    _ = try #require(opened.first("menu item", named: "Library"))

    let export = desktop.folder + "/export"
    try desktop.focusMainWindow()
    try desktop.press("ctrl+shift+e")
    try desktop.focus(windowTitled: "Export")
    try desktop.type(export)
    try desktop.press("Return")
    _ = try #require(
      await desktop.waitForTree("the export reported") { tree in
        tree.all.contains {
          $0.role == "label" && $0.name.contains("Exported 6 notes in 3 notebooks")
        }
      })
    #expect(FileManager.default.fileExists(atPath: export + "/Home/.notebook.md"))

    try desktop.focusMainWindow()
    try desktop.press("ctrl+o")
    try desktop.focus(windowTitled: "Import")
    try desktop.type(export)
    try desktop.press("Return")
    _ = try #require(
      await desktop.waitForTree("the import reported") { tree in
        tree.all.contains { $0.role == "label" && $0.name.contains("Imported 6 notes from") }
      })
    #expect(try desktop.notes().count == 12)
    try await desktop.waitForAgreement(after: "the import") {
      $0.first("list", named: "Notes")?.rowLabels.count == 12
    }
    #expect(
      desktop.toolkitWarnings.isEmpty,
      "GTK warned:\n\(desktop.toolkitWarnings.joined(separator: "\n"))")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
