// End-to-end tests of the Notes gestures: the built `notes` program on a temporary
// database, driven with key presses through a real terminal (tmux). After each step the
// screen is captured and every pane is checked against the others and against the
// database as `notes export` reads it (see `Agreement`); each step also checks what it
// changed. GestureTests in NotesTerminalUITests drive the same gestures in-process.

import AirframeTesting
import Foundation
import Testing

@Suite(.noLiveBindings, .serialized, .timeLimit(.minutes(10)))
struct GestureEndToEndTests {
  /// The sample library's sidebar.
  static let sampleSidebar = ["All notes 6", "Home 2", "Ideas 2", "Work 2"]

  @Test func everyGestureKeepsThePanesAndTheDatabaseInAgreement() async throws {
    let (notes, start) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    let tmux = notes.tmux

    // The sample library, with the pinned welcome note open.
    #expect(Self.sidebar(start.screen) == Self.sampleSidebar)
    #expect(start.screen.title == "Work — Welcome to Notes")
    #expect(start.screen.focusedPane == .list)
    #expect(start.screen.selectedListEntry?.title == "Welcome to Notes")
    #expect(start.screen.selectedListEntry?.isPinned == true)
    #expect(start.screen.rows[29] == " 3 notebooks · 6 notes · Not synced")

    // Create a notebook: it is selected, empty, and sorted into the sidebar.
    try tmux.type("N")
    try await notes.waitForHint("New notebook title:")
    try tmux.type("Travel")
    try await notes.waitForHint("New notebook title: Travel")
    try tmux.press("Enter")
    let created = try #require(
      await notes.observe(after: "creating the notebook Travel") { $0.notebookCount == 4 })
    #expect(
      Self.sidebar(created.screen) == ["All notes 6", "Home 2", "Ideas 2", "Travel 0", "Work 2"])
    #expect(created.screen.selectedSidebarEntry?.title == "Travel")
    #expect(created.screen.title == "Travel")
    #expect(created.screen.listPlaceholder == "No notes")
    #expect(created.screen.editorHeader == "EDITOR")
    let travel = try #require(created.library.notebooks.first { $0.title == "Travel" })

    // Add a note: it opens in the editor, in the selected notebook.
    try tmux.type("n")
    try await notes.waitForHint("New note title:")
    try tmux.type("Packing list")
    try tmux.press("Enter")
    let added = try #require(
      await notes.observe(after: "adding the note Packing list") {
        $0.focusedPane == .editor && $0.editorNoteTitle == "Packing list"
      })
    #expect(added.screen.title == "Travel — Packing list")
    #expect(added.screen.list.map(\.title) == ["Packing list"])
    #expect(added.screen.allNotes?.count == 7)
    #expect(added.screen.hint.hasPrefix("Type to edit"))
    let note = try #require(added.library.notes.first { $0.title == "Packing list" })
    #expect(note.notebookID == travel.id)
    #expect(note.body.isEmpty)

    // Type in the editor: every key is saved.
    try tmux.type("Socks")
    try tmux.press("Enter")
    try tmux.type("Passport")
    let typed = try #require(
      await notes.observe(after: "typing two lines") { $0.editorLines == ["Socks", "Passport"] })
    #expect(typed.library.notes.first { $0.id == note.id }?.body == "Socks\nPassport")
    #expect(typed.screen.list.first?.snippet == "Socks")
    #expect(!typed.screen.editorIsUnsaved)

    // Rename in place: the field replaces the list row; Ctrl-U clears it.
    try tmux.press("Escape")
    try await notes.observe(after: "leaving the editor") { $0.focusedPane == .list }
    try tmux.type("r")
    try await notes.waitForHint("Rename note: Packing list") {
      $0.contains { $0.contains("│ Packing list▏") }
    }
    try tmux.press("C-u")
    try await notes.waitForHint("Rename note:")
    try tmux.type("Trip kit")
    try tmux.press("Enter")
    let renamed = try #require(
      await notes.observe(after: "renaming the note to Trip kit") {
        $0.title == "Travel — Trip kit" && $0.isBrowsing
      })
    #expect(renamed.screen.selectedListEntry?.title == "Trip kit")
    #expect(renamed.screen.editorHeader == "Trip kit")
    #expect(renamed.library.notes.first { $0.id == note.id }?.title == "Trip kit")

    // Move: the picker lists every other notebook; the counts of both change.
    try tmux.type("m")
    let picker = try #require(await notes.waitForText("Move to (Enter moves, Esc cancels)"))
    #expect(Self.boxRows(picker) == ["Home", "Ideas", "Work"])
    try tmux.press("Down")
    try tmux.press("Enter")
    let moved = try #require(
      await notes.observe(after: "moving Trip kit to Ideas") { $0.listCount == 0 })
    #expect(
      Self.sidebar(moved.screen) == ["All notes 7", "Home 2", "Ideas 3", "Travel 0", "Work 2"])
    #expect(moved.screen.title == "Travel")
    #expect(moved.screen.editorHeader == "EDITOR")
    let ideas = try #require(moved.library.notebooks.first { $0.title == "Ideas" })
    #expect(moved.library.notes.first { $0.id == note.id }?.notebookID == ideas.id)

    // Delete a notebook with notes: it asks first; "n" keeps it, "y" deletes it.
    try tmux.press("BTab")
    try await notes.observe(after: "focusing the sidebar") { $0.focusedPane == .sidebar }
    try tmux.press("Up")
    // The list keeps a selection while it has rows: Ideas opens on its first note.
    let beforeDeletion = try #require(
      await notes.observe(after: "selecting Ideas") { $0.title == "Ideas — Trip kit" })
    #expect(beforeDeletion.screen.listCount == 3)
    #expect(beforeDeletion.screen.list.first?.title == "Trip kit")
    try tmux.type("d")
    try await notes.waitForText("│ " + "Delete \"Ideas\" and its 3 notes?")
    try tmux.type("n")
    let kept = try #require(
      await notes.observe(after: "answering no") { $0.selectedSidebarEntry?.title == "Ideas" })
    #expect(kept.library == beforeDeletion.library, "answering no changed the database")
    try tmux.type("d")
    try await notes.waitForText("│ " + "Delete \"Ideas\" and its 3 notes?")
    try tmux.type("y")
    let deleted = try #require(
      await notes.observe(after: "answering yes") { $0.notebookCount == 3 })
    #expect(Self.sidebar(deleted.screen) == ["All notes 4", "Home 2", "Travel 0", "Work 2"])
    // All notes is selected, and its list keeps a selection: the first note.
    #expect(deleted.screen.title == "Work — Welcome to Notes")
    #expect(!deleted.library.notes.contains { $0.notebookID == ideas.id })
    #expect(deleted.library.notes.count == 4)

    // Search as you type: the list follows each key; the database does not change.
    try tmux.type("/")
    try await notes.waitForHint("Search:")
    try tmux.type("anna")
    let found = try #require(
      await notes.observe(after: "searching for anna") { $0.listSearch == "anna" })
    #expect(found.screen.list.map(\.title) == ["Weekend"])
    #expect(found.screen.listCount == 1)
    try tmux.type("x")
    let none = try #require(
      await notes.observe(after: "searching for annax") { $0.listSearch == "annax" })
    #expect(none.screen.listPlaceholder == "No notes match")
    try tmux.press("BSpace")
    try tmux.press("Enter")
    let kept2 = try #require(
      await notes.observe(after: "ending the search with Enter") {
        $0.isBrowsing && $0.listSearch == "anna"
      })
    #expect(kept2.screen.list.map(\.title) == ["Weekend"])
    #expect(kept2.screen.focusedPane == .list)
    try tmux.press("Escape")
    let cleared = try #require(
      await notes.observe(after: "clearing the search with Escape") { $0.listSearch == nil })
    #expect(cleared.screen.listCount == 4)
    #expect(cleared.library == deleted.library, "searching changed the database")

    // Undo: the deletion, then the move, each exactly; redo them again.
    try tmux.type("u")
    let undeleted = try #require(
      await notes.observe(after: "undoing the deletion") { $0.notebookCount == 4 })
    #expect(
      Self.sidebar(undeleted.screen) == ["All notes 7", "Home 2", "Ideas 3", "Travel 0", "Work 2"])
    #expect(undeleted.library == beforeDeletion.library, "undo did not restore the notebook")
    try tmux.type("u")
    let unmoved = try #require(
      await notes.observe(after: "undoing the move") {
        $0.sidebar.contains { $0.title == "Travel" && $0.count == 1 }
      })
    #expect(
      Self.sidebar(unmoved.screen) == ["All notes 7", "Home 2", "Ideas 2", "Travel 1", "Work 2"])
    #expect(unmoved.library == renamed.library, "undo did not restore the note's notebook")
    try tmux.type("U")
    let removed = try #require(
      await notes.observe(after: "redoing the move with U") {
        $0.sidebar.contains { $0.title == "Ideas" && $0.count == 3 }
      })
    #expect(
      Self.sidebar(removed.screen) == ["All notes 7", "Home 2", "Ideas 3", "Travel 0", "Work 2"])
    #expect(removed.library.notes.first { $0.id == note.id }?.notebookID == ideas.id)
    try tmux.press("C-r")
    let redeleted = try #require(
      await notes.observe(after: "redoing the deletion with Ctrl-R") { $0.notebookCount == 3 })
    #expect(Self.sidebar(redeleted.screen) == ["All notes 4", "Home 2", "Travel 0", "Work 2"])
    #expect(redeleted.library.notes.map(\.id).sorted() == deleted.library.notes.map(\.id).sorted())

    // Quit: the terminal is restored and the database is what the screen showed last.
    try await notes.quit(expecting: redeleted.library)
  }

  @Test func renamingANotebookInPlaceRenamesItEverywhere() async throws {
    let (notes, _) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    let tmux = notes.tmux
    try tmux.press("BTab")
    try tmux.press("Down")
    let home = try #require(
      await notes.observe(after: "selecting Home") { $0.selectedSidebarEntry?.title == "Home" })
    // The list's selection moves into the notebook: its first note opens.
    #expect(home.screen.title == "Home — Weekend")
    #expect(home.screen.selectedListEntry?.title == "Weekend")

    try tmux.type("r")
    try await notes.waitForHint("Rename notebook: Home") {
      $0.contains { $0.hasPrefix(" Home▏") }
    }
    try tmux.press("C-u")
    try tmux.type("Zuhause")
    try tmux.press("Enter")
    let renamed = try #require(
      await notes.observe(after: "renaming Home to Zuhause") {
        $0.selectedSidebarEntry?.title == "Zuhause"
      })
    #expect(renamed.screen.title == "Zuhause — Weekend")
    // Re-sorted: Zuhause goes last, still selected, with its two notes.
    #expect(Self.sidebar(renamed.screen) == ["All notes 6", "Ideas 2", "Work 2", "Zuhause 2"])
    #expect(renamed.screen.selectedSidebarEntry?.title == "Zuhause")
    #expect(Set(renamed.screen.list.map(\.title)) == ["Groceries", "Weekend"])
    #expect(renamed.library.notebooks.map(\.title).sorted() == ["Ideas", "Work", "Zuhause"])

    try await notes.quit(expecting: renamed.library)
  }

  @Test func refusedTitlesAreReportedAndSaveNothing() async throws {
    let (notes, start) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    let tmux = notes.tmux

    // An empty title: refused with the reason; the prompt stays open.
    try tmux.type("n")
    try await notes.waitForHint("New note title:")
    try tmux.press("Enter")
    let empty = try #require(
      await notes.observe(after: "submitting an empty title") { $0.message != nil })
    #expect(empty.screen.message?.contains("empty") == true)
    #expect(empty.screen.hint == "New note title:")
    #expect(empty.library == start.library)

    // A notebook title that exists already (ignoring case): refused with the reason.
    try tmux.press("Escape")
    try await notes.observe(after: "cancelling the prompt") { $0.isBrowsing }
    try tmux.type("N")
    try await notes.waitForHint("New notebook title:")
    try tmux.type("work")
    try tmux.press("Enter")
    let duplicate = try #require(
      await notes.observe(after: "submitting a duplicate notebook title") {
        $0.message?.lowercased().contains("already") == true
      })
    #expect(duplicate.screen.hint == "New notebook title: work")
    #expect(duplicate.library == start.library)

    // Escape closes the prompt and changes nothing; the message stays until the next
    // gesture that succeeds.
    try tmux.press("Escape")
    let cancelled = try #require(
      await notes.observe(after: "cancelling the prompt") { $0.isBrowsing })
    #expect(cancelled.screen.notebookCount == 3)
    #expect(cancelled.library == start.library)
    try await notes.quit(expecting: start.library)
  }

  @Test func ctrlQInTheEditorQuitsAndKeepsWhatWasTyped() async throws {
    let (notes, start) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    let tmux = notes.tmux
    let welcome = try #require(start.library.notes.first { $0.title == "Welcome to Notes" })

    try tmux.press("Enter")
    try await notes.observe(after: "opening the editor") { $0.focusedPane == .editor }
    // In the editor q is text, not quit.
    try tmux.type(" Quiet quarters.")
    try await notes.observe(after: "typing") {
      $0.editorLines.last?.hasSuffix("Quiet quarters.") == true
    }
    try await notes.quit(with: "C-q")
    let library = try notes.library()
    #expect(library.notes.first { $0.id == welcome.id }?.body == welcome.body + " Quiet quarters.")
  }

  // MARK: - Helpers

  /// The sidebar as "title count" rows.
  static func sidebar(_ screen: NotesScreen) -> [String] {
    screen.sidebar.map { "\($0.title) \($0.count)" }
  }

  /// The rows inside an overlay box, trimmed.
  static func boxRows(_ screen: [String]) -> [String] {
    screen.compactMap { row -> String? in
      let parts = row.split(separator: "│", omittingEmptySubsequences: false)
      guard parts.count == 4 else { return nil }
      return parts[2].trimmingCharacters(in: .whitespaces)
    }
  }
}
