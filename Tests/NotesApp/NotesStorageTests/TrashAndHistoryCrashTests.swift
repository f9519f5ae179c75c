// Kills during the writes of Recently Deleted and note history: a restore, a deletion for
// good, a restored version and a history thinning each leave the library as before or after
// them, never between.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

// The time limit guards against a hang, not a slow run (see `CrashSafetyTests`).
@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
struct TrashAndHistoryCrashTests {
  /// Where a note is, what it says and how many versions it keeps.
  struct Kept: Equatable, CustomStringConvertible {
    enum Place: String { case library, recentlyDeleted, gone }
    var place: Place
    var body: String?
    var versions: Int

    var description: String { "\(place.rawValue) \(body ?? "-") \(versions) versions" }

    static let gone = Kept(place: .gone, body: nil, versions: 0)
  }

  /// What each of the crash writer's lifecycle steps leaves, for note `index` (the writer's
  /// `LifecycleStep`, in order).
  static func expected(afterStep step: Int, index: Int) -> Kept {
    let body = "body \(index)"
    return switch step {
    case 0: Kept(place: .library, body: body, versions: 0)  // created: no version yet
    // edited: the text before the first change, and the edit
    case 1: Kept(place: .library, body: "\(body) edited", versions: 2)
    case 2: Kept(place: .library, body: body, versions: 3)  // a restored version
    case 3, 5: Kept(place: .recentlyDeleted, body: body, versions: 3)  // deleted
    case 4: Kept(place: .library, body: body, versions: 3)  // restored from Recently Deleted
    default: .gone  // deleted for good, with its history
    }
  }

  static let lifecycleSteps = [
    "create", "edit", "restoreVersion", "delete", "restore", "deleteAgain", "deleteForGood",
  ]

  /// Reads where every note of the file is.
  @MainActor
  static func kept(in path: String) throws -> (byID: [Int64: Kept], byTitle: [String: Int64]) {
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    let state = try database.loadState()
    var byID: [Int64: Kept] = [:]
    var byTitle: [String: Int64] = [:]
    for note in state.notes.elements {
      byID[note.id.rawValue] = Kept(
        place: .library, body: note.body, versions: try database.history(of: note.id).count)
      byTitle[note.title] = note.id.rawValue
    }
    // Every body has the word "body": the search finds the notes in the library, and only
    // them (a note in Recently Deleted is not searched).
    let found = try database.search("body", limit: state.notes.count + 10).map(\.rawValue)
    #expect(Set(found) == Set(state.notes.elements.map(\.id.rawValue)), "the search disagrees")
    for entry in state.recentlyDeleted.elements {
      #expect(byID[entry.id.rawValue] == nil, "note \(entry.id.rawValue) is in both places")
      byID[entry.id.rawValue] = Kept(
        place: .recentlyDeleted, body: entry.note.body,
        versions: try database.history(of: entry.id).count)
      byTitle[entry.note.title] = entry.id.rawValue
    }
    return (byID, byTitle)
  }

  /// A writer taking notes through create, edit, restore a version, delete, restore, delete
  /// and delete for good is killed at random moments; each note is as its last reported step
  /// left it or as the next step leaves it, never between (say, back in the library with its
  /// Recently Deleted entry still there, or restored without the restored version kept).
  @Test func aKillDuringARestoreOrADeletionForGoodLeavesTheNoteBeforeOrAfter() async throws {
    let writer = try #require(Programs.built("notes-crash-writer"), "notes-crash-writer not built")
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    var generator = SystemRandomNumberGenerator()
    var stepsSeen = Set<Int>()

    for round in 0..<16 {
      // A file per round: the writer numbers its notes from 0 each time.
      let path = folder.file("round\(round).sqlite")
      let child = try ChildProcess(executable: writer, arguments: [path, "lifecycle", "1000"])
      #expect(try child.readLine() == "ready", "round \(round)")
      let killAfter = Int.random(in: 0...40, using: &generator)
      // Each note's last reported step and id.
      var reported: [Int: (step: Int, id: Int64)] = [:]
      func record(_ line: String) {
        let parts = line.split(separator: " ")
        guard parts.count == 4, parts[0] == "done", let index = Int(parts[1]),
          let step = Self.lifecycleSteps.firstIndex(of: String(parts[2])), let id = Int64(parts[3])
        else { return }
        reported[index] = (step, id)
      }
      var seen = 0
      while seen < killAfter, let line = try child.readLine() {
        record(line)
        seen += 1
      }
      child.kill()
      while let line = try child.readLine() { record(line) }
      let status = try child.wait()
      #expect(status & 0x7f == SIGKILL, "round \(round): the writer ended on its own")

      #expect(try RawDatabase.integrityCheck(path) == "ok", "round \(round)")
      try RawDatabase.execute(path, "INSERT INTO notes_fts(notes_fts) VALUES ('integrity-check')")
      let (byID, byTitle) = try await MainActor.run { try Self.kept(in: path) }
      // The search applied the record of changes the killed writer left.
      try RawDatabase.checkIndexMatchesNotes(path)
      // The note the writer was on: the last reported one, or the next, not reported yet.
      let current = reported.keys.max() ?? -1
      for (index, last) in reported {
        let actual = byID[last.id] ?? .gone
        var allowed = [Self.expected(afterStep: last.step, index: index)]
        if index == current, last.step + 1 < Self.lifecycleSteps.count {
          allowed.append(Self.expected(afterStep: last.step + 1, index: index))
        }
        #expect(allowed.contains(actual), "round \(round) note \(index): \(actual)")
        if index == current, allowed.contains(actual) {
          stepsSeen.insert(actual == allowed[0] ? last.step : last.step + 1)
        }
      }
      // A note created but not reported yet is as created, and nothing else is there.
      var unreported = Set(byID.keys).subtracting(reported.values.map(\.id))
      if let id = byTitle["Note \(current + 1)"], unreported.contains(id) {
        #expect(byID[id] == Self.expected(afterStep: 0, index: current + 1), "round \(round)")
        unreported.remove(id)
      }
      #expect(unreported.isEmpty, "round \(round): notes \(unreported.sorted()) are unexplained")
    }
    // The kills landed after several kinds of step (not a test that cannot fail).
    #expect(stepsSeen.count >= 3, "the kills only landed after steps \(stepsSeen.sorted())")
  }

  /// A history thinning killed at random moments leaves every note's history thinned whole
  /// or not at all, keeps every version the rule keeps, and the next thinning finishes it.
  @Test func aKillDuringAThinningLeavesEachHistoryThinnedOrNotAndTheNextOpenFinishesIt()
    async throws
  {
    let writer = try #require(Programs.built("notes-crash-writer"), "notes-crash-writer not built")
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let original = folder.file("original.sqlite")
    let now = Date()
    try await MainActor.run {
      try RawDatabase.libraryWithOldHistory(original, notes: 1_000, versions: 20, now: now)
    }
    let before = try RawDatabase.versionNotes(original)
    // The versions a whole thinning keeps, found on a copy.
    let copy = folder.file("thinned.sqlite")
    try FileManager.default.copyItem(atPath: original, toPath: copy)
    let removed = try await MainActor.run {
      let database = try NotesDatabase(path: copy)
      defer { database.close() }
      return try database.thinHistoryAndWait(now: now)
    }
    let after = try RawDatabase.versionNotes(copy)
    #expect(removed > 0 && removed == before.count - after.count)
    let allByNote = Self.byNote(before)
    let thinnedByNote = Self.byNote(after)
    var generator = SystemRandomNumberGenerator()
    var midway = 0

    for round in 0..<10 {
      let path = folder.file("round\(round).sqlite")
      try FileManager.default.copyItem(atPath: original, toPath: path)
      let child = try ChildProcess(executable: writer, arguments: [path, "thin"])
      #expect(try child.readLine() == "ready", "round \(round)")
      // Aimed by progress, not by the clock (on two loaded cores a process's start and a
      // thinning's pace vary too much): killed once a random share of what goes has gone.
      let share = Double.random(in: 0.02...0.9, using: &generator)
      let target = Int64(before.count) - Int64((Double(removed) * share).rounded(.up))
      let deadline = ContinuousClock.now + .seconds(60)
      while try RawDatabase.versionCount(path) > target,
        ContinuousClock.now < deadline
      {
        try await Task.sleep(for: .milliseconds(1))
      }
      child.kill()
      while try child.readLine() != nil {}
      _ = try child.wait()

      #expect(try RawDatabase.integrityCheck(path) == "ok", "round \(round)")
      let remaining = try RawDatabase.versionNotes(path)
      #expect(Set(after.keys).isSubset(of: remaining.keys), "round \(round): a kept version went")
      #expect(Set(remaining.keys).isSubset(of: before.keys), "round \(round)")
      // Note by note: all of its versions, or the thinned ones.
      let have = Self.byNote(remaining)
      for (note, all) in allByNote {
        let versions = have[note] ?? []
        #expect(
          versions == all || versions == thinnedByNote[note],
          "round \(round): note \(note) half thinned")
      }
      if remaining.count != before.count && remaining.count != after.count { midway += 1 }
      // The thinning's date is written only at its end: the next open finishes it.
      let finished = try await MainActor.run {
        let database = try NotesDatabase(path: path)
        defer { database.close() }
        return try database.thinHistoryAndWait(now: now)
      }
      #expect(finished == remaining.count - after.count, "round \(round)")
      #expect(Set(try RawDatabase.versionNotes(path).keys) == Set(after.keys), "round \(round)")
    }
    #expect(midway > 0, "no kill landed in the middle of a thinning")
  }

  /// Version ids grouped by note.
  static func byNote(_ notes: [Int64: Int64]) -> [Int64: Set<Int64>] {
    var groups: [Int64: Set<Int64>] = [:]
    for (version, note) in notes { groups[note, default: []].insert(version) }
    return groups
  }
}
