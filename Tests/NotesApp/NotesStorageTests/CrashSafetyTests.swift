import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

/// A writer process is killed with SIGKILL at random moments in a burst of commits; every
/// note it reported as committed must survive, and the file must pass its integrity check.
// The time limit guards against a hang, not a slow run: in the whole suite a test waits its
// turn behind CPU-bound suites on two cores, and longer when other builds share them.
@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
struct CrashSafetyTests {
  @Test func noReportedCommitIsLostWhenTheWriterIsKilled() async throws {
    let writer = try #require(Programs.built("notes-crash-writer"), "notes-crash-writer not built")
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("crash.sqlite")
    var generator = SystemRandomNumberGenerator()
    var reported: Set<Int64> = []
    var kills = 0

    for round in 0..<20 {
      let child = try ChildProcess(executable: writer, arguments: [path, "100000"])
      #expect(try child.readLine() == "ready", "round \(round)")
      // Kill after a random number of reported commits (sometimes none).
      let killAfter = Int.random(in: 0...60, using: &generator)
      var seen = 0
      while seen < killAfter, let line = try child.readLine() {
        if let id = Self.committedID(line) {
          reported.insert(id)
          seen += 1
        }
      }
      child.kill()
      // Lines the writer wrote before it died were reported too.
      while let line = try child.readLine() {
        if let id = Self.committedID(line) { reported.insert(id) }
      }
      let status = try child.wait()
      #expect(status & 0x7f == SIGKILL, "round \(round): the writer ended on its own")
      kills += 1

      #expect(try RawDatabase.integrityCheck(path) == "ok", "round \(round)")
      try RawDatabase.execute(path, "INSERT INTO notes_fts(notes_fts) VALUES ('integrity-check')")
      let (stored, found) = try await MainActor.run {
        let database = try NotesDatabase(path: path)
        defer { database.close() }
        let stored = Set(try database.loadState().notes.elements.map(\.id.rawValue))
        // Every note's body has the word "body"; the search applies the record of changes
        // the killed writer left.
        let found = try database.search("body", limit: stored.count + 1).map(\.rawValue)
        return (stored, Set(found))
      }
      let lost = reported.subtracting(stored)
      #expect(lost.isEmpty, "round \(round): lost \(lost.sorted())")
      #expect(found == stored, "round \(round): the search missed notes")
      try RawDatabase.checkIndexMatchesNotes(path)
    }
    #expect(kills == 20)
    #expect(reported.count > 0)
  }

  /// The sqlite3 shell, which runs the storage's SQL in a process the test can kill.
  static let shell = "/usr/bin/sqlite3"

  /// A process editing notes and updating the index is killed; the index stays sound.
  ///
  /// The process runs note edits and full-text index updates (the storage's own SQL, one
  /// transaction each, as `persist` and `search` run them) and is killed with SIGKILL at a
  /// random moment; index updates take a large share of its time, so many kills land
  /// inside one. Each time the file must pass its integrity checks, and once the next
  /// search has applied the record of changes the index must hold exactly every note's
  /// current text and find exactly the right notes.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: shell)))
  func theIndexIsNeverCorruptedWhenAnEditorOrAnIndexUpdateIsKilled() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("crash.sqlite")
    let script = folder.file("edits.sql")
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SeededRandom(seed: seed)
    let vocabulary = (0..<60).map { index in "w\(index)x" }
    func text(_ words: ClosedRange<Int>) -> String {
      (0..<Int.random(in: words, using: &random)).map { _ in
        vocabulary.randomElement(using: &random)!
      }.joined(separator: " ")
    }
    try await MainActor.run {
      let database = try NotesDatabase(path: path)
      let model = Model(try database.loadState(), storage: database)
      try model.write(origin: .background("test")) { transaction in
        try transaction.insert(Fixtures.notebook(1, "Home"), into: \.notebooks)
        for id in 2...301 {
          try transaction.insert(Fixtures.note(Int64(id), in: 1, "n", "x"), into: \.notes)
        }
      }
      database.close()
    }
    let update = [SQL.unindexRecordedNotes, SQL.indexRecordedNotes, SQL.clearRecordedChanges]
      .map { $0 + ";\n" }.joined()
    var killed = 0
    for round in 0..<12 {
      var existing = try await MainActor.run {
        let database = try NotesDatabase(path: path)
        defer { database.close() }
        return Set(try database.loadState().notes.elements.map(\.id.rawValue))
      }
      var lines = ["PRAGMA synchronous = NORMAL;", "SELECT 'ready';"]
      for _ in 0..<3_000 {
        let id = Int64.random(in: 2...301, using: &random)
        let roll = Int.random(in: 0..<100, using: &random)
        var change: String
        if roll < 12 {
          change = update
        } else if !existing.contains(id) {
          change =
            "INSERT INTO notes(id, notebook_id, title, body, created, modified, pinned)"
            + " VALUES (\(id), 1, '\(text(0...3))', '\(text(0...80))', 0, 0, 0);"
          existing.insert(id)
        } else if roll < 20 {
          change = "DELETE FROM notes WHERE id = \(id);"
          existing.remove(id)
        } else if roll < 35 {
          change = "UPDATE notes SET title = '\(text(0...3))' WHERE id = \(id);"
        } else if roll < 40 {
          change = "UPDATE notes SET pinned = 1 - pinned WHERE id = \(id);"
        } else {
          change = "UPDATE notes SET body = '\(text(0...80))', modified = 1 WHERE id = \(id);"
        }
        lines.append("BEGIN IMMEDIATE;\n\(change)\nCOMMIT;")
      }
      try lines.joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)

      let child = try ChildProcess(
        executable: Self.shell, arguments: ["-bail", path, ".read \(script)"])
      try await Task.sleep(for: .milliseconds(Int.random(in: 5...400, using: &random)))
      child.kill()
      while try child.readLine() != nil {}
      let status = try child.wait()
      if status & 0x7f == SIGKILL { killed += 1 }
      #expect(
        status & 0x7f == SIGKILL || status == 0, "seed \(seed) round \(round): status \(status)")

      #expect(try RawDatabase.integrityCheck(path) == "ok", "seed \(seed) round \(round)")
      try RawDatabase.execute(path, "INSERT INTO notes_fts(notes_fts) VALUES ('integrity-check')")
      let mismatches = try await MainActor.run {
        let database = try NotesDatabase(path: path)
        defer { database.close() }
        let notes = try database.loadState().notes.elements
        var mismatches: [String] = []
        for word in vocabulary.prefix(20) {
          let expected = Set(
            notes.filter {
              ($0.title + " " + $0.body).split(separator: " ").contains { $0 == word }
            }
            .map(\.id.rawValue))
          let found = Set(try database.search(word, limit: 1_000).map(\.rawValue))
          if found != expected { mismatches.append(word) }
        }
        return mismatches
      }
      #expect(mismatches.isEmpty, "seed \(seed) round \(round): wrong results for \(mismatches)")
      try RawDatabase.checkIndexMatchesNotes(path)
    }
    #expect(killed > 0, "the shell always finished before it was killed")
  }

  static func committedID(_ line: String) -> Int64? {
    guard line.hasPrefix("committed ") else { return nil }
    return Int64(line.dropFirst("committed ".count))
  }
}
