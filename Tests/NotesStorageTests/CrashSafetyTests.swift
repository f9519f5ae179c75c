import Airframe
import AirframeTesting
import Foundation
import NotesCore
import Testing

@testable import NotesStorage

/// A writer process is killed with SIGKILL at random moments in a burst of commits; every
/// note it reported as committed must survive, and the file must pass its integrity check.
@Suite(.noLiveBindings, .timeLimit(.minutes(2)))
struct CrashSafetyTests {
  @Test func noReportedCommitIsLostWhenTheWriterIsKilled() async throws {
    let writer = try #require(builtProgram("notes-crash-writer"), "notes-crash-writer not built")
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.file("crash.sqlite")
    var generator = SystemRandomNumberGenerator()
    var reported: Set<Int64> = []
    var kills = 0

    for round in 0..<20 {
      let child = try ChildProcess(executable: writer, arguments: [path, "100000"])
      #expect(child.readLine() == "ready", "round \(round)")
      // Kill after a random number of reported commits (sometimes none).
      let killAfter = Int.random(in: 0...60, using: &generator)
      var seen = 0
      while seen < killAfter, let line = child.readLine() {
        if let id = Self.committedID(line) {
          reported.insert(id)
          seen += 1
        }
      }
      child.kill()
      // Lines the writer wrote before it died were reported too.
      while let line = child.readLine() {
        if let id = Self.committedID(line) { reported.insert(id) }
      }
      let status = child.wait()
      #expect(status & 0x7f == SIGKILL, "round \(round): the writer ended on its own")
      kills += 1

      #expect(try RawDatabase.integrityCheck(path) == "ok", "round \(round)")
      let stored = try await MainActor.run {
        let database = try NotesDatabase(path: path)
        defer { database.close() }
        return Set(try database.loadState().notes.elements.map(\.id.rawValue))
      }
      let lost = reported.subtracting(stored)
      #expect(lost.isEmpty, "round \(round): lost \(lost.sorted())")
    }
    #expect(kills == 20)
    #expect(reported.count > 0)
  }

  static func committedID(_ line: String) -> Int64? {
    guard line.hasPrefix("committed ") else { return nil }
    return Int64(line.dropFirst("committed ".count))
  }
}
