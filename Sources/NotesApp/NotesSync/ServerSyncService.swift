public import Foundation
public import NotesCore
public import NotesServer
internal import NotesStorage

/// Syncs a library with its server, off the main actor.
///
/// The app's `SyncService` on a real server — each sync runs the `SyncEngine` on a serial queue of
/// its own.
///
/// ```swift
/// let service = ServerSyncService(libraryPath: database.path)
/// let driver = SyncDriver(model: model, service: service)   // one per library
/// driver.request(.user)
/// ```
///
/// ## Guarantees
///
/// - Never blocks the main actor or the cooperative pool: every engine call (SQLite and
///   libpq, both blocking) runs on the service's own serial queue, one sync at a time, and
///   what the main actor reads (`report`, `retryDelay`) is kept under a lock of its own,
///   never behind a sync that waits on the network.
/// - Every wait on the network is bounded (`NetworkBounds`): a server that goes silent
///   fails the sync as offline within `bounds.answer`, and the next try connects afresh.
/// - Progress is reported in order, from 0 to 1, by changes pushed and pulled.
/// - A failure keeps everything pending (see `SyncEngine`) and is described for the status
///   bar with the reason and when the next try comes — as being offline only when the server
///   could not be reached or the connection was lost (a server that answered and refused,
///   or the library's own failure, is not "offline"): tries back off from 1 s, doubling up
///   to 60 s, and a success resets them. The engine (its connections) is
///   dropped after a failure and made again by the next try.
/// - Cancelling the awaiting task (quitting while a sync runs) ends the sync at the engine's
///   next step, between transactions, and the call throws `CancellationError` once the queue
///   is done with the library: nothing half-applied, every change not yet pushed still
///   pending, and the next sync goes on from there.
/// - Thread-safety: the engine and the failure count are touched only on the queue; the
///   last report and the retry delay under `lock`. The class is `@unchecked Sendable` by
///   that discipline.
public final class ServerSyncService: SyncService, @unchecked Sendable {
  /// A sync that failed: the changes wait until a later try succeeds.
  public struct Offline: Error, CustomStringConvertible {
    /// Why the sync failed.
    public let reason: String
    /// How long until the next try.
    public let retryIn: Duration
    /// How many changes wait for the server.
    public let pending: Int
    /// Whether the server could not be reached or the connection was lost; `false` when the
    /// server answered and refused, or the library itself failed.
    public let isUnreachable: Bool

    /// Creates a failure's description.
    ///
    /// - Parameters:
    ///   - reason: Why the sync failed.
    ///   - retryIn: How long until the next try.
    ///   - pending: How many changes wait for the server.
    ///   - isUnreachable: Whether the server could not be reached.
    public init(reason: String, retryIn: Duration, pending: Int, isUnreachable: Bool = true) {
      self.reason = reason
      self.retryIn = retryIn
      self.pending = pending
      self.isUnreachable = isUnreachable
    }

    /// "offline, N changes pending, retrying in N s: <reason>" — the short facts first, so
    /// a narrow status bar still shows them; without "offline, " when the server was
    /// reached.
    public var description: String {
      let changes = pending == 1 ? "1 change" : "\(pending) changes"
      let facts = "\(changes) pending, retrying in \(retryIn.components.seconds) s: \(reason)"
      return isUnreachable ? "offline, \(facts)" : facts
    }
  }

  /// The sender every push of this service signals with (`PushSignal`): the app's signal
  /// listener ignores it, and hears every other program's pushes, copies of this library's
  /// included.
  public let sender = PushSignal.newSender()
  private let libraryPath: String
  private let serverURL: String?
  private let bounds: NetworkBounds
  private let queue = DispatchQueue(label: "notes.sync")
  // Touched only on `queue`.
  private var engine: SyncEngine?
  private var failures = 0
  // Guarded by `lock`: read from the main actor, which must never wait for the queue.
  private let lock = NSLock()
  private var lastReport = SyncReport()
  private var retryAfter: Duration?

  /// Creates the service for the library file at `libraryPath`.
  ///
  /// - Parameters:
  ///   - libraryPath: The library file.
  ///   - serverURL: The server; by default the one `notes sync setup` stored.
  ///   - bounds: How long a sync waits on the network at each step.
  public init(
    libraryPath: String, serverURL: String? = nil, bounds: NetworkBounds = .standard
  ) {
    self.libraryPath = libraryPath
    self.serverURL = serverURL
    self.bounds = bounds
  }

  /// What the last successful sync moved.
  public var report: SyncReport { lock.withLock { lastReport } }

  /// How many versions from the server the library keeps aside unread, read from the
  /// library on the service's queue (0 when it cannot be read).
  ///
  /// - Returns: The count.
  public func keptAsideCount() async -> Int {
    let path = libraryPath
    return await withCheckedContinuation { done in
      queue.async {
        let store = try? LibrarySyncStore(path: path)
        defer { store?.close() }
        let kept = (try? store?.keptAside()) ?? []
        done.resume(returning: kept.filter { !$0.isAcknowledged }.count)
      }
    }
  }

  /// How long to wait before trying again after the last sync failed offline; `nil` after a
  /// success, or when sync is not set up (trying again would not help).
  public var retryDelay: Duration? { lock.withLock { retryAfter } }

  /// Runs one sync on the service's queue.
  ///
  /// Cancelling the calling task ends the sync at the engine's next step (before a push,
  /// after a page pulled), between transactions: what was done stays done, the rest stays
  /// pending, and the call throws `CancellationError` once the queue has let go.
  ///
  /// - Parameter progress: Called with values from 0 to 1, in order.
  /// - Returns: When the sync finished.
  /// - Throws: ``Offline`` with the reason, or `CancellationError`.
  public func sync(progress: @escaping @Sendable (Double) async -> Void) async throws -> Date {
    try Task.checkCancellation()
    let cancelled = CancellationFlag()
    return try await withTaskCancellationHandler {
      let (reports, continuation) = AsyncStream.makeStream(of: Double.self)
      async let outcome: Result<Date, any Error> = withCheckedContinuation { done in
        queue.async {
          let result = self.runOnQueue(cancelled: cancelled) { continuation.yield($0) }
          continuation.finish()
          done.resume(returning: result)
        }
      }
      await progress(0)
      // Ends early when the task is cancelled; the outcome is still awaited, so the queue
      // has finished with the library before this returns.
      for await fraction in reports { await progress(fraction) }
      return try await outcome.get()
    } onCancel: {
      cancelled.set()
    }
  }

  /// Runs the engine; on the queue.
  ///
  /// - Parameters:
  ///   - cancelled: Set when the caller is cancelled; checked at each step of the engine.
  ///   - progress: Called with the fraction done.
  /// - Returns: When the sync finished, or why it did not.
  private func runOnQueue(
    cancelled: CancellationFlag, progress: (Double) -> Void
  ) -> Result<Date, any Error> {
    do {
      let engine =
        try self.engine
        ?? SyncEngine(
          libraryPath: libraryPath, serverURL: serverURL, bounds: bounds, sender: sender)
      self.engine = engine
      let report = try engine.sync { step in
        if cancelled.isSet { throw CancellationError() }
        progress(step.fraction)
      }
      failures = 0
      lock.withLock {
        lastReport = report
        retryAfter = nil
      }
      return .success(report.finished ?? Date())
    } catch is CancellationError {
      // Not a failure: the engine stopped between transactions and stays usable.
      return .failure(CancellationError())
    } catch let error as SyncEngine.NotSetUp {
      lock.withLock { retryAfter = nil }
      return .failure(error)
    } catch {
      engine?.close()
      engine = nil
      failures += 1
      let delay = Duration.seconds(min(60, 1 << min(failures - 1, 6)))
      lock.withLock { retryAfter = delay }
      let pending = (try? LibrarySyncStore(path: libraryPath).pendingCount()) ?? 0
      let isUnreachable = (error as? PostgresError)?.isUnavailable ?? false
      return .failure(
        Offline(
          reason: "\(error)", retryIn: delay, pending: pending, isUnreachable: isUnreachable))
    }
  }

  /// Whether the task awaiting a sync was cancelled; set from any thread, read on the queue.
  private final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    /// Whether ``set()`` was called.
    var isSet: Bool { lock.withLock { value } }

    /// Records the cancellation.
    func set() { lock.withLock { value = true } }
  }
}
