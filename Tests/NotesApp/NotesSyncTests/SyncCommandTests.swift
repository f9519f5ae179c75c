// `notes server …` and `notes sync …`, run as an operator and a user run them, against a
// real PostgreSQL server the suite starts: accounts, setup, sync, status, the password
// file, and every refusal.

import Foundation
import NotesServer
import NotesTestSupport
import Testing

@testable import NotesStorage

@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(10)))
struct SyncCommandTests {
  /// One test's database, and a home folder its `notes` commands share (where
  /// `~/.pgpass` goes).
  struct Bench {
    let database: TestDatabase
    let home: TemporaryFolder

    /// Runs `notes` with `arguments` (and `--database` when `library` is given).
    func notes(_ arguments: [String], library: String? = nil, input: String = "") throws
      -> ProgramResult
    {
      let program = try #require(Programs.built("notes"), "the notes program is not built")
      let words = arguments + (library.map { ["--database", $0] } ?? [])
      return try Programs.run(
        program, words, input: Data(input.utf8),
        environment: Programs.environment(home: home.path), folder: home.path)
    }

    /// An account made with `notes server add-account`, its password on standard input.
    func addAccount(_ name: String, password: String) throws {
      let added = try notes(
        ["server", "add-account", name, database.url], input: password + "\n")
      #expect(added.status == 0, "\(added.errors)")
    }
  }

  func withBench(_ body: (Bench) throws -> Void) async throws {
    try await TestDatabase.with { database in
      let home = try TemporaryFolder(prefix: "sync-cli")
      defer { home.remove() }
      let bench = Bench(database: database, home: home)
      let initialized = try bench.notes(["server", "init", database.url])
      #expect(
        initialized.output == "created the sync server's tables (schema \(ServerSchema.version))\n")
      try body(bench)
    }
  }

  @Test func twoLibrariesOfOneAccountSyncAndThePasswordStaysOutOfTheLibrary() async throws {
    try await withBench { bench in
      let password = "s3cret: with 'quotes' \\ and ünïcode"
      try bench.addAccount("alice", password: password)
      let (a, b) = (bench.home.file("a.notes"), bench.home.file("b.notes"))
      let added = try bench.notes(
        [
          "add", "--notebook", "Work", "--title", "Plan", "--body", "one\ntwo", "--create-notebook",
        ],
        library: a)
      #expect(added.status == 0)
      let url = bench.database.url(user: "alice", password: password)
      let setup = try bench.notes(["sync", "setup", url], library: a)
      #expect(setup.status == 0, "\(setup.errors)")
      #expect(setup.output.contains("of the account alice; run `notes sync` to sync\n"))
      #expect(setup.output.contains("the password is in \(bench.home.path)/.pgpass"))
      #expect(!setup.output.contains("s3cret"))
      // The password is in ~/.pgpass (0600), and nowhere in the library file.
      let passfile = bench.home.file(".pgpass")
      let mode = try FileManager.default.attributesOfItem(atPath: passfile)[.posixPermissions]
      #expect((mode as? NSNumber)?.intValue == 0o600)
      #expect(bench.home.text(of: ".pgpass")?.contains("alice:s3cret\\: with 'quotes'") == true)
      for file in try bench.home.contents() where file.hasPrefix("a.notes") {
        let bytes = try #require(FileManager.default.contents(atPath: bench.home.file(file)))
        #expect(bytes.range(of: Data("s3cret".utf8)) == nil, "\(file) holds the password")
      }
      let status = try bench.notes(["sync", "status"], library: a)
      #expect(status.output.contains("host=\(bench.database.server.folder) "))
      #expect(status.output.hasPrefix("server: user=alice dbname=\(bench.database.name) "))
      #expect(status.output.contains("pending: 2 changes\n"))
      #expect(!status.output.contains("s3cret") && !status.output.contains("password"))
      let statusJSON = try bench.notes(["sync", "status", "--json"], library: a)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(statusJSON.output.utf8)) as? [String: Any])
      #expect(object["setUp"] as? Bool == true)
      #expect(object["pending"] as? Int == 2)
      #expect((object["keptAside"] as? [Any])?.isEmpty == true)
      #expect(!statusJSON.output.contains("s3cret"))
      #expect(
        try bench.notes(["sync"], library: a)
          == ProgramResult(status: 0, output: "pushed 2 changes, pulled 0 changes\n", errors: ""))
      // The second library finds the password in the password file: its URL has none.
      let withoutPassword = bench.database.url(user: "alice", password: nil)
      #expect(try bench.notes(["sync", "setup", withoutPassword], library: b).status == 0)
      #expect(
        try bench.notes(["sync"], library: b).output == "pushed 0 changes, pulled 2 changes\n")
      #expect(try bench.notes(["list"], library: b).output.contains("Work\tPlan"))
      // Both change the same line: B's sync saves A's version as a conflict copy.
      for (library, line) in [(a, "one from A"), (b, "one from B")] {
        let edit = try bench.notes(
          ["edit", "2", "--body", "-"], library: library, input: "\(line)\ntwo")
        #expect(edit.status == 0, "\(edit.errors)")
      }
      #expect(try bench.notes(["sync"], library: a).status == 0)
      let merged = try bench.notes(["sync"], library: b)
      #expect(merged.output.contains("saved 1 conflict copy"))
      #expect(
        merged.output.contains("notice: The note “Plan” was changed here and on another device"))
      #expect(
        try bench.notes(["sync", "acknowledge"], library: b).output == "1 notice marked read\n")
      #expect(!(try bench.notes(["sync", "status"], library: b).output.contains("notice:")))
    }
  }

  @Test func aLibraryCopiedFromAnotherAccountsDeviceStartsOverAsANewDevice() async throws {
    try await withBench { bench in
      try bench.addAccount("alice", password: "alice pw")
      try bench.addAccount("bob", password: "bob pw")
      let (a, b) = (bench.home.file("a.notes"), bench.home.file("b.notes"))
      let added = try bench.notes(
        ["add", "--notebook", "Work", "--title", "Plan", "--body", "one", "--create-notebook"],
        library: a)
      #expect(added.status == 0)
      let alice = bench.database.url(user: "alice", password: "alice pw")
      #expect(try bench.notes(["sync", "setup", alice], library: a).status == 0)
      #expect(try bench.notes(["sync"], library: a).status == 0)
      // Bob copies Alice's library file and syncs it with his own account.
      try FileManager.default.copyItem(atPath: a, toPath: b)
      let aliceDevice = try LibrarySyncStore(path: a)
      defer { aliceDevice.close() }
      let bob = bench.database.url(user: "bob", password: "bob pw")
      let setup = try bench.notes(["sync", "setup", bob], library: b)
      #expect(setup.status == 0, "\(setup.errors)")
      #expect(setup.output.contains("belongs to another account on that server"))
      #expect(setup.output.contains("it starts over as a new device"))
      let bobDevice = try LibrarySyncStore(path: b)
      #expect(bobDevice.deviceID != aliceDevice.deviceID)
      bobDevice.close()
      #expect(
        try bench.notes(["sync"], library: b)
          == ProgramResult(status: 0, output: "pushed 2 changes, pulled 0 changes\n", errors: ""))
      // Set up again with the same account: the device is Bob's now, nothing starts over.
      let again = try bench.notes(["sync", "setup", bob], library: b)
      #expect(again.status == 0)
      #expect(!again.output.contains("starts over"))
      let nothing = "pushed 0 changes, pulled 0 changes\n"
      #expect(try bench.notes(["sync"], library: b).output == nothing)
      // Alice's own library was never disturbed.
      #expect(try bench.notes(["sync"], library: a).output == nothing)
    }
  }

  @Test func aPasswordAnOlderVersionStoredInTheLibraryMovesToThePasswordFile() async throws {
    try await withBench { bench in
      try bench.addAccount("alice", password: "old secret")
      let library = bench.home.file("old.notes")
      #expect(try bench.notes(["sync", "status"], library: library).status == 0)
      // As an older version stored it: the whole URL, password and all.
      let store = try LibrarySyncStore(path: library)
      try store.setServer(bench.database.url(user: "alice", password: "old secret"))
      store.close()
      let before = try bench.notes(["sync", "status"], library: library)
      #expect(before.output.contains("password=***"))
      let first = try bench.notes(["sync"], library: library)
      #expect(first.status == 0, "\(first.errors)")
      #expect(bench.home.text(of: ".pgpass")?.hasSuffix(":alice:old secret\n") == true)
      let status = try bench.notes(["sync", "status"], library: library)
      #expect(!status.output.contains("password"), "\(status.output)")
      for file in try bench.home.contents() where file.hasPrefix("old.notes") {
        let bytes = try #require(FileManager.default.contents(atPath: bench.home.file(file)))
        #expect(bytes.range(of: Data("old secret".utf8)) == nil, "\(file) holds the password")
      }
      // Nothing started over: the same device, and the next sync finds the password.
      #expect(try bench.notes(["sync"], library: library).status == 0)
    }
  }

  @Test func setupRefusesASuperuserTheOwnerAWrongPasswordAndAStranger() async throws {
    try await withBench { bench in
      let library = bench.home.file("a.notes")
      // The superuser, whom row-level security does not hold back.
      let superuser = try bench.notes(["sync", "setup", bench.database.url], library: library)
      #expect(superuser.status == 1)
      #expect(
        superuser.errors.hasPrefix(
          "notes: the role “postgres” is a superuser, which row-level security does not hold back"))
      // The tables' owner: a role that is not a superuser but owns them.
      _ = try bench.database.server.psql(
        "CREATE ROLE keeper LOGIN PASSWORD 'keeper pw'; ALTER TABLE notes_changes OWNER TO keeper",
        database: bench.database.name)
      let owner = try bench.notes(
        ["sync", "setup", bench.database.url(user: "keeper", password: "keeper pw")],
        library: library)
      #expect(owner.status == 1)
      #expect(owner.errors.contains("owns the sync server's tables, so a device never syncs as it"))
      // A role that is no account.
      _ = try bench.database.server.psql("CREATE ROLE stranger LOGIN PASSWORD 'pw'")
      let stranger = try bench.notes(
        ["sync", "setup", bench.database.url(user: "stranger", password: "pw")], library: library)
      #expect(stranger.status == 1)
      #expect(
        stranger.errors.contains(
          "the role “stranger” is not an account on this sync server: the operator adds it with"
            + " `notes server add-account stranger URL`"))
      // An account with the wrong password.
      try bench.addAccount("alice", password: "right")
      let wrong = try bench.notes(
        ["sync", "setup", bench.database.url(user: "alice", password: "wrong")], library: library)
      #expect(wrong.status == 1)
      #expect(wrong.errors.contains("password authentication failed for user \"alice\""))
      // Nothing was stored by any of them.
      #expect(
        try bench.notes(["sync", "status"], library: library).output
          == "sync is not set up for this library: run `notes sync setup URL`\n")
      #expect(bench.home.text(of: ".pgpass") == nil)
    }
  }

  @Test func setupReadsThePasswordFromStandardInputWhenTheURLHasNone() async throws {
    try await withBench { bench in
      try bench.addAccount("alice", password: "alice pw")
      let library = bench.home.file("a.notes")
      let url = bench.database.url(user: "alice", password: nil)
      // A wrong password: refused by the server, nothing stored.
      let wrong = try bench.notes(["sync", "setup", url], library: library, input: "nope\n")
      #expect(wrong.status == 1)
      #expect(wrong.errors.contains("password authentication failed for user \"alice\""))
      #expect(bench.home.text(of: ".pgpass") == nil)
      let none = try bench.notes(["sync", "setup", url], library: library, input: "")
      #expect(none.status == 65)
      #expect(none.errors == "notes: the password is empty; nothing was changed\n")
      #expect(
        try bench.notes(["sync", "status"], library: library).output
          == "sync is not set up for this library: run `notes sync setup URL`\n")
      // The right one, on standard input: stored in the password file, never printed, and
      // no warning (only a password in the URL gets one).
      let setup = try bench.notes(["sync", "setup", url], library: library, input: "alice pw\n")
      #expect(setup.status == 0, "\(setup.errors)")
      #expect(setup.errors == "")
      #expect(setup.output.contains("the password is in \(bench.home.path)/.pgpass"))
      #expect(!setup.output.contains("alice pw"))
      #expect(bench.home.text(of: ".pgpass")?.contains(":alice:alice pw") == true)
      #expect(try bench.notes(["sync"], library: library).status == 0)
      // Given in the URL, it still works, with a warning on standard error.
      let inURL = try bench.notes(
        ["sync", "setup", bench.database.url(user: "alice", password: "alice pw")],
        library: bench.home.file("b.notes"))
      #expect(inURL.status == 0, "\(inURL.errors)")
      #expect(inURL.errors.hasPrefix("warning: a password in the URL shows in the process list"))
    }
  }

  @Test func everyNameTheServerReservesIsRefusedInWordsBeforeAnythingChanges() async throws {
    try await withBench { bench in
      for name in ["none", "public", "current_user", "session_user", "current_role", "user"] {
        let added = try bench.notes(
          ["server", "add-account", name, bench.database.url], input: "pw\n")
        #expect(added.status == 64, "\(name): \(added)")
        #expect(
          added.errors == "notes: '\(name)' is reserved and cannot name an account\n",
          "\(name)")
      }
      let list = try bench.notes(["server", "list-accounts", bench.database.url])
      #expect(list.status == 0)
      #expect(!list.output.contains("none"))
    }
  }

  @Test func theOperatorAddsListsAndRemovesAccounts() async throws {
    try await withBench { bench in
      let url = bench.database.url
      try bench.addAccount("alice", password: "a")
      try bench.addAccount("bob", password: "b")
      // Refused, each changing nothing.
      let badName = try bench.notes(["server", "add-account", "Bob Smith", url], input: "x")
      #expect(badName.status == 64)
      #expect(badName.errors == "notes: an account name starts with a lower-case letter (a–z)\n")
      let empty = try bench.notes(["server", "add-account", "carol", url], input: "\n")
      #expect(empty.status == 65)
      #expect(empty.errors == "notes: the password is empty; nothing was changed\n")
      let twice = try bench.notes(["server", "add-account", "bob", url], input: "b")
      #expect(twice.status == 1)
      #expect(twice.errors.contains("a role named bob exists already"))
      let asAccount = try bench.notes(
        ["server", "list-accounts", bench.database.url(user: "alice", password: "a")])
      #expect(asAccount.status == 1)
      #expect(asAccount.errors.contains("is not the sync server's operator"))
      // Alice syncs a note; the list shows it.
      let library = bench.home.file("a.notes")
      _ = try bench.notes(
        ["add", "--notebook", "W", "--title", "T", "--create-notebook"], library: library)
      _ = try bench.notes(
        ["sync", "setup", bench.database.url(user: "alice", password: "a")], library: library)
      _ = try bench.notes(["sync"], library: library)
      let list = try bench.notes(["server", "list-accounts", url])
      let lines = list.output.split(separator: "\n").map { $0.split(separator: "\t") }
      #expect(
        lines.map { $0.prefix(4).joined(separator: " ") } == [
          "alice 1 device 1 notebook 1 note", "bob 0 devices 0 notebooks 0 notes",
        ])
      #expect(lines.last?.last == "last push never")
      // Alice holds notes: removed only with --yes.
      let unconfirmed = try bench.notes(["server", "remove-account", "alice", url])
      #expect(unconfirmed.status == 65)
      #expect(unconfirmed.errors.contains("the account alice holds 1 note and 1 notebook"))
      #expect(try bench.notes(["server", "list-accounts", url]).output.hasPrefix("alice\t"))
      let removed = try bench.notes(["server", "remove-account", "--yes", "alice", url])
      #expect(removed.status == 0, "\(removed.errors)")
      #expect(removed.output.contains("removed the account alice"))
      #expect(try bench.notes(["server", "list-accounts", url]).output.hasPrefix("bob\t"))
      #expect(
        try bench.database.server.psql("SELECT count(*) FROM pg_roles WHERE rolname = 'alice'")
          == "0\n")
      // Her library can no longer sync, and says why.
      let gone = try bench.notes(["sync"], library: library)
      #expect(gone.status == 1)
      #expect(gone.errors.contains("password authentication failed for user \"alice\""))
    }
  }

  @Test func withoutSetupOrServerSyncSaysWhyAndKeepsEverything() async throws {
    try await withBench { bench in
      let a = bench.home.file("a.notes")
      #expect(
        try bench.notes(["sync", "status"], library: a).output
          == "sync is not set up for this library: run `notes sync setup URL`\n")
      let notSetUp = try bench.notes(["sync"], library: a)
      #expect(notSetUp.status == 1)
      #expect(notSetUp.errors.contains("sync is not set up for this library"))
      let nowhere = "postgresql:///postgres?host=\(bench.home.path)/none&user=alice"
      let unreachable = try bench.notes(["sync", "setup", nowhere], library: a)
      #expect(unreachable.status == 69)
      #expect(unreachable.errors.hasPrefix("notes: cannot connect to the server:"))
      #expect(
        try bench.notes(["sync", "status"], library: a).output.hasPrefix("sync is not set up"))
      let unreadable = try bench.notes(["sync", "setup", "host='unterminated"], library: a)
      #expect(unreadable.status == 64)
      #expect(unreadable.errors.hasPrefix("notes: the server URL cannot be read:"))
      // Set up, then the server's database goes away: the sync fails, the change stays.
      try bench.addAccount("alice", password: "pw")
      let url = bench.database.url(user: "alice", password: "pw")
      #expect(try bench.notes(["sync", "setup", url], library: a).status == 0)
      #expect(
        try bench.notes(
          ["add", "--notebook", "Inbox", "--title", "Later", "--create-notebook"], library: a
        ).status == 0)
      _ = try bench.database.server.psql("ALTER ROLE alice NOLOGIN")
      let refused = try bench.notes(["sync"], library: a)
      #expect(refused.status == 1)
      #expect(refused.errors.contains("not permitted to log in"))
      #expect(
        try bench.notes(["sync", "status"], library: a).output.contains("pending: 2 changes\n"))
    }
  }

  @Test func badSyncCommandLinesAreUsageErrors() throws {
    let folder = try TemporaryFolder(prefix: "sync-cli-usage")
    defer { folder.remove() }
    let program = try #require(Programs.built("notes"), "the notes program is not built")
    func notes(_ words: [String]) throws -> ProgramResult {
      try Programs.run(
        program, words + ["--database", folder.file("a.notes")],
        environment: Programs.environment(home: folder.path), folder: folder)
    }
    let unknown = try notes(["sync", "now"])
    #expect(unknown.status == 64)
    #expect(unknown.errors.contains("'sync' takes setup URL, status or acknowledge, not 'now'"))
    let missing = try notes(["sync", "setup"])
    #expect(missing.status == 64)
    #expect(missing.errors.contains("'sync setup' needs URL"))
  }
}
