// Note history in the window: Note ▸ Note History… lists the open note's kept versions,
// and choosing one brings its text back as a new edit.

import Airframe
import Foundation
import NotesCore
import NotesHost
import NotesPresentation
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct NoteHistoryTests {
  func frames(_ tree: AccessibleNode) -> [String] {
    (tree.children ?? []).filter { $0.role == "frame" }.map(\.name)
  }

  @Test func aKeptVersionIsChosenAndBroughtBack() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    _ = try await desktop.launchOnSamples()
    try desktop.focusMainWindow()

    // Another process edits Groceries: the library keeps the text before and after.
    let other = try NotesLibrary.open(path: desktop.database, samples: .never)
    let row = try #require(other.session.list.rows.first { $0.title == "Groceries" })
    #expect(other.session.noteSelected(row.id))
    let original = other.session.editorState.value.body
    #expect(other.session.bodyTyped("Only bread now").isCommitted)
    other.close()

    try await desktop.chooseNote("Groceries")
    _ = try #require(
      await desktop.waitForTree("the edit, shown") {
        $0.first("text", named: "Note text")?.text == "Only bread now"
      })
    try desktop.press("ctrl+shift+h")
    let dialog = try #require(
      await desktop.waitForTree("the Note History dialog") {
        self.frames($0).contains("Note History")
      })
    #expect(dialog.all.contains { $0.name.hasSuffix(" — this device — Groceries") })
    #expect(dialog.all.contains { $0.name.hasSuffix(" — before history was kept — Groceries") })

    // The newest version is the text now; the older one shows what changed since.
    #expect(
      dialog.first("text", named: "Differences")?.text == VersionComparison.unchangedSentence)
    try desktop.focus(windowTitled: "Note History")
    try desktop.press("Down")
    let compared = try #require(
      await desktop.waitForTree("the differences from the older version") {
        $0.first("text", named: "Differences")?.text?.hasPrefix(VersionComparison.heading) == true
      })
    let expected = VersionComparison(from: original, to: "Only bread now")
    #expect(
      compared.first("text", named: "Differences")?.text
        == ([VersionComparison.heading] + expected.lines.map(\.marked)).joined(separator: "\n"))
    #expect(expected.lines.contains(.added("Only bread now")))
    // Restore brings it back.
    try desktop.press("Return")
    _ = try #require(
      await desktop.waitForTree("the version back") { tree in
        tree.first("text", named: "Note text")?.text == original
          && self.frames(tree).count == 1
          && tree.all.contains { $0.role == "label" && $0.name.contains("Restored the version of") }
      })
    #expect(try desktop.state().notes[row.id]?.body == original)

    #expect(
      desktop.toolkitWarnings.isEmpty,
      "GTK warned:\n\(desktop.toolkitWarnings.joined(separator: "\n"))")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
