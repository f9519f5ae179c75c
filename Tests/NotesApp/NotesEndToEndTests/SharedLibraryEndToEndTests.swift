// Two full-screen apps, and the command line, on one library file: what one process
// writes shows in the other's panes, ids never collide, and an edit typed in both at once
// ends in the editor's conflict, never in a silent overwrite.

import AirframeTesting
import Foundation
import NotesTestSupport
import Testing

@Suite(.noLiveBindings, .serialized, .timeLimit(.minutes(10)))
struct SharedLibraryEndToEndTests {
  /// Runs a `notes` script command on the library.
  func notesCommand(_ arguments: [String], database: String) throws -> ProgramResult {
    let notes = try #require(Programs.built("notes"), "notes is not built")
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    return try Programs.run(
      notes, arguments + ["--database", database],
      environment: ["HOME=\(folder.path)", "LANG=C.UTF-8"], folder: folder)
  }

  @Test func whatOneAppWritesShowsInTheOthersPanes() async throws {
    let (first, _) = try await NotesProgram.onSampleLibrary()
    defer { first.close() }
    let second = try NotesProgram(database: first.databasePath)
    defer { second.close() }
    _ = try #require(
      await second.waitUntilFullScreen())
    _ = try #require(
      await second.observe(after: "the second app starts") { $0.listCount == 6 })

    // Created in the first: a new notebook appears in the second's sidebar.
    try first.tmux.type("N")
    try await first.waitForHint("New notebook title:")
    try first.tmux.type("Shared")
    try first.tmux.press("Enter")
    _ = try #require(
      await first.observe(after: "creating Shared") { $0.notebookCount == 4 })
    _ = try #require(
      await second.observe(after: "the first app created Shared") { $0.notebookCount == 4 })

    // A note created and typed into in the first shows in the second's list.
    try first.tmux.type("n")
    try await first.waitForHint("New note title:")
    try first.tmux.type("Trip")
    try first.tmux.press("Enter")
    _ = try #require(
      await first.observe(after: "adding Trip") { $0.editorNoteTitle == "Trip" })
    try first.tmux.type("Tickets")
    _ = try #require(
      await first.observe(after: "typing") { $0.editorLines == ["Tickets"] })
    _ = try #require(
      await second.observe(after: "the first app added Trip") { screen in
        screen.allNotes?.count == 7
      })

    // The second creates a note of its own: its id is allocated from the file.
    try second.tmux.type("n")
    try await second.waitForHint("New note title:")
    try second.tmux.type("From the second")
    try second.tmux.press("Enter")
    _ = try #require(
      await second.observe(after: "adding a note in the second app") {
        $0.editorNoteTitle == "From the second"
      })
    _ = try #require(
      await first.observe(after: "the second app added a note") { $0.allNotes?.count == 8 })
    let library = try first.library()
    #expect(library.notes.count == 8)
    #expect(Set(library.notes.map(\.id)).count == 8)
    #expect(library.notes.first { $0.title == "Trip" }?.body == "Tickets")

    // Deleted in the second: gone from the first's panes too.
    try second.tmux.press("Escape")
    _ = try #require(await second.observe(after: "leaving the editor") { $0.isBrowsing })
    try second.tmux.type("d")
    _ = try #require(
      await second.observe(after: "deleting From the second") { $0.allNotes?.count == 7 })
    _ = try #require(
      await first.observe(after: "the second app deleted a note") { $0.allNotes?.count == 7 })
    #expect(try first.library().notes.contains { $0.title == "From the second" } == false)

    try await first.quit(with: "C-q")
    try await second.quit(with: "C-q")
  }

  @Test func theAppFollowsTheCommandLineAndCreatesNotesOfItsOwnWithoutAFailure() async throws {
    let (app, _) = try await NotesProgram.onSampleLibrary()
    defer { app.close() }
    for number in 1...5 {
      let added = try notesCommand(
        ["add", "--notebook", "Home", "--title", "Script \(number)"], database: app.databasePath)
      #expect(added.status == 0, "notes add failed: \(added.errors)")
      // The app creates one of its own between the script's commits.
      try app.tmux.type("n")
      try await app.waitForHint("New note title:")
      try app.tmux.type("App \(number)")
      try app.tmux.press("Enter")
      _ = try #require(
        await app.observe(after: "adding App \(number)") { $0.editorNoteTitle == "App \(number)" })
      try app.tmux.press("Escape")
    }
    let shown = try #require(
      await app.observe(after: "the script's notes arrived") { $0.allNotes?.count == 16 })
    #expect(!shown.screen.rows.joined().contains("failed"))
    let library = try app.library()
    #expect(library.notes.count == 16)
    #expect(Set(library.notes.map(\.id)).count == 16)
    try await app.quit(with: "C-q")
  }
}

@Suite(.noLiveBindings, .serialized, .timeLimit(.minutes(10)))
struct SharedLibraryConflictEndToEndTests {
  /// The body of the note titled `title`, as the database holds it.
  func body(of title: String, in notes: NotesProgram) throws -> String? {
    try notes.library().notes.first { $0.title == title }?.body
  }

  @Test func aNoteTypedIntoInBothEndsInTheConflictFlowAndTheChosenTextIsStored() async throws {
    let (first, start) = try await NotesProgram.onSampleLibrary()
    defer { first.close() }
    let title = try #require(start.screen.selectedListEntry?.title)
    // The second app looks for other writers only every 30 s, so its next key is typed
    // before it has seen the first app's save, as when both type at the same moment.
    let second = try NotesProgram(
      launcher: ["env", "AIRFRAME_NOTES_WATCH_MS=30000"], database: first.databasePath)
    defer { second.close() }
    try #require(await second.waitUntilFullScreen())
    for notes in [first, second] {
      try notes.tmux.press("Enter")
      _ = try #require(
        await notes.observe(after: "opening \(title)") {
          $0.focusedPane == .editor && $0.editorNoteTitle == title
        })
    }
    let original = try #require(try body(of: title, in: first))

    // Round one: the first types, then the second; the second takes theirs.
    try first.tmux.type("Q")
    try await first.tmux.waitUntil("the first app saved") {
      try body(of: title, in: first)?.contains("Q") == true
    }
    let theirs = try #require(try body(of: title, in: first))
    try second.tmux.type("Z")
    try await second.waitForText("changed elsewhere", "typing over the first app's edit")
    #expect(try body(of: title, in: first) == theirs, "the second app overwrote the edit")
    try second.tmux.press("C-t")
    _ = try #require(
      await second.observe(after: "taking theirs") {
        let shown = $0.editorLines.joined()
        return shown.contains("Q") && !shown.contains("Z") && !$0.editorIsUnsaved
      })
    #expect(try body(of: title, in: first) == theirs)
    #expect(theirs != original)

    // Round two: the same, and the second keeps its own text.
    try first.tmux.type("W")
    try await first.tmux.waitUntil("the first app saved again") {
      try body(of: title, in: first)?.contains("W") == true
    }
    try second.tmux.type("K")
    try await second.waitForText("changed elsewhere", "typing over the second edit")
    try second.tmux.press("C-k")
    try second.tmux.type("!")
    try await second.tmux.waitUntil("the second app's text is stored") {
      let stored = try body(of: title, in: first) ?? ""
      return stored.contains("K") && stored.contains("!") && !stored.contains("W")
    }
    // The first app, with nothing unsaved, shows the chosen text.
    let chosen = try #require(try body(of: title, in: first))
    _ = try #require(
      await first.observe(after: "the second app kept its text") {
        let shown = $0.editorLines.joined()
        return shown.contains("K!") && !shown.contains("W")
      })
    try await first.quit(with: "C-q")
    try await second.quit(with: "C-q")
    #expect(try body(of: title, in: first) == chosen)
  }
}
