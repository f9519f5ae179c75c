// Note history in the library file: which saves keep a version, how close saves fold into
// one, what deleting does to a history, and the thinning rule.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

/// A clock a test moves by hand.
final class HandClock: @unchecked Sendable {
  // @unchecked: `time` is read and written only under `lock`.
  private let lock = NSLock()
  private var time: Date

  init(_ time: Date) { self.time = time }

  var now: Date {
    lock.withLock { time }
  }

  func advance(by seconds: TimeInterval) {
    lock.withLock { time = time.addingTimeInterval(seconds) }
  }
}

@Suite(.noLiveBindings, .timeLimit(.minutes(2)))
@MainActor
struct NoteHistoryStorageTests {
  typealias F = Fixtures
  let groceries = NoteID(rawValue: 2)

  /// A library holding notebook 1 "Home" with note 2 "Groceries" ("milk"), whose clock
  /// `clock` is.
  func withLibrary(
    clock: HandClock, _ body: (LibraryProcess, NotesDatabase, String) throws -> Void
  ) throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let database = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: FullTextIndex.isAvailable,
      schemaVersion: Migration.latestVersion, clock: { clock.now })
    defer { database.close() }
    let model = Model(try database.loadState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk"), into: \.notes)
      transaction.set(\.lastAssignedID, to: 2)
    }
    try body(LibraryProcess(model: model, database: database), database, path)
  }

  func edit(_ process: LibraryProcess, _ body: String, clock: HandClock) -> ActionOutcome {
    process.dispatcher.dispatch(EditNoteBody(id: groceries, body: body, now: clock.now))
  }

  @Test func theFirstChangeKeepsTheTextBeforeItThenSavesWithinAMinuteAreOneVersion() throws {
    let clock = HandClock(F.date(100))
    try withLibrary(clock: clock) { library, database, _ in
      #expect(try database.history(of: groceries).isEmpty, "a new note has no history yet")
      #expect(edit(library, "milk\neggs", clock: clock).isCommitted)
      var history = try database.history(of: groceries)
      #expect(history.map(\.body) == ["milk\neggs", "milk"])
      #expect(history.map(\.origin) == [.thisDevice, .beforeHistory])
      #expect(history[1].saved == F.note(2, in: 1, "").modified, "when it was last modified")

      // Typing on, within the minute: the same version, its text and time replaced.
      clock.advance(by: 30)
      #expect(edit(library, "milk\neggs\nbread", clock: clock).isCommitted)
      history = try database.history(of: groceries)
      #expect(history.map(\.body) == ["milk\neggs\nbread", "milk"])
      #expect(history[0].saved == clock.now)
      // A minute after the version began: a new one.
      clock.advance(by: 30)
      #expect(edit(library, "milk\neggs\nbread\nbutter", clock: clock).isCommitted)
      history = try database.history(of: groceries)
      #expect(history.map(\.body) == ["milk\neggs\nbread\nbutter", "milk\neggs\nbread", "milk"])
      #expect(history.map(\.id) == history.map(\.id).sorted(by: >), "newest first")

      // A rename is a version too; pinning or moving is not.
      clock.advance(by: 120)
      #expect(
        library.dispatcher.dispatch(RenameNote(id: groceries, title: "Shop", now: clock.now))
          .isCommitted)
      #expect(try database.history(of: groceries).first?.title == "Shop")
      let count = try database.history(of: groceries).count
      clock.advance(by: 120)
      #expect(
        library.dispatcher.dispatch(SetNotePinned(id: groceries, isPinned: true))
          .isCommitted)
      #expect(try database.history(of: groceries).count == count)
    }
  }

  @Test func aRestoredVersionIsANewEditWithAnOriginOfItsOwnAndUndoesLikeOne() throws {
    let clock = HandClock(F.date(100))
    try withLibrary(clock: clock) { library, database, _ in
      #expect(edit(library, "eggs", clock: clock).isCommitted)
      let first = try #require(try database.history(of: groceries).last)
      #expect(first.body == "milk")
      clock.advance(by: 5)
      #expect(
        library.dispatcher.dispatch(RestoreNoteVersion(version: first, now: clock.now))
          .isCommitted)
      #expect(library.model.state.notes[groceries]?.body == "milk")
      let history = try database.history(of: groceries)
      #expect(history.map(\.origin) == [.restoredVersion, .thisDevice, .beforeHistory])
      #expect(history.map(\.body) == ["milk", "eggs", "milk"], "nothing since is lost")

      #expect(library.dispatcher.undo().isCommitted)
      #expect(library.model.state.notes[groceries]?.body == "eggs")
      #expect(try database.history(of: groceries).first?.body == "eggs")
    }
  }

  @Test func aRestoredVersionObeysTodaysRules() throws {
    let clock = HandClock(F.date(100))
    try withLibrary(clock: clock) { library, database, _ in
      let untitled = NoteVersion(
        id: 99, noteID: groceries, title: "  ", body: "x", saved: clock.now, origin: .anotherDevice)
      let outcome = library.dispatcher.dispatch(
        RestoreNoteVersion(version: untitled, now: clock.now))
      #expect(!outcome.isCommitted)
      #expect(library.model.state.notes[groceries]?.title == "Groceries")
      let history = try database.history(of: groceries)
      #expect(history.isEmpty, "nothing kept for a refused edit")
    }
  }

  @Test func aHistoryStaysWithANoteInRecentlyDeletedAndGoesWhenItIsDeletedForGood() throws {
    let clock = HandClock(F.date(100))
    try withLibrary(clock: clock) { library, database, path in
      #expect(edit(library, "eggs", clock: clock).isCommitted)
      #expect(library.dispatcher.dispatch(DeleteNote(id: groceries, now: clock.now)).isCommitted)
      let history = try database.history(of: groceries)
      #expect(history.count == 2)
      #expect(
        library.dispatcher.dispatch(RestoreDeletedNote(id: groceries, now: clock.now)).isCommitted)
      #expect(try database.history(of: groceries).count == 2)
      #expect(library.dispatcher.dispatch(DeleteNote(id: groceries, now: clock.now)).isCommitted)
      #expect(library.dispatcher.dispatch(DeleteForGood(.all)).isCommitted)
      #expect(try database.history(of: groceries).isEmpty)
      #expect(try RawDatabase.int64(path, "SELECT count(*) FROM note_versions") == 0)
    }
  }

  /// Versions of note 2 saved `ago` seconds before `now`, in that order, written directly.
  func keep(_ agos: [TimeInterval], before now: Date, path: String) throws {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    for (index, ago) in agos.enumerated() {
      let time = now.timeIntervalSinceReferenceDate - ago
      try connection.run(
        "INSERT INTO note_versions(note_id, title, body, began, saved, origin)"
          + " VALUES (2, 'Groceries', 'v\(index)', \(time), \(time), 'this-device')")
    }
  }

  @Test func thinningKeepsEveryVersionOfADayThenOneAnHourADayAndAWeek() throws {
    let hour: TimeInterval = 3_600
    let day = 24 * hour
    // Midnight UTC at the start of a week counted from 2001 (whose 1 January is a Monday).
    let now = Date(timeIntervalSinceReferenceDate: 1_300 * 7 * day)
    let clock = HandClock(now)
    try withLibrary(clock: clock) { _, database, path in
      try keep(
        [
          // 0–1: older than a day, within the week, one hour: only the newer stays.
          30 * hour + 50 * 60, 30 * hour + 10 * 60,
          // 2–3: older than a week, within 30 days, one day: only the newer stays.
          10 * day + 5 * hour, 10 * day + 2 * hour,
          // 4: within 30 days, alone in its day: it stays.
          11 * day + 1 * hour,
          // 5–6: older than 30 days, one week: only the newer stays.
          40 * day + 3 * hour, 40 * day + 1 * hour,
          // 7–9: within the last day: all stay.
          5 * hour, 4 * hour, 3 * 60,
        ], before: now, path: path)
      #expect(try database.thinHistoryAndWait(now: now) == 3)
      let kept = try database.history(of: groceries).map(\.body).sorted()
      #expect(kept == ["v1", "v3", "v4", "v6", "v7", "v8", "v9"])
      // Once a day: the next open on the same day thins nothing, even a new version.
      try keep([20 * day + 2 * hour, 20 * day + 1 * hour], before: now, path: path)
      #expect(try database.thinHistoryAndWait(now: now.addingTimeInterval(hour)) == 0)
      #expect(try database.thinHistoryAndWait(now: now.addingTimeInterval(day)) == 1)
    }
  }

  @Test func thinningAlwaysKeepsANotesNewestVersionAndLeavesAReadOnlyLibraryAlone() throws {
    let day: TimeInterval = 24 * 3_600
    let now = Date(timeIntervalSinceReferenceDate: 1_300 * 7 * day)
    let clock = HandClock(now)
    try withLibrary(clock: clock) { _, database, path in
      // Two versions in one old week; the newer is the note's newest, and stays.
      try keep([100 * day + 1, 100 * day], before: now, path: path)
      let readOnly = try NotesDatabase(path: path, access: .readOnly)
      defer { readOnly.close() }
      #expect(try readOnly.thinHistoryAndWait(now: now) == 0)
      #expect(try database.history(of: groceries).count == 2)
      #expect(try database.thinHistoryAndWait(now: now) == 1)
      #expect(try database.history(of: groceries).map(\.body) == ["v1"])
      #expect(try database.thinHistoryAndWait(now: now.addingTimeInterval(400 * day)) == 0)
    }
  }

  @Test func aVersionSurvivesARelaunchAndAnotherProcessSeesIt() throws {
    let clock = HandClock(F.date(100))
    try withLibrary(clock: clock) { library, _, path in
      #expect(edit(library, "eggs", clock: clock).isCommitted)
      let other = try NotesDatabase(path: path)
      defer { other.close() }
      #expect(try other.history(of: groceries).map(\.body) == ["eggs", "milk"])
      #expect(
        try other.noteVersion(try #require(other.history(of: groceries).last).id)?.body == "milk")
    }
  }

  /// Closing a library stops its thinning between two transactions: nothing is deleted
  /// after, the completion reports what was, and as the thinning did not finish, the next
  /// one (at the next open) thins the rest.
  @Test func closingALibraryStopsItsThinningMidwayAndTheNextThinningFinishesIt() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let now = Date()
    try RawDatabase.libraryWithOldHistory(path, notes: 3_000, versions: 20, now: now)
    let total = try RawDatabase.versionCount(path)

    let database = try NotesDatabase(path: path)
    let reported = ThinningReport()
    database.thinHistory(now: now) { reported.set($0) }
    // Close once the first transactions have committed.
    let deadline = Date().addingTimeInterval(60)
    while try RawDatabase.versionCount(path) == total, Date() < deadline {
      Thread.sleep(forTimeInterval: 0.001)
    }
    database.close()
    let atClose = try RawDatabase.versionCount(path)
    Thread.sleep(forTimeInterval: 0.05)
    #expect(try RawDatabase.versionCount(path) == atClose, "the thinning went on after close")
    #expect(try reported.get()?.get().removed == Int(total - atClose))
    let thinnedAt = "SELECT count(*) FROM meta WHERE key = '\(MetaKey.historyThinned)'"
    #expect(try RawDatabase.int64(path, thinnedAt) == 0, "a stopped thinning counts as done")

    let reopened = try NotesDatabase(path: path)
    defer { reopened.close() }
    let rest = try reopened.thinHistoryAndWait(now: now)
    #expect(rest > 0, "the thinning had finished before the library closed")
    #expect(try RawDatabase.int64(path, thinnedAt) == 1)
    #expect(try reopened.thinHistoryAndWait(now: now.addingTimeInterval(2 * 86_400)) == 0)
  }
}

/// What a thinning reported, handed from the thinner's queue to the test.
final class ThinningReport: @unchecked Sendable {
  // @unchecked: `result` is read and written only under `lock`.
  private let lock = NSLock()
  private var result: Result<HistoryThinning, NotesStorageError>?

  func set(_ result: Result<HistoryThinning, NotesStorageError>) {
    lock.withLock { self.result = result }
  }

  func get() -> Result<HistoryThinning, NotesStorageError>? { lock.withLock { result } }
}
