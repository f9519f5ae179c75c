import Foundation
public import Testing

/// Runs `work` in a task of its own and returns its value; throws ``WaitTimedOut`` when
/// `limit` passes first or the waiting task is cancelled, and cancels `work` then.
///
/// For work that might never end and that no cancellation reaches: an `await` on another
/// task's value, a continuation resumed by a callback, a call into a server. Such an
/// `await` ignores the cancellation Swift Testing sends a test at its time limit, so the
/// test, and the whole run with it, would wait for ever; behind this function the test's
/// task returns at its deadline or at its cancellation, whatever `work` does.
///
/// ```swift
/// let sync = coordinator.syncNow()
/// try await withDeadline("the sync ends", within: .seconds(30)) { await sync?.value }
/// ```
///
/// Past the deadline `work` is cancelled and left to end in its own time; the test has
/// failed by then. The limit is a safety net, not a measurement, and counts the caller's
/// own time: the deadline's clock runs on the caller's actor, and a stretch in which that
/// actor could not run (held by other tests of a parallel run) counts as a second, so a
/// busy machine delays the failure but does not cause it.
///
/// - Parameters:
///   - awaited: What the test waits for, as a phrase that follows "waiting until".
///   - limit: The longest to wait, in the caller's own time.
///   - isolation: The caller's actor, on which the deadline's clock runs.
///   - sourceLocation: Where the wait is, for the report.
///   - work: The work; it runs on its own isolation (the main actor's for a `@MainActor`
///     closure).
/// - Returns: What `work` returned.
/// - Throws: ``WaitTimedOut`` past `limit` or on cancellation; what `work` throws.
public func withDeadline<Value: Sendable>(
  _ awaited: String,
  within limit: Duration,
  isolation: isolated (any Actor)? = #isolation,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ work: sending @escaping @isolated(any) () async throws -> Value
) async throws -> Value {
  let race = DeadlineRace<Value>(awaited: awaited, limit: limit, sourceLocation: sourceLocation)
  let worker = Task(operation: work)
  let caller = isolation
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      race.begin(continuation, worker: worker, clockOn: caller)
    }
  } onCancel: {
    race.end(.cancelled)
  }
}

/// Whichever of a piece of work, its deadline and the waiter's cancellation comes first.
private final class DeadlineRace<Value: Sendable>: @unchecked Sendable {
  enum Ending {
    case returned(Result<Value, any Error>)
    case timedOut
    case cancelled
  }

  private let awaited: String
  private let limit: Duration
  private let sourceLocation: SourceLocation
  private let start = ContinuousClock.now

  // Guarded by `lock`.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Value, any Error>?
  private var ending: Ending?
  private var worker: Task<Value, any Error>?
  private var timer: Task<Void, Never>?

  init(awaited: String, limit: Duration, sourceLocation: SourceLocation) {
    self.awaited = awaited
    self.limit = limit
    self.sourceLocation = sourceLocation
  }

  /// Waits with `continuation` for `worker` and the deadline, whose clock runs on
  /// `caller`; ends at once if the waiter was cancelled already.
  func begin(
    _ continuation: CheckedContinuation<Value, any Error>, worker: Task<Value, any Error>,
    clockOn caller: (any Actor)?
  ) {
    let endedEarly = lock.withLock { () -> Bool in
      self.continuation = continuation
      self.worker = worker
      return ending != nil
    }
    if endedEarly {
      finish()
      return
    }
    let timer = Task { [limit] in
      guard await Self.ownTimePasses(limit, isolation: caller) else { return }
      self.end(.timedOut)
    }
    Task { self.end(.returned(await worker.result)) }
    let finished = lock.withLock { () -> Bool in
      self.timer = timer
      return self.continuation == nil
    }
    if finished { timer.cancel() }
  }

  /// Sleeps on `isolation` until `limit` of its own time has passed (see `OwnTime`); `false`
  /// if cancelled first.
  private static func ownTimePasses(
    _ limit: Duration, isolation: isolated (any Actor)?
  ) async -> Bool {
    var time = OwnTime()
    while time.counted < limit {
      let slice = min(limit - time.counted, OwnTime.longestStretch / 2)
      guard (try? await Task.sleep(for: slice)) != nil else { return false }
      time.tick()
    }
    return true
  }

  /// Ends the wait with `ending`, unless it has ended already.
  func end(_ ending: Ending) {
    let first = lock.withLock { () -> Bool in
      guard self.ending == nil else { return false }
      self.ending = ending
      return true
    }
    if first { finish() }
  }

  /// Resumes the waiter with the ending, once it waits; cancels what is left.
  private func finish() {
    let taken = lock.withLock { () -> (CheckedContinuation<Value, any Error>, Ending)? in
      guard let continuation, let ending else { return nil }
      self.continuation = nil
      return (continuation, ending)
    }
    guard let (continuation, ending) = taken else { return }
    let (worker, timer) = lock.withLock { (self.worker, self.timer) }
    timer?.cancel()
    switch ending {
    case .returned(let result):
      continuation.resume(with: result)
    case .timedOut, .cancelled:
      worker?.cancel()
      continuation.resume(
        throwing: WaitTimedOut(
          awaited: awaited, limit: limit, waited: start.duration(to: .now),
          wasCancelled: {
            if case .cancelled = ending { return true }
            return false
          }(), sourceLocation: sourceLocation))
    }
  }
}
