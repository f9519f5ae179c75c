// Figure 20, note-history: what keeping every version of every note costs at the size of
// the library.
//
// On a copy of the library, every note is given 20 kept versions, each its text with a
// word changed, all saved on one day ten days ago (written with one INSERT … SELECT per
// round, not timed). Then:
// - the file's size before and after, per note and per version;
// - reading one note's history of 10,000 versions (`NotesDatabase.history(of:)`), newest
//   first, median and p99 of repeated reads (target: ≤ 50 ms);
// - thinning the whole history in the background (`thinHistory(now:completion:)`: of each
//   note's 20 versions on one day, 19 go), while the main actor commits an edit every
//   2 ms; every commit's time is kept, and the longest is the pause thinning caused
//   (target: ≤ 16 ms); then as many commits with nothing else running, for comparison,
//   and the thinning's own longest write transaction.

import Airframe
import AirframeBinding
import AirframeTesting
import CSQLite
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesStorage

/// Figure 20: note history at the size of the library.
@MainActor
func noteHistoryFigure(number: Int, fixture: NotesFixture, scale: Scale, sink: Sink) throws
  -> Figure
{
  let path = try fixture.folder.copy(fixture.path, to: "history.sqlite")
  let notes = fixture.library.notes
  let versionsPerNote = 20
  let longHistory = scale.notesCount >= 100_000 ? 10_000 : 1_000
  let day: TimeInterval = 24 * 3_600
  let now = Date()
  // Ten days ago, at 01:00 UTC: every version on the same day, an hour apart at most.
  let dayStart =
    (now.timeIntervalSinceReferenceDate / day).rounded(.down) * day - 10 * day + 3_600
  let before = try fileBytes(path)
  let longNote = notes[notes.count / 2].id
  try withRawConnection(path) { execute in
    try execute("BEGIN IMMEDIATE")
    for round in 0..<versionsPerNote {
      let time = dayStart + Double(round) * 60
      try execute(
        """
        INSERT INTO note_versions(note_id, title, body, began, saved, origin)
        SELECT id, title, replace(body, ' ', ' v\(round) '), \(time), \(time), 'this-device'
        FROM notes
        """)
    }
    try execute("COMMIT")
    try execute("PRAGMA wal_checkpoint(TRUNCATE)")
  }
  let after = try fileBytes(path)
  try withRawConnection(path) { execute in
    try execute("BEGIN IMMEDIATE")
    // The long history: one note's versions, a minute apart, ending today.
    try execute(
      """
      WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < \(longHistory - 1))
      INSERT INTO note_versions(note_id, title, body, began, saved, origin)
      SELECT id, title, body || ' ' || k, \(now.timeIntervalSinceReferenceDate) - k * 60,
        \(now.timeIntervalSinceReferenceDate) - k * 60, 'this-device'
      FROM notes, n WHERE id = \(longNote.rawValue)
      """)
    try execute("COMMIT")
  }

  let database = try NotesDatabase(path: path)
  defer { database.close() }
  // Reading the long history.
  let reads = max(5, scale.notesSearches / 10)
  var readSamples: [Double] = []
  var read = 0
  let failures = FailureLog()
  for step in 0..<(reads + 2) {
    let nanoseconds = timeNanoseconds {
      failures.attempt { read = try database.history(of: longNote).count }
    }
    if step >= 2 { readSamples.append(nanoseconds) }
  }
  try failures.check()
  sink.total &+= read

  // Thinning in the background while the main actor commits.
  let dispatcher = ActionDispatcher(model: Model(try database.loadState(), storage: database))
  let outcome = ThinningOutcome()
  let thinStart = ContinuousClock.now
  database.thinHistory(now: now) { outcome.finish($0) }
  var commitSamples: [Double] = []
  var random = SeededRandomNumberGenerator(seed: 29)
  var step = 0
  while !outcome.isFinished {
    let id = notes[Int.random(in: 0..<notes.count, using: &random)].id
    step += 1
    commitSamples.append(
      timeNanoseconds {
        _ = dispatcher.dispatch(
          EditNoteBody(id: id, body: "edited while thinning \(step)", now: now))
      })
    Thread.sleep(forTimeInterval: 0.002)
  }
  let elapsed = (ContinuousClock.now - thinStart).components
  let thinSeconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
  let thinning = try outcome.result?.get() ?? HistoryThinning()
  let removed = thinning.removed
  let longestTransaction =
    Double(thinning.longestTransaction.components.seconds) * 1e9
    + Double(thinning.longestTransaction.components.attoseconds) / 1e9

  // The same commits with nothing else running: what the machine alone gives.
  var quietSamples: [Double] = []
  for _ in 0..<min(max(commitSamples.count, 10), 2_000) {
    let id = notes[Int.random(in: 0..<notes.count, using: &random)].id
    step += 1
    quietSamples.append(
      timeNanoseconds {
        _ = dispatcher.dispatch(EditNoteBody(id: id, body: "edited alone \(step)", now: now))
      })
    Thread.sleep(forTimeInterval: 0.002)
  }

  let readTarget = 50e6
  let pauseTarget = 16e6
  let readStats = Stats(samples: readSamples)
  let readP99 = nearestRank(readSamples, 0.99)
  let longest = commitSamples.max() ?? 0
  let commitStats = Stats(samples: commitSamples.isEmpty ? [0] : commitSamples)
  let versions = notes.count * versionsPerNote
  let overhead = Double(after - before)
  var figure = Figure(
    number: number,
    title: "note history: \(grouped(notes.count)) notes with \(versionsPerNote) kept versions"
      + " each (ms)",
    kind: .scaledTime(unit: "ms", nanosecondsPerUnit: 1e6))
  figure.rows.append(
    Row(
      benchmark: "note-history", subject: "read a history of \(grouped(longHistory)) versions",
      operations: 1, repetitions: reads, time: readStats,
      extras: [
        ("p99_ns_per_op", .double(readP99)), ("versions", .int(read)),
        ("target_ns_per_op", .double(readTarget)),
        ("target_met", .bool(readStats.median <= readTarget)),
      ],
      comment: "p99 \(formatted(readP99 / 1e6, digits: 2)) ms"))
  figure.rows.append(
    Row(
      benchmark: "note-history",
      subject: "a commit on the main actor while thinning runs (every 2 ms)",
      operations: 1, repetitions: commitSamples.count, time: commitStats,
      extras: [
        ("max_ns", .double(longest)), ("commits", .int(commitSamples.count)),
        ("target_max_ns", .double(pauseTarget)), ("target_met", .bool(longest <= pauseTarget)),
      ],
      comment:
        "longest \(formatted(longest / 1e6, digits: 2)) ms of \(grouped(commitSamples.count))"))
  let quietLongest = quietSamples.max() ?? 0
  figure.rows.append(
    Row(
      benchmark: "note-history", subject: "the same commit, nothing else running",
      operations: 1, repetitions: quietSamples.count, time: Stats(samples: quietSamples),
      extras: [("max_ns", .double(quietLongest)), ("commits", .int(quietSamples.count))],
      comment:
        "longest \(formatted(quietLongest / 1e6, digits: 2)) ms of \(grouped(quietSamples.count))"))
  figure.rows.append(
    Row(
      benchmark: "note-history",
      subject: "thinning \(grouped(versions + longHistory)) versions in the background",
      operations: 1, repetitions: 1, time: Stats(samples: [thinSeconds * 1e9]),
      extras: [
        ("removed", .int(removed)), ("transactions", .int(thinning.transactions)),
        ("longest_transaction_ns", .double(longestTransaction)),
      ],
      comment: "\(grouped(removed)) removed in \(grouped(thinning.transactions)) transactions,"
        + " longest \(formatted(longestTransaction / 1e6, digits: 2)) ms"))
  figure.notes.append(
    "size: \(formatted(Double(before) / 1e6, digits: 1)) MB without history,"
      + " \(formatted(Double(after) / 1e6, digits: 1)) MB with \(grouped(versions)) versions:"
      + " \(formatted(overhead / Double(notes.count) / 1e3, digits: 2)) kB a note,"
      + " \(formatted(overhead / Double(versions), digits: 0)) B a version")
  figure.notes.append(
    "target: a history of \(grouped(longHistory)) versions read in ≤ 50 ms: "
      + (readStats.median <= readTarget ? "met" : "MISSED")
      + (longHistory < 10_000 ? " (quick run: 1,000 versions)" : ""))
  figure.notes.append(
    "target: no main-actor commit longer than 16 ms while thinning: "
      + (longest <= pauseTarget ? "met" : "MISSED"))
  sink.count += reads + commitSamples.count + quietSamples.count
  return figure
}

/// The size of the file at `path`, its write-ahead log included.
private func fileBytes(_ path: String) throws -> Int64 {
  var total: Int64 = 0
  for file in [path, path + "-wal"] {
    if let size = try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64 {
      total += size
    }
  }
  return total
}

/// Runs `body` with a function that executes SQL on a raw connection to `path`.
private func withRawConnection<Result>(
  _ path: String, _ body: ((String) throws -> Void) throws -> Result
) throws -> Result {
  var handle: OpaquePointer?
  guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle
  else {
    sqlite3_close_v2(handle)
    throw RawSQLiteError(description: "cannot open \(path)")
  }
  defer { sqlite3_close_v2(handle) }
  return try body { sql in
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
      throw RawSQLiteError(description: String(cString: sqlite3_errmsg(handle)))
    }
  }
}

/// The thinning's end, set on its queue and read on the main actor.
private final class ThinningOutcome: @unchecked Sendable {
  // @unchecked: `stored` is read and written only under `lock`.
  private let lock = NSLock()
  private var stored: Result<HistoryThinning, NotesStorageError>?

  func finish(_ result: Result<HistoryThinning, NotesStorageError>) {
    lock.withLock { stored = result }
  }

  var result: Result<HistoryThinning, NotesStorageError>? { lock.withLock { stored } }

  var isFinished: Bool { result != nil }
}
