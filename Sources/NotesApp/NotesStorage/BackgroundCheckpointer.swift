internal import CSQLite
internal import Foundation

/// Runs the write-ahead log's checkpoints of one database file off the committing thread.
///
/// The write-ahead log copied back into the database file on a queue of its own, not inside the
/// commit that filled it.
///
/// ## Guarantees
///
/// - SQLite's own rule is kept (a checkpoint once the log holds `pages` pages), but the
///   checkpoint runs on a utility queue through a connection of its own, so a commit never
///   waits for a checkpoint it triggered: inside the commit, copying a full log would make
///   the keystroke that crossed the threshold several times slower than the others (the
///   README has the figures).
/// - At most one checkpoint waits in the queue (besides one running); commits meanwhile ask
///   for nothing more.
/// - Checkpoints are passive: they never wait for a reader or a writer of this or another
///   process, so they block nobody; what one cannot copy yet, a later one copies.
/// - `close()` waits for a running checkpoint, then closes the connection; nothing runs
///   after it. The owner closes its own connection after this one, so SQLite's final
///   checkpoint on closing the last connection is the owner's.
/// - A checkpoint that fails (the disk is full, the file went away) is dropped: the log
///   keeps the pages, the next checkpoint tries again, and no commit is affected.
final class BackgroundCheckpointer: @unchecked Sendable {
  // @unchecked: `isScheduled` and `isClosed` are read and written only under `lock`;
  // `connection` only on `queue` (and by `close()` inside `queue.sync`).

  /// The log's size, in pages, at which a commit asks for a checkpoint (SQLite's default
  /// for its own automatic checkpoints).
  static let pages: Int32 = 1_000

  private let path: String
  private let queue = DispatchQueue(label: "NotesStorage.BackgroundCheckpointer", qos: .utility)
  private let lock = NSLock()
  private var isScheduled = false
  private var isClosed = false
  private var connection: OpaquePointer?

  /// A checkpointer for the database file at `path`; it opens its connection when it first
  /// checkpoints.
  init(path: String) { self.path = path }

  deinit { closeConnection() }

  /// Asks for a checkpoint unless one is queued or running, or the checkpointer is closed.
  func schedule() {
    lock.lock()
    let start = !isScheduled && !isClosed
    if start { isScheduled = true }
    lock.unlock()
    guard start else { return }
    queue.async { self.checkpoint() }
  }

  /// Waits for a queued or running checkpoint (tests).
  func waitUntilIdle() { queue.sync {} }

  /// Waits for a running checkpoint, then closes the connection; later requests do nothing.
  func close() {
    lock.lock()
    isClosed = true
    lock.unlock()
    queue.sync { closeConnection() }
  }

  private func checkpoint() {
    lock.lock()
    isScheduled = false
    let closed = isClosed
    lock.unlock()
    guard !closed else { return }
    if connection == nil {
      var handle: OpaquePointer?
      let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
      guard code == SQLITE_OK, let handle else {
        sqlite3_close_v2(handle)
        return
      }
      // A new connection learns that the file is in WAL mode when it first reads it;
      // until then a checkpoint does nothing.
      guard sqlite3_exec(handle, "PRAGMA journal_mode", nil, nil, nil) == SQLITE_OK else {
        sqlite3_close_v2(handle)
        return
      }
      connection = handle
    }
    var logPages: Int32 = 0
    var copiedPages: Int32 = 0
    _ = sqlite3_wal_checkpoint_v2(
      connection, nil, SQLITE_CHECKPOINT_PASSIVE, &logPages, &copiedPages)
  }

  private func closeConnection() {
    if let connection { sqlite3_close_v2(connection) }
    connection = nil
  }
}
