// The numbers a device pages by: unique per kind, bounded by a head that comes from the log
// alone, whatever a hand edit or a bad restore leaves in the entities' table.

import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesServer

@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(10)))
struct LogNumbersTests {
  typealias Bench = AccountIsolationTests.Bench

  func withBench(_ body: (Bench) throws -> Void) async throws {
    try await AccountIsolationTests().withBench(body)
  }

  /// A change to a new note titled `title`, in a new notebook's uid (the server does not
  /// check that the notebook exists).
  func newNote(_ bench: Bench, _ title: String, uid: String = SyncBookkeepingStandIn.uid())
    -> OutgoingChange
  {
    bench.change(
      .note, uid,
      SyncFields(title: title, body: "", notebook: SyncBookkeepingStandIn.uid(), created: 1))
  }

  /// The sequence number of `account`'s note titled `title`, read by the superuser.
  func seq(of title: String, _ account: String, on admin: PostgresConnection) throws -> Int64 {
    let value = try admin.execute(
      "SELECT seq FROM notes_entities WHERE account = $1 AND payload->>'title' = $2",
      [account, title]
    ).singleValue
    return try #require(value.flatMap { Int64($0) }, "no note \(title) of \(account)")
  }

  @Test func twoVersionsOfOneKindNeverShareANumber() async throws {
    try await withBench { bench in
      let alice = try SyncServer(url: bench.url("alice"))
      defer { alice.close() }
      _ = try alice.push([newNote(bench, "Second")], device: Bench.devices["alice"]!)
      let admin = try PostgresConnection(url: bench.database.url)
      defer { admin.close() }
      // A hand edit that would put two notes under one number, where a page can end
      // between them, is refused.
      #expect {
        try admin.execute(
          "UPDATE notes_entities SET seq = $1::bigint WHERE account = 'alice'"
            + " AND payload->>'title' = 'Second'",
          [String(try seq(of: "Alice's plan", "alice", on: admin))])
      } throws: { error in
        (error as? PostgresError)?.sqlState == "23505"
      }
      // Versions of one account's two kinds, and of two accounts, may share one: a pull
      // pages each kind of its own account.
      let notebook = try admin.execute(
        "SELECT seq FROM notes_entities WHERE account = 'alice' AND entity = 'notebook'"
      ).singleValue
      try admin.execute(
        "UPDATE notes_entities SET seq = $1::bigint WHERE account = 'bob' AND entity = 'note'",
        [notebook])
    }
  }

  @Test func theHeadIsTheLogsAndAVersionNumberedPastItIsCountedNotPulled() async throws {
    try await withBench { bench in
      let alice = try SyncServer(url: bench.url("alice"))
      defer { alice.close() }
      let admin = try PostgresConnection(url: bench.database.url)
      defer { admin.close() }
      let head = try alice.head()
      #expect(try alice.logHead() == SyncServer.LogHead(seq: head, versionsPastHead: 0))
      // A hand edit numbers alice's note far past anything her log has.
      let original = try seq(of: "Alice's plan", "alice", on: admin)
      try admin.execute(
        "UPDATE notes_entities SET seq = seq + 1000000 WHERE account = 'alice'"
          + " AND entity = 'note'")
      #expect(try alice.logHead() == SyncServer.LogHead(seq: head, versionsPastHead: 1))
      #expect(try alice.pull(.note, after: 0, upTo: head, limit: 10).isEmpty)
      #expect(try alice.count(after: 0) == 1, "the notebook only")
      // Her next push moves the head to its own number, never to the stray one.
      let outcomes = try alice.push([newNote(bench, "Next")], device: Bench.devices["alice"]!)
      guard case .accepted(let next) = outcomes.first else {
        Issue.record("refused: \(outcomes)")
        return
      }
      #expect(next > head && next < original + 1_000_000)
      #expect(try alice.logHead() == SyncServer.LogHead(seq: next, versionsPastHead: 1))
      #expect(try alice.pull(.note, after: head, upTo: next, limit: 10).map(\.seq) == [next])
      // The stray version's entity changes again (from the version it holds): the change
      // replaces it, numbered from the log.
      let uid = try #require(
        try admin.execute(
          "SELECT entity_id FROM notes_entities WHERE account = 'alice' AND seq > $1::bigint",
          [String(next)]
        ).singleValue)
      var change = newNote(bench, "Alice's plan, again", uid: uid)
      change.baseSeq = original + 1_000_000
      let again = try alice.push([change], device: Bench.devices["alice"]!)
      guard case .accepted(let replaced) = again.first else {
        Issue.record("refused: \(again)")
        return
      }
      #expect(try alice.logHead() == SyncServer.LogHead(seq: replaced, versionsPastHead: 0))
      #expect(try seq(of: "Alice's plan, again", "alice", on: admin) == replaced)
      // A head past the log's end (tables restored behind the server's back) is not
      // believed: the log's own end is the head.
      try admin.execute(
        "UPDATE notes_accounts SET log_head = log_head + 500 WHERE account = 'alice'")
      #expect(try alice.head() == replaced)
      // Only the server writes the head.
      let raw = try bench.connect("alice")
      defer { raw.close() }
      #expect {
        try raw.execute("UPDATE notes_accounts SET log_head = 1")
      } throws: { error in
        (error as? PostgresError)?.sqlState == "42501"
      }
    }
  }

  @Test func anUpgradeMakesTheVersionsWhatTheLogSaysSoAPullMissesNone() async throws {
    try await TestDatabase.with { database in
      let admin = try PostgresConnection(url: database.url)
      defer { admin.close() }
      _ = try ServerSchema.prepare(admin, legacyAccount: nil, upTo: ServerSchema.version - 1)
      try admin.execute(
        "CREATE ROLE anna LOGIN PASSWORD 'anna pw' IN ROLE \(ServerSchema.accountsRole)")
      let device = try ServerSchemaTests.recordAnnasNotebookChange(on: admin)
      var uids: [String] = []
      for index in 1...5 {
        let uid = SyncBookkeepingStandIn.uid()
        uids.append(uid)
        try admin.execute(
          """
          INSERT INTO notes_changes (account, change_id, device_id, entity, entity_id, payload)
          VALUES ('anna', gen_random_uuid(), $1::uuid, 'note', $2, jsonb_build_object(
            'title', $3::text, 'body', '', 'notebook', $4::text, 'pinned', false,
            'created', 1, 'modified', 1))
          """, [device, uid, "Note \(index)", ServerSchemaTests.notebook])
      }
      // What an older server let a hand edit or a bad restore leave: the third note under
      // the second's number (where a page of two ends), the fifth far past the log, and a
      // version no change made.
      try admin.execute(
        """
        UPDATE notes_entities SET seq = (SELECT seq FROM notes_entities WHERE entity_id = $1)
        WHERE entity_id = $2
        """, [uids[1], uids[2]])
      try admin.execute(
        "UPDATE notes_entities SET seq = seq + 1000000 WHERE entity_id = $1", [uids[4]])
      try admin.execute(
        """
        INSERT INTO notes_entities (account, entity, entity_id, seq, payload)
        SELECT account, entity, $1, seq + 2000000, payload FROM notes_entities
        WHERE entity_id = $2
        """, [SyncBookkeepingStandIn.uid(), uids[0]])
      #expect(try ServerSchema.prepare(admin) == .upgraded(from: ServerSchema.version - 1))
      // Every version is its entity's newest change, and a pull of two notes a page brings
      // each note once.
      let anna = try SyncServer(url: database.url(user: "anna", password: "anna pw"))
      defer { anna.close() }
      let head = try anna.logHead()
      #expect(head.versionsPastHead == 0)
      var pulled: [String] = []
      var cursor: Int64 = 0
      while true {
        let page = try anna.pull(.note, after: cursor, upTo: head.seq, limit: 2)
        pulled += page.map(\.uid)
        guard page.count == 2, let last = page.last else { break }
        cursor = last.seq
      }
      #expect(pulled.sorted() == uids.sorted())
      #expect(
        try admin.execute(
          """
          SELECT count(*) FROM notes_entities e WHERE e.seq <> (SELECT max(seq) FROM notes_changes c
            WHERE c.entity_id = e.entity_id AND c.entity = e.entity AND c.account = e.account)
          """
        ).singleValue == "0")
      #expect(
        try admin.execute("SELECT count(*) FROM notes_entities WHERE entity = 'note'").singleValue
          == "5")
      #expect(
        try admin.execute("SELECT log_head FROM notes_accounts").singleValue == String(head.seq))
    }
  }
}
