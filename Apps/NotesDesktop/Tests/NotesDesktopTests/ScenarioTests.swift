// The terminal app's end-to-end scenario, in the window, with the keyboard only: after every
// step, every presentation (title, sidebar, note list, editor, status bar) agrees with the
// others and with the library file (`disagreements`, worked out from the file alone).

import Airframe
import Foundation
import NotesCore
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct ScenarioTests {
  @Test func theWholeScenarioByKeyboardKeepsEveryPresentationInAgreement() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    try desktop.launch()
    try await desktop.waitForAgreement(after: "opening") {
      $0.first("list", named: "Notes")?.rowLabels.count == 6
    }

    // A notebook, and a note in it (the new notebook is selected).
    try desktop.focusMainWindow()
    try desktop.press("ctrl+shift+n")
    try desktop.focus(windowTitled: "New Notebook")
    try desktop.type("Travel")
    try desktop.press("Return")
    try await desktop.waitForAgreement(after: "a new notebook") {
      $0.first("frame")?.name == windowTitle("Travel")
    }
    try desktop.focusMainWindow()
    try desktop.press("ctrl+n")
    try desktop.focus(windowTitled: "New Note")
    try desktop.type("Packing list")
    try desktop.press("Return")
    let created = try #require(
      await desktop.waitForAgreement(after: "a new note") {
        $0.first("frame")?.name == windowTitle("Travel", "Packing list")
      })

    // Its text, typed (the new note's editor has the keyboard); every key saved.
    #expect(created.first("text", named: "Note text")?.states.contains("focused") == true)
    try desktop.focusMainWindow()
    try desktop.type("Passport, tickets")
    try await desktop.waitForAgreement(after: "typing") {
      $0.first("text", named: "Note text")?.text == "Passport, tickets"
    }
    // Undo in the editor is the session's: the typing run goes back as one step.
    try desktop.press("ctrl+z")
    try await desktop.waitForAgreement(after: "undoing the typing") {
      $0.first("text", named: "Note text")?.text == ""
    }
    try desktop.press("ctrl+shift+z")
    try await desktop.waitForAgreement(after: "redoing the typing") {
      $0.first("text", named: "Note text")?.text == "Passport, tickets"
    }

    // Renamed (F2), pinned.
    try desktop.press("F2")
    try desktop.focus(windowTitled: "Rename Note")
    try desktop.press("ctrl+a")
    try desktop.type("Packing")
    try desktop.press("Return")
    try await desktop.waitForAgreement(after: "renaming") {
      $0.first("frame")?.name == windowTitle("Travel", "Packing")
    }
    try desktop.focusMainWindow()
    try desktop.press("ctrl+p")
    try await desktop.waitForAgreement(after: "pinning") {
      $0.first("list", named: "Notes")?.rowLabels == [noteRow("Packing", pinned: true)]
    }

    // A second note, moved to Home with the picker (typing filters it).
    try desktop.press("ctrl+n")
    try desktop.focus(windowTitled: "New Note")
    try desktop.type("Zeppelin tickets")
    try desktop.press("Return")
    try await desktop.waitForAgreement(after: "a second note") {
      $0.first("frame")?.name == windowTitle("Travel", "Zeppelin tickets")
    }
    try desktop.focusMainWindow()
    try desktop.press("ctrl+m")
    try desktop.focus(windowTitled: "Move Note")
    let picker = try #require(
      await desktop.waitForTree("the notebook picker") {
        $0.first("frame", named: "Move Note")?.first("list", named: "Move Note")?.rowLabels
          == ["Home", "Ideas", "Work"]
      })
    _ = picker
    try desktop.type("hom")
    try desktop.press("Return")
    try await desktop.waitForAgreement(after: "moving") {
      $0.first("frame", named: "Move Note") == nil
        && $0.first("list", named: "Notes")?.rowLabels == [noteRow("Packing", pinned: true)]
    }
    #expect(
      try desktop.state().notes.elements.first { $0.title == "Zeppelin tickets" }
        .flatMap { try? desktop.state().notebooks[$0.notebookID]?.title } == "Home")

    // Deleting the notebook asks first: No keeps it, Yes deletes it and its note.
    try desktop.focusMainWindow()
    try desktop.press("ctrl+shift+Delete")
    try desktop.focus(windowTitled: "Delete Notebook")
    try desktop.press("Escape")
    try await desktop.waitForAgreement(after: "declining the deletion") {
      $0.first("frame", named: "Delete Notebook") == nil
    }
    #expect(try desktop.notes().contains { $0.title == "Packing" })
    try desktop.focusMainWindow()
    try desktop.press("ctrl+shift+Delete")
    try desktop.focus(windowTitled: "Delete Notebook")
    try desktop.press("Return")
    try await desktop.waitForAgreement(after: "confirming the deletion") {
      !($0.first("list", named: "Notebooks")?.rowLabels.contains {
        $0.contains(isolated("Travel"))
      } ?? true)
    }
    #expect(try !desktop.notes().contains { $0.title == "Packing" })

    // Undo brings both back; redo deletes them again.
    try desktop.focusMainWindow()
    try desktop.press("ctrl+z")
    try await desktop.waitForAgreement(after: "undoing the deletion") {
      $0.first("list", named: "Notebooks")?.rowLabels.contains(sidebarRow("Travel", 1)) == true
    }
    try desktop.press("ctrl+shift+z")
    try await desktop.waitForAgreement(after: "redoing the deletion") {
      !($0.first("list", named: "Notebooks")?.rowLabels.contains {
        $0.contains(isolated("Travel"))
      } ?? true)
    }

    // Search (Ctrl-F): the list shows what matches, in every notebook.
    try desktop.press("ctrl+f")
    try desktop.type("zepp")
    try await desktop.waitForAgreement(after: "searching", search: "zepp") {
      $0.first("list", named: "Notes")?.rowLabels == [noteRow("Zeppelin tickets")]
    }

    // The palette lists every command; one that cannot run says why and stays open.
    try desktop.focusMainWindow()
    try desktop.press("ctrl+k")
    try desktop.focus(windowTitled: "Commands")
    let palette = try #require(
      await desktop.waitForTree("the palette") {
        ($0.first("list", named: "Commands")?.rowLabels.count ?? 0) >= 18
      })
    let commands = palette.first("list", named: "Commands")?.rowLabels ?? []
    #expect(commands.contains("Redo — Nothing to redo.   Shift+Ctrl+Z"))
    #expect(commands.contains("Rename Notebook — Select a notebook first."))
    #expect(commands.contains { $0.hasPrefix("New Note") && $0.hasSuffix("Ctrl+N") })
    try desktop.type("redo")
    try desktop.press("Return")
    _ = try #require(
      await desktop.waitForTree("the palette's refusal") { tree in
        tree.first("frame", named: "Commands")?.all.contains {
          $0.role == "label" && $0.name == "Redo: Nothing to redo."
        } == true
      })
    try desktop.press("Escape")
    _ = try #require(
      await desktop.waitForTree("the palette closed") {
        $0.first("frame", named: "Commands") == nil
      })

    let report = try await desktop.quit()
    #expect(report.forwarded.bodyEdits == "Passport, tickets".count)
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }
}
