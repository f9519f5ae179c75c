// What a device makes of any row a server may send: seeded random rows, each column drawn
// from values a hostile server could put there, read as a pull reads them. Nothing makes
// reading fail or crash, an accepted version keeps every rule, and a refused one says why in
// text that is safe to print.

import AirframeTesting
import Foundation
import NotesCore
import Testing

@testable import NotesServer

@Suite
struct ServerRowTests {
  /// What a column may hold (`nil` is SQL NULL).
  static let values: [String?] = [
    nil, "", "0", "-1", "1", "800000000.5", "1e400", "-1e400", "NaN", "inf", "1e14", "1.0e15",
    "9223372036854775807", "99999999999999999999", "true", "false", "t", "f", "object",
    "string", "number", "boolean", "array", "null", "Plan", " Plan ", "\u{7}bell", "a\u{202E}b",
    "\u{200B}", "\u{FFFF}", "line\nbreak", "tab\there", String(repeating: "x", count: 201),
    "0190f5a2-0000-7000-8000-00000000abcd",
    "0190F5A2-0000-7000-8000-00000000ABCD", "not-a-uuid", "12", "👩‍👩‍👧", "\u{0}", "\u{85}",
    "'; DROP TABLE notes_entities; --",
  ]

  @Test func noRowAServerSendsBreaksTheReaderOrReachesALibraryUnchecked() {
    var random = SeededRandomNumberGenerator(seed: 0x5E17_0A11)
    let uid = "0190f5a2-0000-7000-8000-00000000abcd"
    var accepted = 0
    for _ in 0..<5_000 {
      // Mostly well-formed, so the checks past the shape are reached too.
      var row: [String?] = [
        "7", uid, uid, "36", "object", "string", "string", "string", "boolean", "number",
        "number", "Plan", "4", "body", "4", uid, "false", "800000000", "800000001",
      ]
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        row[Int.random(in: 0..<row.count, using: &random)] =
          Self.values[Int.random(in: 0..<Self.values.count, using: &random)]
      }
      for kind in SyncEntityKind.allCases {
        switch SyncServer.version(kind, from: row) {
        case .accepted(let version):
          accepted += 1
          #expect(SyncRules.isUID(version.record.uid))
          #expect(SyncRules.issues(in: version.record).isEmpty, "\(row)")
          if let fields = version.record.fields {
            #expect(NotesRules.titleIssues(fields.title, field: "title").isEmpty)
            #expect(fields.created.isFinite && fields.modified.isFinite)
          }
        case .refused(let refused):
          #expect(!refused.reasons.isEmpty)
          let text = refused.summary
          #expect(
            !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
            "\(text.debugDescription)")
        }
      }
    }
    // A body one character past the limit, once (counting a million characters is slow).
    let long: [String?] = [
      "8", uid, uid, "36", "object", "string", "string", "string", "boolean", "number", "number",
      "Plan", "4", String(repeating: "é", count: 1_000_001), "2000002", uid, "false", "1", "1",
    ]
    if case .refused(let refused) = SyncServer.version(.note, from: long) {
      #expect(refused.reasons == ["The note body must be at most 1000000 characters."])
    } else {
      Issue.record("a body past the limit was accepted")
    }
    // The generator is not so hostile that nothing passes.
    #expect(accepted > 500)
  }
}
