// Two full-screen apps on two libraries (two devices), synced through a real PostgreSQL
// server the test starts: what is typed in one appears in the other's panes, both ways,
// with no sync asked for by hand.

import AirframeTesting
import Foundation
import NotesTestSupport
import Testing

@Suite(.noLiveBindings, .serialized, .timeLimit(.minutes(10)))
struct SyncEndToEndTests {
  /// Runs a `notes` command (on `database`, if given) with `PGPASSFILE` set to `passwords`.
  func notesCommand(
    _ arguments: [String], database: String? = nil, passwords: String, input: String = ""
  ) throws -> ProgramResult {
    let notes = try #require(Programs.built("notes"), "notes is not built")
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    return try Programs.run(
      notes, arguments + (database.map { ["--database", $0] } ?? []), input: Data(input.utf8),
      environment: Programs.environment(home: folder.path) + ["PGPASSFILE=\(passwords)"],
      folder: folder.path)
  }

  @Test func typingInOneAppAppearsInTheOtherAppsPanes() async throws {
    let server = try await TemporaryPostgres.started()
    do {
      try await typeInBoth(server: server)
    } catch {
      await server.stopped()
      throw error
    }
    await server.stopped()
  }

  private func typeInBoth(server: TemporaryPostgres) async throws {
    let folder = try TemporaryFolder(prefix: "sync-e2e")
    defer { folder.remove() }
    let (pathA, pathB) = (folder.file("a.notes"), folder.file("b.notes"))
    // The operator makes the tables and an account; both devices sync as that account, and
    // find its password in the password file `sync setup` wrote.
    let passwords = folder.file("pgpass")
    let initialized = try notesCommand(["server", "init", server.url], passwords: passwords)
    #expect(initialized.status == 0, "\(initialized.errors)")
    let added = try notesCommand(
      ["server", "add-account", "alice", server.url], passwords: passwords, input: "alice pw\n")
    #expect(added.status == 0, "\(added.errors)")
    // The first library is set up as a person does it: the password typed when asked,
    // not shown; the second finds it in the password file the first wrote.
    try await setUpTypingThePassword(
      "alice pw", url: server.url(user: "alice", password: nil), library: pathA,
      passwords: passwords)
    let setup = try notesCommand(
      ["sync", "setup", server.url(user: "alice", password: nil)], database: pathB,
      passwords: passwords)
    #expect(setup.status == 0, "\(setup.errors)")
    let launcher = ["env", "PGPASSFILE=\(passwords)"]
    let first = try NotesProgram(launcher: launcher, database: pathA)
    defer { first.close() }
    let second = try NotesProgram(launcher: launcher, database: pathB)
    defer { second.close() }
    _ = try #require(await first.waitUntilFullScreen())
    _ = try #require(await second.waitUntilFullScreen())

    // A notebook and a note made in the first app, and the text typed into it.
    try first.tmux.type("N")
    try await first.waitForHint("New notebook title:")
    try first.tmux.type("Shared")
    try first.tmux.press("Enter")
    _ = try #require(await first.observe(after: "creating Shared") { $0.notebookCount == 1 })
    try first.tmux.type("n")
    try await first.waitForHint("New note title:")
    try first.tmux.type("Trip")
    try first.tmux.press("Enter")
    _ = try #require(await first.observe(after: "adding Trip") { $0.editorNoteTitle == "Trip" })
    try first.tmux.type("Tickets")
    _ = try #require(await first.observe(after: "typing") { $0.editorLines == ["Tickets"] })
    _ = try #require(
      await second.observe(after: "the first app typed into Trip") { screen in
        screen.notebookCount == 1 && screen.editorLines == ["Tickets"]
          && screen.list.contains { $0.title == "Trip" }
      })

    // Typed in the second app: the first app's open editor follows.
    _ = try #require(await second.observe(after: "starting") { $0.focusedPane == .list })
    try second.tmux.press("Enter")
    _ = try #require(
      await second.observe(after: "opening Trip") { $0.focusedPane == .editor })
    // The cursor stayed where it was when the text arrived from elsewhere: at the start.
    try second.tmux.type("Passport")
    try second.tmux.press("Enter")
    _ = try #require(
      await second.observe(after: "typing") { $0.editorLines == ["Passport", "Tickets"] })
    _ = try #require(
      await first.observe(after: "the second app typed into Trip") {
        $0.editorLines == ["Passport", "Tickets"] && $0.sync == "Synced"
      })

    try await first.quit(with: "C-q")
    try await second.quit(with: "C-q")
    let library = try first.library()
    #expect(library.notes.map(\.body) == ["Passport\nTickets"])
    #expect(try second.library().notes.map(\.body) == ["Passport\nTickets"])
  }

  /// Runs `notes sync setup URL` on a terminal and types `password` when it asks for it.
  private func setUpTypingThePassword(
    _ password: String, url: String, library: String, passwords: String
  ) async throws {
    let notes = try #require(Programs.built("notes"), "notes is not built")
    func quoted(_ text: String) -> String { "'" + text.replacing("'", with: "'\\''") + "'" }
    let tmux = try TmuxSession(
      script: "PGPASSFILE=\(quoted(passwords)) \(quoted(notes)) sync setup \(quoted(url))"
        + " --database \(quoted(library))",
      in: try TemporaryFolder(prefix: "setup"))
    defer { tmux.close() }
    try await tmux.waitForScreen("the password prompt") { screen in
      screen.contains { $0.hasPrefix("password for alice:") }
    }
    try tmux.type(password)
    try tmux.press("Enter")
    let screen = try #require(
      try await tmux.waitForScreen("the setup to end") { screen in
        screen.contains { $0.contains("run `notes sync` to sync") }
      })
    #expect(!screen.joined().contains(password), "the password was shown: \(screen)")
    #expect(
      (try? String(contentsOfFile: passwords, encoding: .utf8))?.contains(":alice:\(password)")
        == true)
  }
}
