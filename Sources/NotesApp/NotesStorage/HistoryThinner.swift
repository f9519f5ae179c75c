internal import Foundation
internal import NotesCore

/// What one thinning of a library's note history did.
public struct HistoryThinning: Equatable, Sendable {
  /// How many versions went.
  public var removed = 0
  /// How many write transactions it took.
  public var transactions = 0
  /// How long the longest of them held the write lock.
  public var longestTransaction = Duration.zero

  /// A thinning that did nothing.
  public init() {}
}

/// Thins one library file's note history on a queue of its own, a few notes at a time.
///
/// ## Guarantees
///
/// - The work runs on a utility queue through a connection of its own, never on the main
///   actor: opening a library with millions of versions shows it at once.
/// - Each run of notes is its own short write transaction, of as many notes as take about
///   2 ms, followed by a pause at least as long: a kill leaves every note's history thinned
///   or not, never half of one, and a commit of the app (or another process), which tries
///   the lock every millisecond (`SQLiteConnection.waitForLocks`), waits for one run at most.
/// - `cancel()` stops it between two runs and waits for the one running; nothing runs
///   after it. A thinning that fails (the disk is full, the file went away) stops and is
///   reported to `completion`; the versions thinned so far stay thinned, and the next
///   open tries again (the time of the last thinning is written only when it finished).
final class HistoryThinner: @unchecked Sendable {
  // @unchecked: `isCancelled` is read and written only under `lock`; the connection lives
  // only inside the block on `queue`.

  /// How many notes' versions the first transaction thins; later ones thin as many as take
  /// about 2 ms.
  static let firstNotesPerTransaction: Int64 = 100
  /// The most notes one transaction thins.
  static let mostNotesPerTransaction: Int64 = 5_000

  private let queue = DispatchQueue(label: "NotesStorage.HistoryThinner", qos: .utility)
  private let lock = NSLock()
  private var isCancelled = false

  /// Starts thinning the file at `path` as of `now`, unless it was thinned less than a day
  /// before; `completion` gets what it did, on the thinner's queue.
  init(
    path: String, now: Date,
    completion: @escaping @Sendable (Result<HistoryThinning, NotesStorageError>) -> Void = { _ in }
  ) {
    queue.async { [self] in
      do throws(NotesStorageError) {
        completion(.success(try thin(path: path, now: now)))
      } catch {
        completion(.failure(error))
      }
    }
  }

  /// Stops between two transactions and waits for the running one.
  func cancel() {
    lock.withLock { isCancelled = true }
    queue.sync {}
  }

  /// Waits until the thinning has ended (tests).
  func waitUntilDone() { queue.sync {} }

  private var cancelled: Bool { lock.withLock { isCancelled } }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  private func thin(path: String, now: Date) throws(NotesStorageError) -> HistoryThinning {
    var report = HistoryThinning()
    guard !cancelled else { return report }
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    connection.waitForLocks(upTo: 5_000)
    let time = now.timeIntervalSinceReferenceDate
    let last = try connection.withStatement(SQL.getMeta) {
      statement throws(NotesStorageError) -> Double? in
      try statement.bind(MetaKey.historyThinned, at: 1)
      return try statement.step() && !statement.isNull(at: 0) ? statement.double(at: 0) : nil
    }
    if let last, time - last < NoteHistory.keepsEveryVersionFor, time >= last { return report }
    let highest = try connection.int64("SELECT max(note_id) FROM note_versions") ?? 0
    var lowest: Int64 = 0
    var notes = Self.firstNotesPerTransaction
    let clock = ContinuousClock()
    while lowest <= highest {
      if cancelled { return report }
      let upper = lowest + notes - 1
      // What goes is read first, outside the write lock; the transaction only deletes.
      let doomed = try connection.read { () throws(NotesStorageError) -> [Int64] in
        try NoteVersionTable.thinnable(notes: lowest, through: upper, now: now, on: connection)
      }
      let start = clock.now
      report.removed += try connection.transaction { () throws(NotesStorageError) -> Int in
        try NoteVersionTable.delete(versions: doomed, on: connection)
      }
      let took = clock.now - start
      report.transactions += 1
      report.longestTransaction = max(report.longestTransaction, took)
      lowest = upper + 1
      // About 2 ms a transaction, whatever the versions per note and the machine.
      if took < .milliseconds(1) {
        notes = min(notes + notes / 2 + 1, Self.mostNotesPerTransaction)
      } else if took > .milliseconds(3) {
        notes = max(notes / 2, 1)
      }
      // The lock left free at least as long as it was held: a writer waiting for it (trying
      // every millisecond, see `waitForLocks`) takes it before the next run.
      Thread.sleep(forTimeInterval: max(0.002, Self.seconds(took)))
    }
    try connection.withStatement(SQL.setMeta) { statement throws(NotesStorageError) in
      try statement.bind(MetaKey.historyThinned, at: 1)
      try statement.bind(time, at: 2)
      try statement.step()
    }
    return report
  }
}
