import Foundation
import NotesServer
import NotesTestSupport
import Testing

/// The sync server's connection and schema, against a real PostgreSQL the test starts
/// (and stops) itself.
@Suite(.serialized)
struct ServerSchemaTests {
  /// Runs `body` with a connection to a throwaway server, stopped afterwards whatever
  /// happens.
  func withServer(_ body: (TemporaryPostgres, PostgresConnection) throws -> Void) async throws {
    let server = try await TemporaryPostgres.started()
    do {
      let connection = try PostgresConnection(url: server.url)
      defer { connection.close() }
      try body(server, connection)
    } catch {
      await server.stopped()
      throw error
    }
    await server.stopped()
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
          == ["notes_changes", "notes_devices", "notes_entities", "notes_schema"])
      #expect(try connection.execute("SELECT version FROM notes_schema").singleValue == "3")
      #expect(try ServerSchema.prepare(connection) == .current)
      #expect(try connection.execute("SELECT count(*) FROM notes_schema").singleValue == "1")
    }
  }

  @Test func aChangeIdIsAcceptedOnlyOnce() async throws {
    try await withServer { _, connection in
      try ServerSchema.prepare(connection)
      let device = "6f1c3f55-3b7e-4a55-9d7e-0d3c4b6a0b11"
      let change = "0b0c3f55-3b7e-4a55-9d7e-0d3c4b6a0b22"
      try connection.execute("INSERT INTO notes_devices (device_id) VALUES ($1::uuid)", [device])
      let insert =
        "INSERT INTO notes_changes (change_id, device_id, entity, entity_id, payload)"
        + " VALUES ($1::uuid, $2::uuid, 'note', '12', '{}'::jsonb)"
        + " ON CONFLICT (change_id) DO NOTHING RETURNING seq"
      #expect(try connection.execute(insert, [change, device]).rows.count == 1)
      // The retry after a lost acknowledgement: recognised, not applied again.
      #expect(try connection.execute(insert, [change, device]).rows.isEmpty)
      #expect(try connection.execute("SELECT count(*) FROM notes_changes").singleValue == "1")
    }
  }

  @Test func aVersion1ServerIsUpgradedWithNothingLost() async throws {
    try await withServer { _, connection in
      try ServerSchema.prepare(connection)
      // Back to version 1's layout, with one change on record.
      try connection.execute("DROP INDEX notes_entities_by_seq")
      try connection.execute("DROP INDEX notes_entities_by_entity_seq")
      try connection.execute("UPDATE notes_schema SET version = 1")
      try Self.recordOneChange(on: connection)
      #expect(try ServerSchema.prepare(connection) == .upgraded(from: 1))
      #expect(try connection.execute("SELECT version FROM notes_schema").singleValue == "3")
      #expect(try connection.execute("SELECT count(*) FROM notes_changes").singleValue == "1")
      #expect(
        try connection.execute(
          "SELECT count(*) FROM pg_indexes WHERE indexname IN"
            + " ('notes_entities_by_seq', 'notes_entities_by_entity_seq')"
        ).singleValue == "2")
      #expect(try ServerSchema.prepare(connection) == .current)
    }
  }

  @Test func aVersion2ServerGainsThePullIndexWithNothingLost() async throws {
    try await withServer { _, connection in
      try ServerSchema.prepare(connection)
      try connection.execute("DROP INDEX notes_entities_by_entity_seq")
      try connection.execute("UPDATE notes_schema SET version = 2")
      try Self.recordOneChange(on: connection)
      #expect(try ServerSchema.prepare(connection) == .upgraded(from: 2))
      #expect(try connection.execute("SELECT version FROM notes_schema").singleValue == "3")
      #expect(try connection.execute("SELECT count(*) FROM notes_changes").singleValue == "1")
      #expect(
        try connection.execute(
          "SELECT indexdef FROM pg_indexes WHERE indexname = 'notes_entities_by_entity_seq'"
        ).singleValue?.hasSuffix("(entity, seq)") == true)
      #expect(try ServerSchema.prepare(connection) == .current)
    }
  }

  /// Records one device and one change of a note, as a push would.
  static func recordOneChange(on connection: PostgresConnection) throws {
    let device = "00000000-0000-4000-8000-000000000001"
    try connection.execute("INSERT INTO notes_devices (device_id) VALUES ($1::uuid)", [device])
    try connection.execute(
      "INSERT INTO notes_changes (change_id, device_id, entity, entity_id, payload)"
        + " VALUES ($1::uuid, $2::uuid, 'note', 'n1', '{}')",
      ["00000000-0000-4000-8000-000000000002", device])
  }

  @Test func aNewerServerSchemaIsRefusedAndLeftAsItIs() async throws {
    try await withServer { _, connection in
      try ServerSchema.prepare(connection)
      try connection.execute("UPDATE notes_schema SET version = 99")
      #expect {
        try ServerSchema.prepare(connection)
      } throws: { error in
        (error as? PostgresError)?.message
          == "the server's schema is version 99, newer than this program's (3): update notes"
          + " before syncing with it"
      }
      #expect(try connection.execute("SELECT version FROM notes_schema").singleValue == "99")
    }
  }

  @Test func notesServerInitCreatesThenFindsTheTablesCurrent() async throws {
    let program = try #require(Programs.built("notes"), "the notes program is not built")
    try await withServer { server, connection throws in
      func initialize() throws -> ProgramResult {
        try Programs.run(
          program, ["server", "init", server.url], environment: ["HOME=\(server.folder)"],
          folder: server.folder)
      }
      #expect(
        try initialize()
          == ProgramResult(
            status: 0, output: "created the sync server's tables (schema 3)\n", errors: ""))
      #expect(
        try initialize()
          == ProgramResult(
            status: 0, output: "the sync server's tables are up to date (schema 3)\n", errors: ""))
      let newer = ServerSchema.version + 1
      try connection.execute("UPDATE notes_schema SET version = \(newer)")
      let refused = try initialize()
      #expect(refused.status == 1)
      #expect(
        refused.errors.hasPrefix("notes: the server's schema is version \(newer), newer than"))
      let unreachable = try Programs.run(
        program, ["server", "init", "postgresql:///postgres?host=/nonexistent&user=postgres"],
        environment: ["HOME=\(server.folder)"], folder: server.folder)
      #expect(unreachable.status == 1)
      #expect(unreachable.errors.hasPrefix("notes: cannot connect to the server:"))
    }
  }

  @Test func twoProgramsPreparingAtOnceCreateTheTablesOnce() async throws {
    try await withServer { server, connection throws in
      // Ten connections prepare concurrently; exactly one creates, the rest find it done.
      // Threads of their own: blocking libpq calls must not hold the threads Swift's
      // concurrency (and so every other test) runs on.
      let outcomes = OutcomeList()
      let url = server.url
      let threads = (0..<10).map { _ in
        Thread {
          do {
            let other = try PostgresConnection(url: url)
            defer { other.close() }
            outcomes.append(try ServerSchema.prepare(other))
          } catch {
            outcomes.append(nil)
          }
        }
      }
      for thread in threads { thread.start() }
      while outcomes.values.count < 10 { usleep(10_000) }
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
