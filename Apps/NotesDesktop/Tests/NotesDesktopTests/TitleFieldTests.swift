// The note's title field renames through the session, which remembers the title a rename
// began from: a rename typed there after another writer renamed the note is refused with
// the reason, and one begun again (the keyboard back in the field) goes through.

import Airframe
import Foundation
import NotesCore
import NotesHost
import NotesPresentation
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct TitleFieldTests {
  func titleField(_ tree: AccessibleNode) -> AccessibleNode? {
    tree.all.first { $0.role == "text" && $0.name == "Note title" }
  }

  func statusSays(_ tree: AccessibleNode, _ words: String) -> Bool {
    tree.all.contains { $0.role == "label" && $0.name.contains(words) }
  }

  @Test func aRenameBegunBeforeAnotherWritersIsRefusedUntilBegunAgain() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let opened = try await desktop.launchOnSamples()
    try desktop.focusMainWindow()
    // The keyboard in the title field of "Welcome to Notes" begins the rename.
    try desktop.click(try #require(titleField(opened)))

    // Another writer renames the note meanwhile; the field shows its title.
    let other = try NotesLibrary.open(path: desktop.database, samples: .never)
    let welcome = try #require(other.session.list.rows.first { $0.title == "Welcome to Notes" })
    #expect(other.session.noteSelected(welcome.id))
    other.session.noteRenameBegan()
    #expect(other.session.noteRenamed(to: "Welcome, renamed elsewhere").isCommitted)
    other.close()
    _ = try #require(
      await desktop.waitForTree("the other writer's title") {
        self.titleField($0)?.text == "Welcome, renamed elsewhere"
      })

    // The rename typed now began from the old title: refused, with why, changing nothing.
    try desktop.press("ctrl+a")
    try desktop.type("Mine")
    try desktop.press("Return")
    _ = try #require(
      await desktop.waitForTree("the refusal") { self.statusSays($0, "changed elsewhere") })
    #expect(try desktop.notes().contains { $0.title == "Welcome, renamed elsewhere" })
    #expect(try !desktop.notes().contains { $0.title == "Mine" })

    // The keyboard leaves the field and comes back: the rename begins from the new title.
    let shown = try desktop.tree()
    try desktop.click(try #require(shown.first("text", named: "Note text")))
    try desktop.click(try #require(titleField(shown)))
    try desktop.press("ctrl+a")
    try desktop.type("Mine")
    try desktop.press("Return")
    _ = try #require(
      await desktop.waitForTree("the rename") {
        $0.first("list", named: "Notes")?.rowLabels.contains(noteRow("Mine", pinned: true)) == true
      })
    #expect(try desktop.notes().contains { $0.title == "Mine" })

    let report = try await desktop.quit()
    #expect(report.forwarded.titleCommits == 2)
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
