// `notes sync setup URL`, `notes sync`, `notes sync status` and `notes sync acknowledge`,
// run as a user runs them, against a real PostgreSQL server the test starts.

import Foundation
import NotesTestSupport
import Testing

@Suite(.serialized)
struct SyncCommandTests {
  /// Runs `notes` with `arguments` on `database`.
  func notes(_ arguments: [String], database: String) throws -> ProgramResult {
    let program = try #require(Programs.built("notes"), "the notes program is not built")
    let home = try TemporaryFolder(prefix: "sync-cli-home")
    defer { home.remove() }
    return try Programs.run(
      program, arguments + ["--database", database],
      environment: Programs.environment(home: home.path), folder: home)
  }

  func withServer(_ body: (TemporaryPostgres, TemporaryFolder) throws -> Void) async throws {
    let server = try await TemporaryPostgres.started()
    do {
      let folder = try TemporaryFolder(prefix: "sync-cli")
      defer { folder.remove() }
      try body(server, folder)
    } catch {
      await server.stopped()
      throw error
    }
    await server.stopped()
  }

  @Test func setUpSyncAndStatusOnTwoLibraries() async throws {
    try await withServer { server, folder in
      let (a, b) = (folder.file("a.notes"), folder.file("b.notes"))
      let added = try notes(
        [
          "add", "--notebook", "Work", "--title", "Plan", "--body", "one\ntwo", "--create-notebook",
        ],
        database: a)
      #expect(added.status == 0)
      // The URL is shown without its password (the test server trusts every connection).
      let url = server.url.replacingOccurrences(
        of: "postgresql://", with: "postgresql://postgres:secret@")
      let setup = try notes(["sync", "setup", url], database: a)
      #expect(setup.status == 0, "\(setup.errors)")
      #expect(setup.output.hasPrefix("created the sync server's tables (schema 3)\n"))
      #expect(setup.output.contains("postgres:***@"))
      #expect(!setup.output.contains("secret"))
      #expect(try notes(["sync", "status"], database: a).output.contains("pending: 2 changes\n"))
      let statusJSON = try notes(["sync", "status", "--json"], database: a)
      #expect(statusJSON.status == 0)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(statusJSON.output.utf8)) as? [String: Any])
      #expect(object["setUp"] as? Bool == true)
      #expect(object["pending"] as? Int == 2)
      #expect((object["server"] as? String)?.contains("postgres:***@") == true)
      #expect(!statusJSON.output.contains("secret"))
      #expect(object["notices"] as? [String] == [])
      let first = try notes(["sync"], database: a)
      #expect(
        first
          == ProgramResult(status: 0, output: "pushed 2 changes, pulled 0 changes\n", errors: ""))

      #expect(try notes(["sync", "setup", server.url], database: b).status == 0)
      #expect(try notes(["sync"], database: b).output == "pushed 0 changes, pulled 2 changes\n")
      #expect(try notes(["list"], database: b).output.contains("Work\tPlan"))

      // Both change the same line: B's sync saves A's version as a conflict copy.
      for (database, line) in [(a, "one from A"), (b, "one from B")] {
        let program = try #require(Programs.built("notes"))
        let home = try TemporaryFolder(prefix: "sync-cli-edit")
        defer { home.remove() }
        let edit = try Programs.run(
          program, ["edit", "2", "--body", "-", "--database", database],
          input: Data("\(line)\ntwo".utf8), environment: Programs.environment(home: home.path),
          folder: home.path)
        #expect(edit.status == 0, "\(edit.errors)")
      }
      #expect(try notes(["sync"], database: a).status == 0)
      let merged = try notes(["sync"], database: b)
      #expect(merged.output.contains("saved 1 conflict copy"))
      #expect(
        merged.output.contains("notice: The note “Plan” was changed here and on another device"))
      let status = try notes(["sync", "status"], database: b)
      #expect(status.output.contains("device: "))
      #expect(status.output.contains("pending: 0 changes\n"))
      #expect(status.output.contains("notice: The note “Plan”"))
      #expect(
        try notes(["sync", "acknowledge"], database: b).output == "1 notice marked read\n")
      #expect(!(try notes(["sync", "status"], database: b).output.contains("notice:")))
    }
  }

  @Test func withoutSetupOrServerSyncSaysWhyAndKeepsEverything() async throws {
    try await withServer { server, folder in
      let a = folder.file("a.notes")
      #expect(
        try notes(["sync", "status"], database: a).output
          == "sync is not set up for this library: run `notes sync setup URL`\n")
      let notSetUp = try notes(["sync"], database: a)
      #expect(notSetUp.status == 1)
      #expect(notSetUp.errors.contains("sync is not set up for this library"))
      let nowhere = "postgresql:///postgres?host=\(folder.path)/none&user=postgres"
      let unreachable = try notes(["sync", "setup", nowhere], database: a)
      #expect(unreachable.status == 69)
      #expect(unreachable.errors.hasPrefix("notes: cannot connect to the server:"))
      #expect(try notes(["sync", "status"], database: a).output.hasPrefix("sync is not set up"))
      // Set up, then the server goes away: the sync fails and the change stays pending.
      #expect(try notes(["sync", "setup", server.url], database: a).status == 0)
      #expect(
        try notes(
          ["add", "--notebook", "Inbox", "--title", "Later", "--create-notebook"],
          database: a
        ).status == 0)
      server.stop()
      let offline = try notes(["sync"], database: a)
      #expect(offline.status == 69)
      #expect(offline.errors.hasPrefix("notes: cannot connect to the server:"))
      #expect(try notes(["sync", "status"], database: a).output.contains("pending: 2 changes\n"))
    }
  }

  @Test func badSyncCommandLinesAreUsageErrors() throws {
    let folder = try TemporaryFolder(prefix: "sync-cli-usage")
    defer { folder.remove() }
    let database = folder.file("a.notes")
    let unknown = try notes(["sync", "now"], database: database)
    #expect(unknown.status == 64)
    #expect(unknown.errors.contains("'sync' takes setup URL, status or acknowledge, not 'now'"))
    let missing = try notes(["sync", "setup"], database: database)
    #expect(missing.status == 64)
    #expect(missing.errors.contains("'sync setup' needs URL"))
  }
}
