// Two accounts on one server, each trying with hand-written SQL and its own credentials to
// reach the other's rows — and the sync protocol's own isolation: devices, signals, locks.

import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesServer

@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(10)))
struct AccountIsolationTests {
  /// A database with the tables and the accounts alice and bob, each with one device that
  /// pushed a notebook and a note.
  struct Bench {
    let database: TestDatabase
    static let passwords = ["alice": "alice pw", "bob": "bob pw"]
    static let devices = [
      "alice": "a11ce000-0000-4000-8000-000000000001",
      "bob": "b0b00000-0000-4000-8000-000000000001",
    ]

    /// The URL of `account`, with extra libpq settings appended.
    func url(_ account: String, _ extra: String = "") -> String {
      database.url(user: account, password: Self.passwords[account]) + extra
    }

    /// A raw connection as `account`.
    func connect(_ account: String) throws -> PostgresConnection {
      try PostgresConnection(url: url(account))
    }

    /// A notebook and a note in it, as `account`'s device pushes them; returns the note's uid.
    @discardableResult
    func pushNotebookAndNote(as account: String, title: String) throws -> String {
      let server = try SyncServer(url: url(account))
      defer { server.close() }
      let notebook = SyncBookkeepingStandIn.uid()
      let note = SyncBookkeepingStandIn.uid()
      let outcomes = try server.push(
        [
          change(.notebook, notebook, SyncFields(title: "\(title) notebook", created: 1)),
          change(
            .note, note, SyncFields(title: title, body: "private", notebook: notebook, created: 1)
          ),
        ], device: Self.devices[account]!)
      #expect(outcomes.allSatisfy { if case .accepted = $0 { true } else { false } })
      return note
    }

    func change(_ kind: SyncEntityKind, _ uid: String, _ fields: SyncFields) -> OutgoingChange {
      OutgoingChange(
        changeID: SyncBookkeepingStandIn.uid(), baseSeq: 0,
        record: SyncRecord(kind: kind, uid: uid, fields: fields))
    }
  }

  func withBench(_ body: (Bench) throws -> Void) async throws {
    try await TestDatabase.with { database in
      let admin = try PostgresConnection(url: database.url)
      defer { admin.close() }
      try ServerSchema.prepare(admin)
      for (name, password) in Bench.passwords {
        try ServerAccounts.add(name, password: password, on: admin)
      }
      let bench = Bench(database: database)
      try bench.pushNotebookAndNote(as: "alice", title: "Alice's plan")
      try bench.pushNotebookAndNote(as: "bob", title: "Bob's plan")
      try body(bench)
    }
  }

  /// The SQLSTATE of the error `statement` throws, or `nil` if it succeeds.
  func refusal(_ connection: PostgresConnection, _ statement: String) -> String? {
    do {
      try connection.execute(statement)
      return nil
    } catch {
      return error.sqlState ?? "no SQLSTATE: \(error.message)"
    }
  }

  @Test func anAccountReadsNoOtherAccountsRowsWithItsOwnSQL() async throws {
    try await withBench { bench in
      let bob = try bench.connect("bob")
      defer { bob.close() }
      for table in ["notes_entities", "notes_changes", "notes_devices", "notes_accounts"] {
        let owners = try bob.execute("SELECT DISTINCT account FROM \(table)")
        #expect(owners.rows == [["bob"]], "\(table)")
      }
      #expect(
        try bob.execute("SELECT count(*) FROM notes_entities WHERE account = 'alice'")
          .singleValue == "0")
      #expect(
        try bob.execute("SELECT count(*) FROM notes_changes WHERE payload->>'body' = 'private'")
          .singleValue == "1")
      // The superuser sees both: the rows are there, and only bob's were shown to bob.
      let admin = try PostgresConnection(url: bench.database.url)
      defer { admin.close() }
      #expect(try admin.execute("SELECT count(*) FROM notes_entities").singleValue == "4")
    }
  }

  @Test func anAccountChangesDeletesAndInsertsNothingUnderAnothersName() async throws {
    try await withBench { bench in
      let bob = try bench.connect("bob")
      defer { bob.close() }
      // Update: the versions are the server's to write (from the changes pushed), and no
      // account's own rows can be given to another.
      #expect(
        refusal(bob, "UPDATE notes_entities SET payload = NULL WHERE account = 'alice'")
          == "42501")
      #expect(refusal(bob, "UPDATE notes_entities SET account = 'alice'") == "42501")
      #expect(refusal(bob, "UPDATE notes_accounts SET account = 'alice'") == "42501")
      #expect(refusal(bob, "UPDATE notes_changes SET payload = NULL") == "42501")
      // Delete and truncate: not granted at all.
      for table in ["notes_entities", "notes_changes", "notes_devices", "notes_accounts"] {
        #expect(refusal(bob, "DELETE FROM \(table)") == "42501", "\(table)")
        #expect(refusal(bob, "TRUNCATE \(table)") == "42501", "\(table)")
      }
      // Insert under alice's name: refused by the policies' WITH CHECK.
      let aliceDevice = Bench.devices["alice"]!
      let note = SyncBookkeepingStandIn.uid()
      #expect(
        refusal(
          bob,
          "INSERT INTO notes_devices (device_id, account)"
            + " VALUES ('\(SyncBookkeepingStandIn.uid())', 'alice')"
        ) == "42501")
      #expect(
        refusal(
          bob,
          "INSERT INTO notes_changes (account, change_id, device_id, entity, entity_id, payload)"
            + " VALUES ('alice', gen_random_uuid(), '\(aliceDevice)', 'note', '\(note)', NULL)")
          == "42501")
      // … or under his own name with her device: the device is hers.
      #expect(
        refusal(
          bob,
          "INSERT INTO notes_changes (change_id, device_id, entity, entity_id, payload)"
            + " VALUES (gen_random_uuid(), '\(aliceDevice)', 'note', '\(note)', NULL)")
          == "23503")
      #expect(
        refusal(
          bob,
          "INSERT INTO notes_entities (account, entity, entity_id, seq, payload)"
            + " SELECT 'alice', entity, entity_id, seq, payload FROM notes_changes LIMIT 1")
          == "42501")
      // Alice's rows are as she pushed them.
      let alice = try SyncServer(url: bench.url("alice"))
      defer { alice.close() }
      let head = try alice.head()
      let notes = try alice.pull(.note, after: 0, upTo: head, limit: 10)
      #expect(notes.count == 1)
      if case .accepted(let record)? = notes.first {
        #expect(record.record.fields?.title == "Alice's plan")
        #expect(record.record.fields?.body == "private")
      } else {
        Issue.record("alice's note is not hers as she pushed it: \(notes)")
      }
    }
  }

  @Test func aDeviceIdBelongsToTheAccountThatRegisteredIt() async throws {
    try await withBench { bench in
      let bob = try SyncServer(url: bench.url("bob"))
      defer { bob.close() }
      let uid = SyncBookkeepingStandIn.uid()
      #expect {
        try bob.push(
          [bench.change(.notebook, uid, SyncFields(title: "Taken", created: 1))],
          device: Bench.devices["alice"]!)
      } throws: { error in
        (error as? PostgresError)?.message.hasPrefix(
          "this device's id \(Bench.devices["alice"]!) is registered to another account") == true
      }
      let raw = try bench.connect("bob")
      defer { raw.close() }
      #expect(
        refusal(
          raw, "INSERT INTO notes_devices (device_id) VALUES ('\(Bench.devices["alice"]!)')")
          == "23505")
    }
  }

  @Test func aChangeIdIsAcceptedOncePerAccountAndNeverCollidesWithAnothers() async throws {
    try await withBench { bench in
      let change = bench.change(
        .notebook, SyncBookkeepingStandIn.uid(), SyncFields(title: "Once", created: 1))
      for account in ["alice", "bob"] {
        let server = try SyncServer(url: bench.url(account))
        defer { server.close() }
        let first = try server.push([change], device: Bench.devices[account]!)
        // The retry after a lost acknowledgement: recognised, not applied again.
        #expect(try server.push([change], device: Bench.devices[account]!) == first)
        #expect(try server.accepted([change.changeID]).count == 1)
      }
      let admin = try PostgresConnection(url: bench.database.url)
      defer { admin.close() }
      #expect(
        try admin.execute(
          "SELECT count(*) FROM notes_changes WHERE change_id = $1::uuid", [change.changeID]
        ).singleValue == "2")
    }
  }

  @Test func eachAccountHearsOnlyItsOwnPushesOnAChannelOthersCannotLearn() async throws {
    try await withBench { bench in
      let alice = try SyncServer(url: bench.url("alice"))
      defer { alice.close() }
      let bob = try SyncServer(url: bench.url("bob"))
      defer { bob.close() }
      #expect(alice.account.channel != bob.account.channel)
      #expect(alice.account.channel.count == 38 && alice.account.channel.hasPrefix("notes_"))
      let raw = try bench.connect("bob")
      defer { raw.close() }
      #expect(try raw.execute("SELECT channel FROM notes_accounts").rows == [[bob.account.channel]])
      let listener = try bench.connect("alice")
      defer { listener.close() }
      try listener.listen(alice.account.channel)
      // Bob pushes, then alice: the first signal alice's channel carries is her own push.
      _ = try bob.push(
        [bench.change(.notebook, SyncBookkeepingStandIn.uid(), SyncFields(title: "B", created: 1))],
        device: Bench.devices["bob"]!)
      let outcome = try alice.push(
        [bench.change(.notebook, SyncBookkeepingStandIn.uid(), SyncFields(title: "A", created: 1))],
        device: Bench.devices["alice"]!)
      guard case .accepted(let seq)? = outcome.first else {
        Issue.record("alice's push was refused")
        return
      }
      let signals = try listener.notifications(waitingUpTo: .seconds(30))
      #expect(
        signals.map(\.payload) == ["\(seq) \(alice.sender) \(Bench.devices["alice"]!)"])
    }
  }

  @Test func pushesOfDifferentAccountsDoNotWaitForEachOther() async throws {
    try await withBench { bench in
      // Bob's push is under way (his account's row locked, its transaction open).
      let bob = try bench.connect("bob")
      defer { bob.close() }
      try bob.execute("BEGIN")
      try bob.execute(SyncServer.accountLock)
      // Alice pushes meanwhile: a wait of any length would be a lock timeout.
      let guarded = " options='-c lock_timeout=5000'"
      let alice = try SyncServer(url: bench.url("alice", guarded))
      defer { alice.close() }
      let outcome = try alice.push(
        [bench.change(.notebook, SyncBookkeepingStandIn.uid(), SyncFields(title: "A", created: 1))],
        device: Bench.devices["alice"]!)
      #expect(outcome.count == 1)
      // Another of bob's devices does wait for his first: the lock is per account.
      let impatient = " options='-c lock_timeout=1'"
      let bobsOther = try SyncServer(url: bench.url("bob", impatient))
      defer { bobsOther.close() }
      #expect {
        try bobsOther.push(
          [
            bench.change(
              .notebook, SyncBookkeepingStandIn.uid(), SyncFields(title: "B", created: 1))
          ],
          device: Bench.devices["bob"]!)
      } throws: { error in
        (error as? PostgresError)?.sqlState == "55P03"
      }
      try bob.execute("ROLLBACK")
    }
  }

  @Test func anAccountsQueriesFindItsRowsThroughTheAccountIndexes() async throws {
    try await withBench { bench in
      // With many accounts, a policy no index can serve would make every account read every
      // account's rows in a range: the policy's condition must be an index condition.
      let bob = try bench.connect("bob")
      defer { bob.close() }
      try bob.execute("SET enable_seqscan = off")
      for (table, query) in [
        ("notes_entities", "SELECT seq FROM notes_entities WHERE entity = 'note' AND seq > 0"),
        (
          "notes_changes",
          "SELECT seq FROM notes_changes WHERE change_id = 'a11ce000-0000-4000-8000-0000000000ff'"
        ),
      ] {
        let plan = try bob.execute("EXPLAIN (COSTS OFF) " + query).rows.compactMap { $0[0] }
        #expect(
          plan.contains { $0.contains("Index Cond: ((account = ") },
          "\(table):\n\(plan.joined(separator: "\n"))")
      }
      // On tables full of versions the server has not analysed yet (a first push is one
      // transaction): a push finds an entity's current version by the primary key, and a
      // page reads one range of its kind's index, in order.
      try bob.execute("RESET enable_seqscan")
      try bob.execute("BEGIN")
      try bob.execute(
        """
        INSERT INTO notes_changes (change_id, device_id, entity, entity_id, payload)
        SELECT gen_random_uuid(), $1::uuid, 'note', gen_random_uuid()::text, NULL
        FROM generate_series(1, 5000)
        """, [Bench.devices["bob"]!])
      // (The server's trigger made them the entities' versions.)
      // A push's batch: each change looked up one by one, by the primary key and the
      // (account, change id) index, never by reading a table through.
      let pushPlan = try Self.pushPlan(of: bench, on: bob, as: "bob")
      #expect(pushPlan.contains("using notes_entities_pkey on notes_entities e"), "\(pushPlan)")
      #expect(pushPlan.contains("using notes_changes_once on notes_changes c"), "\(pushPlan)")
      #expect(!pushPlan.contains("Seq Scan on notes_"), "\(pushPlan)")
      let queries = [
        (
          "notes_entities_notebooks",
          "SELECT seq FROM notes_entities WHERE entity = 'notebook' AND seq > 3 ORDER BY seq"
        ),
        (
          "notes_entities_notes",
          "SELECT seq FROM notes_entities WHERE entity = 'note' AND seq > 3 ORDER BY seq LIMIT 1000"
        ),
      ]
      for (index, query) in queries {
        let plan = try bob.execute("EXPLAIN (COSTS OFF) " + query).rows.compactMap { $0[0] }
        #expect(plan.contains { $0.contains(index) }, "\(plan.joined(separator: "\n"))")
      }
      try bob.execute("ROLLBACK")
    }
  }

  /// The plan of a push's batch statement holding one new note, on `connection`, the
  /// account `account`'s.
  static func pushPlan(
    of bench: Bench, on connection: PostgresConnection, as account: String
  ) throws -> String {
    let batch = SyncServer.PushBatch.split([
      bench.change(.note, SyncBookkeepingStandIn.uid(), SyncFields(title: "x", created: 1))
    ])[0]
    return try connection.execute(
      "EXPLAIN (COSTS OFF) " + SyncServer.PushBatch.statement,
      batch.parameters(device: Bench.devices[account]!)
    ).rows.compactMap { $0[0] }.joined(separator: "\n")
  }

  @Test func aNewAccountsQueriesUseTheirKeysWhenTheStatisticsKnowOnlyAnotherAccount()
    async throws
  {
    try await withBench { bench in
      // Bob fills the tables and the server analyses them: its statistics say every row is
      // Bob's, so Alice, with none yet, looks to have none, and an index led by the account
      // alone looks free to her queries.
      let bob = try bench.connect("bob")
      defer { bob.close() }
      try bob.execute(
        """
        INSERT INTO notes_changes (change_id, device_id, entity, entity_id, payload)
        SELECT gen_random_uuid(), $1::uuid, 'note', gen_random_uuid()::text, NULL
        FROM generate_series(1, 100000)
        """, [Bench.devices["bob"]!])
      let admin = try PostgresConnection(url: bench.database.url)
      defer { admin.close() }
      try admin.execute("ANALYZE notes_changes")
      try admin.execute("ANALYZE notes_entities")
      let alice = try bench.connect("alice")
      defer { alice.close() }
      // Her push looks each change up by its id and each entity by its key.
      let pushPlan = try Self.pushPlan(of: bench, on: alice, as: "alice")
      #expect(pushPlan.contains("using notes_changes_once on notes_changes c"), "\(pushPlan)")
      #expect(pushPlan.contains("using notes_entities_pkey on notes_entities e"), "\(pushPlan)")
      // The same with the plan a connection settles on for its prepared statement after a
      // few batches, made without the parameters' values.
      try alice.execute("SET plan_cache_mode = force_generic_plan")
      try alice.execute("PREPARE push_batch AS " + SyncServer.PushBatch.statement)
      let empty = Array(repeating: "'{}'", count: 11).joined(separator: ", ")
      let genericPlan = try alice.execute(
        "EXPLAIN (COSTS OFF) EXECUTE push_batch(\(empty), '\(Bench.devices["alice"]!)')"
      ).rows.compactMap { $0[0] }.joined(separator: "\n")
      #expect(
        genericPlan.contains("using notes_changes_once on notes_changes c"), "\(genericPlan)")
      #expect(
        genericPlan.contains("using notes_entities_pkey on notes_entities e"), "\(genericPlan)")
      try alice.execute("RESET plan_cache_mode")
      // After a refused push, she reads the entities it named, each by its key.
      let ids = (0..<50).map { _ in SyncBookkeepingStandIn.uid() }
      let versionsPlan = try alice.execute(
        "EXPLAIN (COSTS OFF) " + SyncServer.selectVersionsOfEntities,
        ["note", SyncServer.textArray(ids)]
      ).rows.compactMap { $0[0] }.joined(separator: "\n")
      #expect(
        versionsPlan.contains("using notes_entities_pkey on notes_entities e"), "\(versionsPlan)")
      #expect(!versionsPlan.contains("notes_entities_notes"), "\(versionsPlan)")
      // Her pull reads its kind's index in order.
      let page = try alice.execute(
        "EXPLAIN (COSTS OFF) SELECT seq FROM notes_entities WHERE entity = 'note' AND seq > 3"
          + " ORDER BY seq LIMIT 1000"
      ).rows.compactMap { $0[0] }
      #expect(page.contains { $0.contains("notes_entities_notes") }, "\(page)")
    }
  }

  @Test func aWrongPasswordIsRefusedWithAClearMessage() async throws {
    try await withBench { bench in
      #expect {
        _ = try PostgresConnection(url: bench.database.url(user: "alice", password: "bob pw"))
      } throws: { error in
        let error = error as? PostgresError
        return error?.message.hasPrefix("cannot connect to the server:") == true
          && error?.message.contains("password authentication failed for user \"alice\"") == true
          && error?.isUnavailable == false
      }
    }
  }
}

/// Fresh lower-case UUIDs, as a device makes ids (the library's own maker is internal to
/// its module).
enum SyncBookkeepingStandIn {
  static func uid() -> String { UUID().uuidString.lowercased() }
}
