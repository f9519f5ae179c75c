// What a device does with numbers the server's log cannot have made: a version numbered past
// the log's head, or one number twice. It says so, and every later change keeps coming.

import Airframe
import Foundation
import NotesCore
import NotesServer
import NotesTestSupport
import Testing

@testable import NotesSync

@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(10)))
@MainActor
struct LogNumbersSyncTests {
  /// Runs `sql` as the superuser on the fixture's database (on a thread of its own).
  func asOperator(_ fixture: SyncFixture, _ sql: String, _ parameters: [String?] = []) async throws
  {
    let url = fixture.adminURL
    try await onThreadOfItsOwn {
      let connection = try PostgresConnection(url: url)
      defer { connection.close() }
      try connection.execute(sql, parameters)
    }
  }

  /// The uid of `device`'s note titled `title`.
  func uid(of title: String, on device: SyncDevice) async throws -> String {
    let content = try await device.content()
    return try #require(content.notes.first { $0.value.title == title }?.key)
  }

  @Test func aVersionNumberedPastTheLogIsToldAndEveryLaterChangeStillArrives() async throws {
    try await withDevices(["A", "B"]) { devices, fixture in
      let (a, b) = (devices[0], devices[1])
      try a.createNotebook("Work")
      try a.createNote("One", body: "first", in: "Work")
      try a.createNote("Two", body: "second", in: "Work")
      try await a.sync()
      try await b.sync()
      // A hand edit on the server numbers "One" far past its account's log.
      let one = try await uid(of: "One", on: a)
      try await asOperator(
        fixture, "UPDATE notes_entities SET seq = seq + 1000000 WHERE entity_id = $1", [one])
      let past = "numbered past the last change of its log"
      let first = try await b.sync()
      #expect(first.notices.contains { $0.contains(past) }, "\(first.notices)")
      // Later changes of the account's other device still arrive, sync after sync.
      try a.createNote("Three", in: "Work")
      try await a.sync()
      try await b.sync()
      try a.edit("Two") { $0.body = "second, edited" }
      try await a.sync()
      let later = try await b.sync()
      #expect(b.note(titled: "Three") != nil)
      #expect(b.note(titled: "Two")?.body == "second, edited")
      // Told on every sync, kept once among the library's notices.
      #expect(later.notices.contains { $0.contains(past) })
      #expect(try b.notices().filter { $0.contains(past) }.count == 1)
      // The stray version's note changes again: the change replaces it on the server, and
      // the notice has nothing left to say.
      try a.edit("One") { $0.body = "first, edited" }
      try await a.sync()
      let healed = try await b.sync()
      #expect(!healed.notices.contains { $0.contains(past) }, "\(healed.notices)")
      #expect(b.note(titled: "One")?.body == "first, edited")
      try await expectConverged([a, b], fixture)
    }
  }

  @Test func aNumberSentTwiceIsToldAndBothVersionsApply() async throws {
    try await withDevices(["A", "B"]) { devices, fixture in
      let (a, b) = (devices[0], devices[1])
      try a.createNotebook("Work")
      for title in ["One", "Two", "Three"] { try a.createNote(title, in: "Work") }
      try await a.sync()
      // The operator drops the rule that keeps numbers unique and puts two notes under one.
      try await asOperator(fixture, "DROP INDEX notes_entities_notes")
      let (two, three) = (try await uid(of: "Two", on: a), try await uid(of: "Three", on: a))
      try await asOperator(
        fixture,
        "UPDATE notes_entities SET seq = (SELECT seq FROM notes_entities WHERE entity_id = $1)"
          + " WHERE entity_id = $2", [two, three])
      let report = try await b.sync()
      #expect(
        report.notices.contains { $0.contains("under a number it had used already") },
        "\(report.notices)")
      #expect(b.note(titled: "Two") != nil && b.note(titled: "Three") != nil)
    }
  }
}
