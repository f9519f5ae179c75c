internal import Foundation
internal import NotesCore
internal import NotesServer
internal import NotesStorage

/// A push's batches, collected on a connection and a queue of their own.
///
/// They are collected from the library while the engine sends the ones before them to the server.
///
/// ## Guarantees
///
/// - Batches come in the order `LibrarySyncStore.outgoingChanges()` gives, each made (its
///   arrays written) on the collecting queue, from one SQLite transaction: the order and the
///   snapshot are those of collecting every change at once, so the push still never holds a
///   note without its notebook.
/// - `next()` answers `nil` only after that transaction committed: a push that commits on
///   the server after it never commits a change whose id the library has not stored.
/// - An error collecting is thrown by `next()` at once, so the push fails (rolled back)
///   instead of sending what was made before it.
/// - Acceptances handed to `acknowledge` are recorded on the same connection and queue,
///   after the collection and in the order given, while the caller goes on (the engine
///   sends the push's next server transaction meanwhile).
/// - `close()` stops the collection at its next chunk (what it stored stays stored: each
///   change stored is pushed as it is next time), waits for it and for the acknowledgements
///   handed over, and closes the connection, so no connection is closed while in use.
/// - Why: collecting a large push, and recording what the server accepted, is SQLite work (a
///   write per change each) and sending it is the server's; done side by side, a first push
///   costs about the larger of the two instead of their sum (the README has the figures).
final class OutgoingBatches: @unchecked Sendable {
  // `store` is used only on `queue`; `ready`, `finished` and `isStopped` only under
  // `condition`, which is signalled when a batch is ready or the collection ends.
  private let store: LibrarySyncStore
  private let queue = DispatchQueue(label: "notes.sync.push-collect")
  private let condition = NSCondition()
  private var ready: [SyncServer.PushBatch] = []
  private var taken = 0
  private var finished: Result<Void, any Error>?
  private var isStopped = false
  /// The first error recording acceptances, thrown by `acknowledged()`.
  private var acknowledgementError: (any Error)?

  /// Opens the library at `libraryPath` on a connection of its own and starts collecting,
  /// in batches of at most `changesPerBatch` changes (and `SyncServer.PushBatch`'s limits).
  init(libraryPath: String, changesPerBatch: Int) throws {
    store = try LibrarySyncStore(path: libraryPath)
    queue.async { [self] in
      let outcome = Result<Void, any Error> {
        try store.outgoingChanges(inChunksOf: changesPerBatch) { chunk in
          let batches = SyncServer.PushBatch.split(chunk)
          return condition.withLock {
            ready += batches
            condition.broadcast()
            return !isStopped
          }
        }
      }
      condition.withLock {
        finished = outcome
        condition.broadcast()
      }
    }
  }

  /// The next batch, once it is made; `nil` once every batch was handed out and the
  /// collection committed.
  ///
  /// - Throws: What collecting threw (a `NotesStorageError`).
  func next() throws -> SyncServer.PushBatch? {
    condition.lock()
    defer { condition.unlock() }
    while taken == ready.count, finished == nil { condition.wait() }
    if case .failure(let error) = finished { throw error }
    guard taken < ready.count else { return nil }
    taken += 1
    return ready[taken - 1]
  }

  /// Whether the collection has committed (every batch is made, some maybe not taken).
  var isCollected: Bool {
    condition.withLock {
      if case .success = finished { true } else { false }
    }
  }

  /// Records, on the collecting connection and after the collection, that the server
  /// accepted `accepted` (a server transaction committed them); the caller goes on.
  ///
  /// An error is kept for ``acknowledged()``; the changes then stay pending under their
  /// ids, and the next sync learns their outcome from the server.
  func acknowledge(_ accepted: [(OutgoingChange, seq: Int64)]) {
    queue.async { [self] in
      guard condition.withLock({ acknowledgementError == nil }) else { return }
      do {
        try store.acknowledge(accepted)
      } catch {
        condition.withLock { acknowledgementError = error }
      }
    }
  }

  /// Waits until every acceptance handed to ``acknowledge(_:)`` is recorded.
  ///
  /// - Throws: The first error recording one (a `NotesStorageError`).
  func acknowledged() throws {
    queue.sync {}
    if let error = condition.withLock({ acknowledgementError }) { throw error }
  }

  /// Stops collecting, waits for the collection and the acknowledgements handed over to
  /// end, and closes the connection.
  func close() {
    condition.withLock { isStopped = true }
    queue.sync { store.close() }
  }
}
