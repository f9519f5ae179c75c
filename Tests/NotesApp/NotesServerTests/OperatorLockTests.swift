// The operator's work and the accounts' syncs never wait for each other: an account that
// leaves a transaction open cannot stall an operator's command, and through it every other
// account; a command that must wait gives up after a bounded wait and says for whom.

import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesServer

@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(10)))
struct OperatorLockTests {
  typealias Bench = AccountIsolationTests.Bench

  /// Alice and bob, each with a notebook and a note pushed (``AccountIsolationTests``).
  func withBench(_ body: (Bench) throws -> Void) async throws {
    try await AccountIsolationTests().withBench(body)
  }

  /// The operator's connection; a statement of it that waits past `limit` fails instead
  /// of hanging the test.
  func operatorConnection(_ bench: Bench, limit: String = "5s") throws -> PostgresConnection {
    let connection = try PostgresConnection(url: bench.database.url)
    try connection.execute("SELECT set_config('statement_timeout', $1, false)", [limit])
    return connection
  }

  /// A change to a new notebook titled `title`.
  func newNotebook(_ bench: Bench, _ title: String) -> OutgoingChange {
    bench.change(.notebook, SyncBookkeepingStandIn.uid(), SyncFields(title: title, created: 1))
  }

  @Test func anAccountsOpenReadStallsNoOperatorCommandAndNoOtherAccount() async throws {
    try await withBench { bench in
      // Bob reads and leaves his transaction open, as any account may.
      let bob = try bench.connect("bob")
      defer { bob.close() }
      try bob.execute("BEGIN")
      try bob.execute("SELECT count(*) FROM notes_entities")
      try bob.execute("SELECT count(*) FROM notes_accounts")
      let admin = try operatorConnection(bench)
      defer { admin.close() }
      // Listing, adding and removing accounts take no lock his read holds off.
      let accounts = try ServerAccounts.list(on: admin)
      #expect(accounts.map(\.name) == ["alice", "bob"])
      #expect(accounts.map(\.notes) == [1, 1])
      try ServerAccounts.add("carol", password: "carol pw", on: admin)
      try ServerAccounts.remove("carol", confirmed: false, on: admin)
      #expect(try ServerAccounts.list(on: admin).map(\.name) == ["alice", "bob"])
      // Alice syncs meanwhile, within a lock timeout: she waits for nobody.
      let alice = try SyncServer(url: bench.url("alice", " options='-c lock_timeout=2000'"))
      defer { alice.close() }
      let outcomes = try alice.push(
        [newNotebook(bench, "Meanwhile")], device: Bench.devices["alice"]!)
      #expect(outcomes.count == 1)
      #expect(try alice.pull(.notebook, after: 0, upTo: alice.head(), limit: 10).count == 2)
      // Bob's transaction was never in the way, and is still his to end.
      #expect(try bob.execute("SELECT count(*) FROM notes_entities").singleValue == "2")
      try bob.execute("COMMIT")
    }
  }

  @Test func removingAnAccountWhosePushIsUnderWayGivesUpNamingItAndChangesNothing()
    async throws
  {
    try await withBench { bench in
      // Bob's push is under way: his account's row is locked, his transaction open.
      let bob = try bench.connect("bob")
      defer { bob.close() }
      try bob.execute("BEGIN")
      try bob.execute(SyncServer.accountLock)
      let admin = try operatorConnection(bench)
      defer { admin.close() }
      #expect {
        try ServerAccounts.remove("bob", confirmed: true, on: admin, lockWait: .milliseconds(500))
      } throws: { error in
        let error = error as? PostgresError
        return error?.sqlState == "55P03"
          && error?.message.hasPrefix(
            "gave up managing accounts after waiting 0.5 s for a lock held by an open"
              + " transaction of: bob (idle in transaction since ") == true
          && error?.message.hasSuffix("; nothing was changed, try again later") == true
      }
      // Alice pushed meanwhile without waiting, and bob is still there with his notes.
      let alice = try SyncServer(url: bench.url("alice", " options='-c lock_timeout=2000'"))
      defer { alice.close() }
      #expect(
        try alice.push([newNotebook(bench, "Meanwhile")], device: Bench.devices["alice"]!).count
          == 1)
      try bob.execute("ROLLBACK")
      #expect(try ServerAccounts.list(on: admin).map(\.notes) == [1, 1])
      // With the push ended, the removal goes through.
      try ServerAccounts.remove("bob", confirmed: true, on: admin)
      #expect(try ServerAccounts.list(on: admin).map(\.name) == ["alice"])
    }
  }

  @Test func anUpgradeThatMustWaitForAnAccountGivesUpNamingItAndChangesNothing() async throws {
    try await TestDatabase.with { database in
      let admin = try PostgresConnection(url: database.url)
      defer { admin.close() }
      _ = try ServerSchema.prepare(admin, legacyAccount: nil, upTo: ServerSchema.version - 1)
      // An account as the schema before this one had them (adding one needs the current
      // schema).
      try admin.execute(
        "CREATE ROLE anna LOGIN PASSWORD 'anna pw' IN ROLE \(ServerSchema.accountsRole)")
      try admin.execute("INSERT INTO notes_accounts (account) VALUES ('anna')")
      // Anna's device reads and leaves its transaction open: an upgrade must change the
      // tables she reads, so it waits for her, but not forever.
      let anna = try PostgresConnection(url: database.url(user: "anna", password: "anna pw"))
      defer { anna.close() }
      try anna.execute("BEGIN")
      try anna.execute("SELECT count(*) FROM notes_entities")
      #expect {
        try ServerSchema.prepare(admin, lockWait: .milliseconds(500))
      } throws: { error in
        let message = (error as? PostgresError)?.message ?? ""
        return message.hasPrefix(
          "gave up preparing the server's tables after waiting 0.5 s for a lock held by an open"
            + " transaction of: anna (idle in transaction since ")
      }
      #expect(
        try admin.execute("SELECT version FROM notes_schema").singleValue
          == String(ServerSchema.version - 1))
      try anna.execute("COMMIT")
      #expect(try ServerSchema.prepare(admin) == .upgraded(from: ServerSchema.version - 1))
    }
  }
}
