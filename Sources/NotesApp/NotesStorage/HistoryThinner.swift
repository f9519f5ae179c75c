internal import Foundation
internal import NotesCore

/// Thins one library file's note history on a queue of its own, a few notes at a time.
///
/// ## Guarantees
///
/// - The work runs on a utility queue through a connection of its own, never on the main
///   actor: opening a library with millions of versions shows it at once.
/// - Each run of ``notesPerTransaction`` notes is its own short write transaction: a kill
///   leaves every note's history thinned or not, never half of one, and a commit of the app
///   (or another process) waits for one run at most before it takes the write lock.
/// - `cancel()` stops it between two runs and waits for the one running; nothing runs
///   after it. A thinning that fails (the disk is full, the file went away) stops and is
///   reported to `completion`; the versions thinned so far stay thinned, and the next
///   open tries again (the time of the last thinning is written only when it finished).
final class HistoryThinner: @unchecked Sendable {
  // @unchecked: `isCancelled` is read and written only under `lock`; the connection lives
  // only inside the block on `queue`.

  /// How many notes' versions one transaction thins.
  static let notesPerTransaction: Int64 = 250

  private let queue = DispatchQueue(label: "NotesStorage.HistoryThinner", qos: .utility)
  private let lock = NSLock()
  private var isCancelled = false

  /// Starts thinning the file at `path` as of `now`, unless it was thinned less than a day
  /// before; `completion` gets how many versions went, on the thinner's queue.
  init(
    path: String, now: Date,
    completion: @escaping @Sendable (Result<Int, NotesStorageError>) -> Void = { _ in }
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

  private func thin(path: String, now: Date) throws(NotesStorageError) -> Int {
    guard !cancelled else { return 0 }
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    try connection.run("PRAGMA busy_timeout = 5000")
    let time = now.timeIntervalSinceReferenceDate
    let last = try connection.withStatement(SQL.getMeta) {
      statement throws(NotesStorageError) -> Double? in
      try statement.bind(MetaKey.historyThinned, at: 1)
      return try statement.step() && !statement.isNull(at: 0) ? statement.double(at: 0) : nil
    }
    if let last, time - last < NoteHistory.keepsEveryVersionFor, time >= last { return 0 }
    let highest = try connection.int64("SELECT max(note_id) FROM note_versions") ?? 0
    var removed = 0
    var lowest: Int64 = 0
    while lowest <= highest {
      if cancelled { return removed }
      let upper = lowest + Self.notesPerTransaction - 1
      removed += try connection.transaction { () throws(NotesStorageError) -> Int in
        try NoteVersionTable.thin(notes: lowest, through: upper, now: now, on: connection)
      }
      lowest = upper + 1
    }
    try connection.withStatement(SQL.setMeta) { statement throws(NotesStorageError) in
      try statement.bind(MetaKey.historyThinned, at: 1)
      try statement.bind(time, at: 2)
      try statement.step()
    }
    return removed
  }
}
