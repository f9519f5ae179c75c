// An empty library — one the command line created, or an empty file — shows "All notes" with
// no notes, an empty list, and takes a first notebook, with no GTK warning.

import Airframe
import Foundation
import NotesCore
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct EmptyLibraryTests {
  enum Origin: String, CaseIterable {
    case commandLine = "made by the command line"
    case emptyFile = "an empty file"
  }

  @Test(arguments: Origin.allCases)
  func anEmptyLibraryShowsAllNotesAndTakesANotebook(_ origin: Origin) async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    switch origin {
    case .commandLine:
      // `notes list` creates the library, without the sample notes the window adds to a new one.
      let notes = try #require(DesktopSession.builtProgram("notes"))
      let (status, output) = try Spawned.run(
        notes, ["list", "--database", desktop.database],
        environment: ["PATH": "/usr/bin:/bin", "HOME": desktop.folder, "LANG": "C.UTF-8"],
        log: desktop.folder + "/notes-list.log")
      try #require(status == 0, "notes list failed: \(output)")
    case .emptyFile:
      try #require(FileManager.default.createFile(atPath: desktop.database, contents: Data()))
    }
    try #require(try desktop.state().notebooks.count == 0)
    try desktop.launch()
    let opened = try #require(
      await desktop.waitForTree("the empty library") {
        $0.first("label", named: "0 notebooks · 0 notes · Not synced") != nil
          && $0.first("list", named: "Notebooks")?.rowLabels == [
            "All notes  0", "Recently Deleted  0",
          ]
      })
    #expect(opened.first("list", named: "Notebooks")?.selectedRow == "All notes  0")
    #expect(opened.first("list", named: "Notes")?.rowLabels == [])
    #expect(opened.first("frame")?.name == "Notes")

    try desktop.focusMainWindow()
    try desktop.press("ctrl+shift+n")
    try desktop.focus(windowTitled: "New Notebook")
    try desktop.type("Travel")
    try desktop.press("Return")
    _ = try #require(
      await desktop.waitForAgreement(after: "the first notebook") {
        $0.first("list", named: "Notebooks")?.rowLabels == [
          "All notes  0", sidebarRow("Travel", 0), "Recently Deleted  0",
        ]
      })
    #expect(
      desktop.toolkitWarnings.isEmpty,
      "GTK warned:\n\(desktop.toolkitWarnings.joined(separator: "\n"))")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
