import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesServer

/// The sync server's connection and schema, against a real PostgreSQL the suite starts
/// (and stops) itself; each test has a database of its own.
@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(10)))
struct ServerSchemaTests {
  /// Runs `body` with the superuser's connection to a database of its own, dropped
  /// afterwards whatever happens.
  func withServer(_ body: (TestDatabase, PostgresConnection) throws -> Void) async throws {
    try await TestDatabase.with { database in
      let connection = try PostgresConnection(url: database.url)
      defer { connection.close() }
      try body(database, connection)
    }
  }

  @Test func parametersTravelApartFromTheStatement() async throws {
    try await withServer { _, connection in
      let rows = try connection.execute(
        "SELECT $1::text AS text, $2::int + 1 AS number, $3::text IS NULL AS missing",
        ["'; DROP TABLE x; -- Straße 三体", "41", nil])
      #expect(rows.columns == ["text", "number", "missing"])
      #expect(rows.rows == [["'; DROP TABLE x; -- Straße 三体", "42", "t"]])
    }
  }

  @Test func aRefusedStatementSaysWhyAndTheConnectionGoesOn() async throws {
    try await withServer { _, connection throws in
      #expect {
        try connection.execute("SELECT * FROM no_such_table")
      } throws: { error in
        let error = error as? PostgresError
        return error?.sqlState == "42P01" && error?.message.contains("no_such_table") == true
      }
      #expect(try connection.execute("SELECT 1").singleValue == "1")
    }
  }

  @Test func aServerThatIsNotThereIsAClearError() throws {
    let folder = try TemporaryFolder(prefix: "pg-none")
    defer { folder.remove() }
    #expect {
      _ = try PostgresConnection(url: "postgresql:///postgres?host=\(folder.path)&user=postgres")
    } throws: { error in
      (error as? PostgresError)?.message.hasPrefix("cannot connect to the server:") == true
    }
  }

  @Test func prepareCreatesTheTablesOnceAndThenLeavesThem() async throws {
    try await withServer { _, connection in
      #expect(try ServerSchema.prepare(connection) == .created)
      let tables = try connection.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
          + " ORDER BY table_name")
      #expect(
        tables.rows.map { $0[0] ?? "" }
          == ["notes_accounts", "notes_changes", "notes_devices", "notes_entities", "notes_schema"])
      #expect(
        try connection.execute("SELECT version FROM notes_schema").singleValue
          == String(ServerSchema.version))
      // Row-level security enabled and forced on every table: the owner is held too.
      let secured = try connection.execute(
        "SELECT relname FROM pg_class WHERE relname LIKE 'notes\\_%' AND relkind = 'r'"
          + " AND relrowsecurity AND relforcerowsecurity ORDER BY relname")
      #expect(secured.rows.map { $0[0] ?? "" } == ServerSchema.securedTables.sorted())
      #expect(try ServerSchema.prepare(connection) == .current)
      #expect(try connection.execute("SELECT count(*) FROM notes_schema").singleValue == "1")
    }
  }

  @Test func aVersion1ServerIsUpgradedWithNothingLost() async throws {
    try await expectUpgrade(from: 1)
  }

  @Test func aVersion2ServerIsUpgradedWithNothingLost() async throws {
    try await expectUpgrade(from: 2)
  }

  @Test func aVersion3ServerIsUpgradedAndItsNotesGoToTheAccountNamed() async throws {
    try await expectUpgrade(from: 3)
  }

  /// A server at `version` holding one device's notebook and note upgrades to accounts:
  /// every row goes to the account named, whose login role `add-account` then makes, and
  /// a device of that account reads them back through row-level security.
  func expectUpgrade(from version: Int) async throws {
    try await withServer { database, connection in
      try expectUpgrade(from: version, database: database, connection: connection)
    }
  }

  func expectUpgrade(
    from version: Int, database: TestDatabase, connection: PostgresConnection
  ) throws {
    _ = try ServerSchema.prepare(connection, legacyAccount: nil, upTo: version)
    let old = try connection.execute("SELECT version FROM notes_schema").singleValue
    #expect(old == String(version))
    try Self.recordNotebookAndNote(on: connection)
    #expect(
      try ServerSchema.prepare(connection, legacyAccount: "anna") == .upgraded(from: version))
    #expect(
      try connection.execute("SELECT version FROM notes_schema").singleValue
        == String(ServerSchema.version))
    for table in ["notes_devices", "notes_changes", "notes_entities"] {
      #expect(
        try connection.execute("SELECT string_agg(DISTINCT account, ',') FROM \(table)")
          .singleValue == "anna")
    }
    #expect(
      try connection.execute(
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'notes_entities_notebooks'"
      ).singleValue?.hasSuffix("(account, seq) WHERE (entity = 'notebook'::text)") == true)
    #expect(try ServerSchema.prepare(connection) == .current)
    // Anna logs in for the first time: her devices see what was there.
    try ServerAccounts.add("anna", password: "anna's password", on: connection)
    let server = try SyncServer(url: database.url(user: "anna", password: "anna's password"))
    defer { server.close() }
    let head = try server.head()
    #expect(head == 2)
    let notes = try server.pull(.note, after: 0, upTo: head, limit: 10)
    guard case .accepted(let note)? = notes.first else {
      Issue.record("the note did not come back: \(notes)")
      return
    }
    #expect(note.record.fields?.title == "Plan" && note.record.fields?.notebook == Self.notebook)
  }

  @Test func aVersion4ServerKeepsItsVersionsAndTheServerWritesEntitiesFromThenOn() async throws {
    try await TestDatabase.with { database in
      let connection = try PostgresConnection(url: database.url)
      defer { connection.close() }
      _ = try ServerSchema.prepare(connection, legacyAccount: nil, upTo: 4)
      // Anna's notebook as a version 4 push left it: a change and her entity's version.
      let device = try Self.recordAnnasNotebookChange(on: connection)
      try connection.execute(
        "INSERT INTO notes_entities (account, entity, entity_id, seq, payload)"
          + " SELECT account, entity, entity_id, seq, payload FROM notes_changes")
      #expect(try ServerSchema.prepare(connection) == .upgraded(from: 4))
      try ServerAccounts.add("anna", password: "anna's password", on: connection)
      let url = database.url(user: "anna", password: "anna's password")
      let anna = try PostgresConnection(url: url)
      defer { anna.close() }
      // She may no longer write versions herself, only push changes.
      #expect {
        try anna.execute("UPDATE notes_entities SET payload = NULL")
      } throws: { error in (error as? PostgresError)?.sqlState == "42501" }
      #expect {
        try anna.execute(
          "INSERT INTO notes_entities (entity, entity_id, seq, payload)"
            + " SELECT entity, entity_id, seq, NULL FROM notes_changes")
      } throws: { error in (error as? PostgresError)?.sqlState == "42501" }
      // A change she inserts becomes the version, by the server's trigger; an older change
      // of the same entity in a later statement does not take its place.
      try anna.execute(
        "INSERT INTO notes_changes (change_id, device_id, entity, entity_id, payload)"
          + " VALUES (gen_random_uuid(), $1::uuid, 'notebook', $2, NULL)",
        [device, Self.notebook])
      #expect(
        try anna.execute(
          "SELECT seq || ':' || coalesce(payload::text, 'deleted') FROM notes_entities"
        ).singleValue == "2:deleted")
      // Her pull finds the version the upgrade kept, then the deletion.
      let server = try SyncServer(url: url)
      defer { server.close() }
      #expect(try server.head() == 2)
      #expect(try server.pull(.notebook, after: 0, upTo: 2, limit: 10).count == 1)
    }
  }

  @Test func aVersion5ServerKeepsItsVersionsAndItsAccountsApartWithKeysInBytes() async throws {
    try await TestDatabase.with { database in
      let connection = try PostgresConnection(url: database.url)
      defer { connection.close() }
      _ = try ServerSchema.prepare(connection, legacyAccount: nil, upTo: 5)
      // Anna's notebook as a version 5 push left it: her change, and the version the
      // server's trigger stored from it.
      try Self.recordAnnasNotebookChange(on: connection)
      #expect(try ServerSchema.prepare(connection) == .upgraded(from: 5))

      // The keys compare bytes; the entities' foreign key and the index by account are gone.
      let collations = try connection.execute(
        """
        SELECT DISTINCT collation_name FROM information_schema.columns
        WHERE table_name LIKE 'notes_%' AND column_name IN ('account', 'entity', 'entity_id')
        """)
      #expect(collations.rows == [["C"]])
      #expect(
        try connection.execute(
          "SELECT count(*) FROM pg_constraint WHERE conname = 'notes_entities_change'"
        ).singleValue == "0")
      #expect(
        try connection.execute("SELECT to_regclass('notes_entities_by_account_seq') IS NULL")
          .singleValue == "t")

      // Anna finds her version; Ben, another account, finds nothing of hers and cannot
      // write in her name.
      try ServerAccounts.add("anna", password: "anna's password", on: connection)
      try ServerAccounts.add("ben", password: "ben's password", on: connection)
      let anna = try SyncServer(url: database.url(user: "anna", password: "anna's password"))
      defer { anna.close() }
      #expect(try anna.head() == 1)
      #expect(try anna.count(after: 0) == 1)
      #expect(try anna.pull(.notebook, after: 0, upTo: 1, limit: 10).count == 1)
      let benURL = database.url(user: "ben", password: "ben's password")
      let ben = try SyncServer(url: benURL)
      defer { ben.close() }
      #expect(try ben.head() == 0)
      #expect(try ben.count(after: 0) == 0)
      let benConnection = try PostgresConnection(url: benURL)
      defer { benConnection.close() }
      for table in ["notes_accounts", "notes_devices", "notes_changes", "notes_entities"] {
        #expect(
          try benConnection.execute("SELECT count(*) FROM \(table) WHERE account <> 'ben'")
            .singleValue == "0")
      }
      #expect {
        try benConnection.execute(
          "INSERT INTO notes_devices (device_id, account) VALUES (gen_random_uuid(), 'anna')")
      } throws: { error in (error as? PostgresError)?.sqlState == "42501" }
    }
  }

  @Test func theVersion7CheckAcceptsAndRefusesTheSameUUIDsAsVersion5s() async throws {
    try await TestDatabase.with { database in
      let connection = try PostgresConnection(url: database.url)
      defer { connection.close() }
      _ = try ServerSchema.prepare(connection, legacyAccount: nil, upTo: 6)
      #expect(try ServerSchema.prepare(connection) == .upgraded(from: 6))
      // A valid id, and every id one edit away from it: each character replaced by a
      // digit, a letter out of range, an upper-case one, a hyphen, a space, a two-byte
      // letter; each deleted; a digit or a hyphen inserted before each; each swapped with
      // the next; and a few more.
      let valid = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
      let characters = Array(valid)
      var ids = [valid, "", valid + "\n", " " + valid, valid.uppercased(), "not-a-uuid"]
      for index in characters.indices {
        for replacement in ["0", "f", "g", "A", "-", " ", "é"] {
          var edited = characters
          edited[index] = Character(replacement)
          ids.append(String(edited))
        }
        var deleted = characters
        deleted.remove(at: index)
        ids.append(String(deleted))
        for inserted in ["0", "-"] {
          var longer = characters
          longer.insert(Character(inserted), at: index)
          ids.append(String(longer))
        }
        if index + 1 < characters.count {
          // A hyphen moved by one place: the right length and number of hyphens.
          var swapped = characters
          swapped.swapAt(index, index + 1)
          ids.append(String(swapped))
        }
      }
      let version5 = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
      let answers = try connection.execute(
        """
        SELECT id, id ~ $2, notes_version_ok('notebook', id, NULL),
          notes_version_ok('note', $3, jsonb_build_object('title', 't', 'body', '',
            'notebook', id, 'pinned', false, 'created', 1, 'modified', 1))
        FROM unnest($1::text[]) AS id
        """, [SyncServer.textArray(ids), version5, valid]
      ).rows
      #expect(answers.count == ids.count)
      #expect(answers.filter { $0[1] == "t" }.count > 1, "some edits are still UUIDs")
      for answer in answers {
        #expect(answer[2] == answer[1], "id \(answer[0] ?? "NULL")")
        #expect(answer[3] == answer[1], "notebook \(answer[0] ?? "NULL")")
      }
    }
  }

  @Test func aVersion3ServerWithNotesIsNotUpgradedWithoutAnAccountForThem() async throws {
    try await withServer { _, connection in
      _ = try ServerSchema.prepare(connection, legacyAccount: nil, upTo: 3)
      try Self.recordNotebookAndNote(on: connection)
      #expect {
        try ServerSchema.prepare(connection)
      } throws: { error in
        (error as? PostgresError)?.message
          == "the server holds 2 changes from before accounts (schema 3): say which account they"
          + " belong to with `notes server init URL --account NAME`; nothing was changed"
      }
      #expect {
        try ServerSchema.prepare(connection, legacyAccount: "Anna Smith")
      } throws: { error in
        (error as? PostgresError)?.message
          == "an account name starts with a lower-case letter (a–z)"
      }
      #expect(try connection.execute("SELECT version FROM notes_schema").singleValue == "3")
      #expect(
        try connection.execute(
          "SELECT count(*) FROM information_schema.columns WHERE column_name = 'account'"
        ).singleValue == "0")
      // An empty version 3 server needs no account.
      try connection.execute("TRUNCATE notes_entities, notes_changes, notes_devices")
      #expect(try ServerSchema.prepare(connection) == .upgraded(from: 3))
    }
  }

  /// Records, as the superuser, the account anna, a device of hers and one change to her
  /// notebook (schema 4 and later); returns the device's id.
  @discardableResult
  static func recordAnnasNotebookChange(on connection: PostgresConnection) throws -> String {
    let device = "00000000-0000-4000-8000-000000000001"
    let payload =
      #"{"title": "Work", "body": "", "notebook": null, "pinned": false,"#
      + #" "created": 1, "modified": 1}"#
    try connection.execute("INSERT INTO notes_accounts (account) VALUES ('anna')")
    try connection.execute(
      "INSERT INTO notes_devices (device_id, account) VALUES ($1::uuid, 'anna')", [device])
    try connection.execute(
      "INSERT INTO notes_changes (account, change_id, device_id, entity, entity_id, payload)"
        + " VALUES ('anna', gen_random_uuid(), $1::uuid, 'notebook', $2, $3::jsonb)",
      [device, notebook, payload])
    return device
  }

  /// The notebook the recorded note is in.
  static let notebook = "01890000-0000-7000-8000-000000000001"

  /// Records one device, a notebook and a note in it, as a push of schema 1 to 3 did.
  static func recordNotebookAndNote(on connection: PostgresConnection) throws {
    let device = "00000000-0000-4000-8000-000000000001"
    try connection.execute("INSERT INTO notes_devices (device_id) VALUES ($1::uuid)", [device])
    let note = "01890000-0000-7000-8000-000000000002"
    for (index, (entity, id, payload)) in [
      (
        "notebook", notebook,
        #"{"title": "Work", "body": "", "notebook": null, "pinned": false,"#
          + #" "created": 1, "modified": 1}"#
      ),
      (
        "note", note,
        #"{"title": "Plan", "body": "x", "notebook": "\#(notebook)", "pinned": false,"#
          + #" "created": 1, "modified": 2}"#
      ),
    ].enumerated() {
      try connection.execute(
        "INSERT INTO notes_changes (change_id, device_id, entity, entity_id, payload)"
          + " VALUES ($1::uuid, $2::uuid, $3, $4, $5::jsonb)",
        ["00000000-0000-4000-8000-00000000010\(index)", device, entity, id, payload])
      try connection.execute(
        "INSERT INTO notes_entities (entity, entity_id, seq, payload)"
          + " SELECT entity, entity_id, seq, payload FROM notes_changes WHERE entity_id = $1",
        [id])
    }
  }

  @Test func aNewerServerSchemaIsRefusedAndLeftAsItIs() async throws {
    try await withServer { _, connection in
      try ServerSchema.prepare(connection)
      try connection.execute("UPDATE notes_schema SET version = 99")
      #expect {
        try ServerSchema.prepare(connection)
      } throws: { error in
        (error as? PostgresError)?.message
          == "the server's schema is version 99, newer than this program's"
          + " (\(ServerSchema.version)): update notes before syncing with it"
      }
      #expect(try connection.execute("SELECT version FROM notes_schema").singleValue == "99")
    }
  }

  @Test func notesServerInitCreatesThenFindsTheTablesCurrent() async throws {
    let program = try #require(Programs.built("notes"), "the notes program is not built")
    try await withServer { database, connection throws in
      let folder = database.server.folder
      func initialize() throws -> ProgramResult {
        try Programs.run(
          program, ["server", "init", database.url], environment: ["HOME=\(folder)"],
          folder: folder)
      }
      #expect(
        try initialize()
          == ProgramResult(
            status: 0,
            output: "created the sync server's tables (schema \(ServerSchema.version))\n",
            errors: ""))
      #expect(
        try initialize()
          == ProgramResult(
            status: 0,
            output: "the sync server's tables are up to date (schema \(ServerSchema.version))\n",
            errors: ""))
      let newer = ServerSchema.version + 1
      try connection.execute("UPDATE notes_schema SET version = \(newer)")
      let refused = try initialize()
      #expect(refused.status == 1)
      #expect(
        refused.errors.hasPrefix("notes: the server's schema is version \(newer), newer than"))
      let unreachable = try Programs.run(
        program, ["server", "init", "postgresql:///postgres?host=/nonexistent&user=postgres"],
        environment: ["HOME=\(folder)"], folder: folder)
      #expect(unreachable.status == 69)
      #expect(unreachable.errors.hasPrefix("notes: cannot connect to the server:"))
    }
  }

  @Test func twoProgramsPreparingAtOnceCreateTheTablesOnce() async throws {
    try await withServer { database, connection throws in
      // Ten connections prepare concurrently; exactly one creates, the rest find it done.
      // Threads of their own: blocking libpq calls must not hold the threads Swift's
      // concurrency (and so every other test) runs on.
      let outcomes = OutcomeList()
      let url = database.url
      let finished = DispatchGroup()
      let threads = (0..<10).map { _ in
        Thread {
          defer { finished.leave() }
          do {
            let other = try PostgresConnection(url: url)
            defer { other.close() }
            outcomes.append(try ServerSchema.prepare(other))
          } catch {
            outcomes.append(nil)
          }
        }
      }
      for thread in threads {
        finished.enter()
        thread.start()
      }
      try #require(
        finished.wait(timeout: .now() + 120) == .success,
        "timed out waiting until the ten preparing connections end: \(outcomes.values)")
      let all = outcomes.values
      #expect(all.count == 10)
      #expect(all.filter { $0 == .created }.count == 1)
      #expect(all.filter { $0 == .current }.count == 9)
      #expect(try connection.execute("SELECT count(*) FROM notes_schema").singleValue == "1")
    }
  }
}

/// Outcomes collected from several threads.
private final class OutcomeList: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [ServerSchema.Outcome?] = []

  func append(_ outcome: ServerSchema.Outcome?) {
    lock.lock()
    list.append(outcome)
    lock.unlock()
  }

  var values: [ServerSchema.Outcome?] {
    lock.lock()
    defer { lock.unlock() }
    return list
  }
}
