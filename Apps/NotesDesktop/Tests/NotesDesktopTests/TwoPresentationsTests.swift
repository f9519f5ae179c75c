// The terminal app and the desktop window together: on one library file, a change made in
// either shows in the other; on two libraries synced through a throwaway PostgreSQL server
// (two devices), the same, with no sync asked for by hand.

import Airframe
import Foundation
import NotesCore
import NotesTestSupport
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct TwoPresentationsTests {
  @Test func theTerminalAppAndTheWindowOnOneLibraryFollowEachOther() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    _ = try await desktop.launchOnSamples()
    let terminal = try TerminalPane(database: desktop.database, folder: desktop.folder)
    defer { terminal.close() }
    _ = try #require(await terminal.waitForScreen { $0.contains("Welcome to Notes") })

    // A note made in the terminal app shows in the window…
    try terminal.type("n")
    _ = try #require(await terminal.waitForScreen { $0.contains("New note title:") })
    try terminal.type("From the terminal")
    try terminal.press("Enter")
    try await desktop.waitForAgreement(after: "a note made in the terminal app") {
      $0.first("list", named: "Notes")?.rowLabels.contains(noteRow("From the terminal")) == true
    }
    // …and one made in the window shows in the terminal app.
    try desktop.focusMainWindow()
    try desktop.press("ctrl+n")
    try desktop.focus(windowTitled: "New Note")
    try desktop.type("From the window")
    try desktop.press("Return")
    let both = try #require(
      await terminal.waitForScreen { $0.contains("From the window") && $0.contains("8 notes") })
    #expect(both.contains("From the terminal"))
    try await desktop.waitForAgreement(after: "a note made in the window")

    try terminal.press("Escape", "q")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
    let titles = Set(try desktop.notes().map(\.title))
    #expect(titles.isSuperset(of: ["From the terminal", "From the window"]))
  }

  @Test func theWindowAndTheTerminalAppOnTwoSyncedLibrariesFollowEachOther() async throws {
    let server = try await TemporaryPostgres.started()
    do {
      try await syncBoth(server: server)
    } catch {
      await server.stopped()
      throw error
    }
    await server.stopped()
  }

  private func syncBoth(server: TemporaryPostgres) async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let other = desktop.folder + "/other.notes"
    let notes = try #require(DesktopSession.builtProgram("notes"), "notes is not built")
    // The operator makes the tables and an account; both devices sync as that account and
    // find its password in the password file `sync setup` writes.
    let passwords = desktop.folder + "/pgpass"
    func run(_ arguments: [String], input: String = "") throws -> ProgramResult {
      try Programs.run(
        notes, arguments, input: Data(input.utf8),
        environment: Programs.environment(home: desktop.folder) + ["PGPASSFILE=\(passwords)"],
        folder: desktop.folder)
    }
    let initialized = try run(["server", "init", server.url])
    #expect(initialized.status == 0, "\(initialized.errors)")
    let added = try run(["server", "add-account", "alice", server.url], input: "alice pw\n")
    #expect(added.status == 0, "\(added.errors)")
    for library in [desktop.database, other] {
      let setup = try run([
        "sync", "setup", server.url(user: "alice", password: "alice pw"), "--database", library,
      ])
      #expect(setup.status == 0, "\(setup.errors)")
    }
    try desktop.launch(["PGPASSFILE": passwords])
    let terminal = try TerminalPane(
      database: other, folder: desktop.folder, environment: ["PGPASSFILE": passwords])
    defer { terminal.close() }
    _ = try #require(await terminal.waitForScreen { $0.contains("NOTEBOOKS") })

    // A notebook, a note and its text, made in the terminal app, reach the window.
    try terminal.type("N")
    _ = try #require(await terminal.waitForScreen { $0.contains("New notebook title:") })
    try terminal.type("Shared")
    try terminal.press("Enter")
    try terminal.type("n")
    _ = try #require(await terminal.waitForScreen { $0.contains("New note title:") })
    try terminal.type("Trip")
    try terminal.press("Enter")
    try terminal.type("Tickets")
    // The note can show before the sync that pulled it has ended, and a sync slower than
    // its quiet period shows in the title until then: the title is waited for too.
    let synced = try #require(
      await desktop.waitForTree("the other device's note", timeout: .seconds(20)) {
        $0.first("list", named: "Notebooks")?.rowLabels.contains(sidebarRow("Shared", 1)) == true
          && $0.first("text", named: "Note text")?.text == "Tickets"
          && $0.first("frame")?.name == windowTitle("Shared", "Trip")
      })

    // Typed in the window: the terminal app's open editor follows.
    try desktop.click(try #require(synced.first("text", named: "Note text")), at: (x: 300, y: 200))
    try desktop.type(" and passport")
    _ = try #require(
      await terminal.waitForScreen(timeout: .seconds(20)) { $0.contains("Tickets and passport") })

    try terminal.press("Escape", "q")
    let report = try await desktop.quit()
    #expect(report.liveBindings == 0, "bindings outlived the window")
    #expect(try desktop.notes().first { $0.title == "Trip" }?.body == "Tickets and passport")
  }
}
