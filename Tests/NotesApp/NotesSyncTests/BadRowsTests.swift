// Rows a buggy or hostile client wrote straight into the server's tables: every kind the
// issue names, beside good rows. Each bad version is kept aside with its reason, the good
// ones apply, the cursor moves on, the library keeps every rule — and the server refuses
// on its own every kind it can judge.

import Airframe
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesServer
import NotesTestSupport
import Testing

@testable import NotesStorage
@testable import NotesSync

@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(10)))
@MainActor
struct BadRowsTests {
  /// The JSON of a valid note.
  nonisolated static func validNote(_ title: String, in notebook: String) -> String {
    #"{"title": "\#(title)", "body": "fine", "notebook": "\#(notebook)", "pinned": false,"#
      + #" "created": 800000000, "modified": 800000001.5}"#
  }

  @Test func everyBadVersionIsKeptAsideWithItsReasonAndTheGoodOnesApply() async throws {
    try await withDevices(["A", "B"]) { devices, fixture in
      let (a, b) = (devices[0], devices[1])
      try a.createNotebook("Work")
      try a.createNote("Good", body: "kept", in: "Work")
      try await a.sync()
      let before = try await a.content()
      let work = try #require(before.notebooks.first { $0.value == "Work" }?.key)
      let good = try #require(before.notes.first { $0.value.title == "Good" }?.key)

      let hostile = HostileWriter(adminURL: fixture.adminURL, account: SyncFixture.account)
      try await onThreadOfItsOwn { try hostile.dropServerChecks() }
      var written: [(BadVersion, Int64)] = []
      for bad in BadVersion.allCases {
        written.append((bad, try await onThreadOfItsOwn { try hostile.write(bad, notebook: work) }))
      }
      // A bad version over the good note, and good versions beside the bad ones.
      let overwrite = try await onThreadOfItsOwn {
        try hostile.write(.textDate, uid: good, notebook: work)
      }
      let fine = UUID().uuidString.lowercased()
      let finePayload = Self.validNote("Fine", in: work)
      _ = try await onThreadOfItsOwn {
        try hostile.write(.note, uid: fine, payload: finePayload)
      }

      let report = try await b.sync()
      #expect(report.keptAside.count == written.count + 1)
      for (bad, seq) in written {
        let refused = report.keptAside.first { $0.seq == seq }
        #expect(
          refused?.reasons.contains { $0.contains(bad.reason) } == true,
          "\(bad): \(String(describing: refused))")
      }
      #expect(report.keptAside.contains { $0.seq == overwrite && $0.uid == good })
      // Every good version arrived, the good note at its last valid version.
      let content = try await b.content()
      #expect(Set(content.notes.values.map(\.title)) == ["Good", "Fine"])
      #expect(content.notes[good]?.body == "kept")
      #expect(Set(content.notebooks.values) == ["Work"])
      // The cursor moved past every bad version.
      let head = try await onThreadOfItsOwn { () throws -> Int64 in
        let server = try SyncServer(url: fixture.accountURL)
        defer { server.close() }
        return try server.head()
      }
      #expect(try LibrarySyncStore(path: b.path).cursor() == head)
      // A, which had the good note, keeps it; neither library breaks a rule.
      let again = try await a.sync()
      #expect(again.keptAside.count == written.count + 1)
      #expect(a.note(titled: "Good")?.body == "kept" && a.note(titled: "Fine") != nil)
      for device in devices {
        #expect(LibraryInvariants.violations(in: device.model.state) == [], "\(device.name)")
        #expect(try Self.integrity(of: device.path) == "ok")
        let kept = try LibrarySyncStore(path: device.path).keptAside()
        #expect(kept.count == written.count + 1)
      }
      // One bad row never stops sync: the next one moves nothing and fails nothing.
      let quiet = try await b.sync()
      #expect(quiet.pulled == 0 && quiet.keptAside.isEmpty)
      // A good device's edit replaces the bad version on the server, and the note's entry
      // leaves the list of what is kept aside.
      try a.edit("Good") { $0.body = "kept, and edited" }
      try await a.sync()
      try await b.sync()
      #expect(b.note(titled: "Good")?.body == "kept, and edited")
      let left = try LibrarySyncStore(path: b.path).keptAside()
      #expect(left.count == written.count)
      #expect(!left.contains { $0.version.uid == good })
    }
  }

  @Test func notesSyncAndStatusReportWhatWasKeptAside() async throws {
    try await withDevices(["A"]) { devices, fixture in
      let a = devices[0]
      try a.createNotebook("Work")
      try await a.sync()
      let work = try #require(try await a.content().notebooks.keys.first)
      let hostile = HostileWriter(adminURL: fixture.adminURL, account: SyncFixture.account)
      let seq = try await onThreadOfItsOwn {
        try hostile.dropServerChecks()
        return try hostile.write(.bellAndRightToLeftOverride, notebook: work)
      }
      let program = try #require(Programs.built("notes"), "the notes program is not built")
      let home = try TemporaryFolder(prefix: "bad-rows")
      defer { home.remove() }
      let library = home.file("c.notes")
      func notes(_ words: [String]) throws -> ProgramResult {
        try Programs.run(
          program, words + ["--database", library],
          environment: Programs.environment(home: home.path), folder: home)
      }
      #expect(try notes(["sync", "setup", fixture.accountURL]).status == 0)
      let sync = try notes(["sync"])
      #expect(sync.status == 0, "\(sync.errors)")
      #expect(
        sync.output.hasPrefix("pushed 0 changes, pulled 1 change, kept aside 1 bad version\n"))
      let line = try #require(sync.output.split(separator: "\n").last.map(String.init))
      #expect(line.hasPrefix("kept aside: note "))
      #expect(
        line.contains("(version \(seq)): The note title must not contain control characters."))
      #expect(line.contains("bidirectional controls (U+202E)"))
      #expect(!line.unicodeScalars.contains { $0.value == 7 || $0.value == 0x202E })
      let status = try notes(["sync", "status", "--json"])
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
      let kept = try #require(object["keptAside"] as? [[String: Any]])
      #expect(kept.count == 1)
      #expect(kept.first?["seq"] as? Int == Int(seq))
      #expect(kept.first?["acknowledged"] as? Bool == false)
      #expect(try notes(["sync", "status"]).output.contains("\nkept aside: note "))
      #expect(try notes(["sync", "acknowledge"]).status == 0)
      #expect(try notes(["sync", "status"]).output.contains("\nkept aside (read): note "))
    }
  }

  @Test func theServerRefusesEveryBadVersionItCanJudge() async throws {
    try await withDevices(["A"]) { devices, fixture in
      try devices[0].createNotebook("Work")
      try await devices[0].sync()
      let work = try #require(try await devices[0].content().notebooks.keys.first)
      let device = devices[0].engine.deviceID
      for bad in BadVersion.allCases {
        let state = try await onThreadOfItsOwn { () throws -> String? in
          let alice = try PostgresConnection(url: fixture.accountURL)
          defer { alice.close() }
          do {
            try alice.execute(
              "INSERT INTO notes_changes (change_id, device_id, entity, entity_id, payload)"
                + " VALUES (gen_random_uuid(), $1::uuid, $2, $3, $4::jsonb)",
              [
                device, bad.kind.rawValue, bad.entityID(UUID().uuidString.lowercased()),
                bad.payload(notebook: work),
              ])
            return nil
          } catch let error as PostgresError {
            return error.sqlState
          }
        }
        #expect(state == (bad.serverRefuses ? "23514" : nil), "\(bad)")
      }
    }
  }

  static func integrity(of path: String) throws -> String? {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    guard try connection.string("PRAGMA foreign_key_check") == nil else { return "foreign keys" }
    return try connection.string("PRAGMA integrity_check")
  }
}
