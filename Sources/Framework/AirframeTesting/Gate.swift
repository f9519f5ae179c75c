/// A point where asynchronous work waits until the test opens it.
///
/// Put a gate inside a fake service to suspend work at an `await` for exactly as long as
/// the test wants, without clocks or sleeps:
///
/// ```swift
/// let gate = Gate<[Zone]>()
/// let service = FakeCatalog { try await gate.wait() }
/// screen.refresh()                              // suspends inside the service
/// #expect(await gate.waitForWaiters(1))
/// await gate.open(returning: zones)             // now it completes
/// ```
///
/// `wait()` deliberately ignores task cancellation, like work that cannot be stopped
/// (a network call without cancellation support): it returns only when opened. That makes
/// it the tool for proving that a cancelled or superseded result is never published.
///
/// ## Guarantees
/// - ``wait()`` returns only after ``open(with:)`` or ``openOne(with:)``, with the result
///   it was opened with; a result opened while nobody waits goes to the next waiter.
/// - ``openOne(with:)`` resumes exactly one waiter, the one that arrived first.
/// - ``waitForWaiters(_:)`` resumes as soon as enough callers are waiting; it never polls.
///   It returns `false` at once when its task is cancelled (as Swift Testing cancels a test
///   at its time limit), so a waiter that never comes cannot keep a test from ending.
public actor Gate<Value: Sendable> {
  /// Creates a closed gate.
  public init() {}

  private var waiters: [CheckedContinuation<Result<Value, any Error>, Never>] = []
  /// Results opened while nobody waited, handed to the next waiters in order.
  private var unclaimed: [Result<Value, any Error>] = []
  /// Callers of `waitForWaiters`, resumed when enough waiters have arrived.
  private var watchers: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] =
    []
  private var nextWatcher = 0
  /// The number of calls to ``wait()`` so far.
  public private(set) var arrivals = 0

  /// Suspends until `open` is called (or returns a result opened earlier); ignores
  /// cancellation.
  ///
  /// - Returns: The value the gate was opened with.
  /// - Throws: The error the gate was opened with.
  public func wait() async throws -> Value {
    arrivals += 1
    if !unclaimed.isEmpty { return try unclaimed.removeFirst().get() }
    let result = await withCheckedContinuation {
      waiters.append($0)
      resumeWatchers()
    }
    return try result.get()
  }

  /// Resumes every waiter with `result`, or keeps it for the next waiter if none waits.
  ///
  /// - Parameter result: What every waiter receives.
  public func open(with result: Result<Value, any Error>) {
    guard !waiters.isEmpty else {
      unclaimed.append(result)
      return
    }
    let resuming = waiters
    waiters = []
    for waiter in resuming { waiter.resume(returning: result) }
  }

  /// Resumes every waiter with `value`, or keeps it for the next waiter if none waits.
  ///
  /// - Parameter value: What every waiter returns.
  public func open(returning value: Value) { open(with: .success(value)) }

  /// Resumes only the caller that has waited longest with `result`, or keeps it for the
  /// next waiter if none waits; every other waiter stays suspended.
  ///
  /// Use it to finish overlapping runs one at a time, in the order they arrived.
  ///
  /// - Parameter result: What that one waiter receives.
  public func openOne(with result: Result<Value, any Error>) {
    guard !waiters.isEmpty else {
      unclaimed.append(result)
      return
    }
    waiters.removeFirst().resume(returning: result)
  }

  /// Resumes only the caller that has waited longest with `value` (see
  /// ``openOne(with:)``).
  ///
  /// - Parameter value: What that one waiter returns.
  public func openOne(returning value: Value) { openOne(with: .success(value)) }

  /// The number of callers waiting now.
  public var waiterCount: Int { waiters.count }

  /// Suspends until at least `count` callers are waiting at the gate, or the task is
  /// cancelled.
  ///
  /// - Parameter count: The number of waiters to wait for.
  /// - Returns: `true` once that many are waiting; `false` if the task was cancelled first.
  public func waitForWaiters(_ count: Int) async -> Bool {
    if waiters.count < count {
      nextWatcher += 1
      let id = nextWatcher
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          if Task.isCancelled {
            continuation.resume()
          } else {
            watchers.append((id, count, continuation))
          }
        }
      } onCancel: {
        Task { await self.dropWatcher(id) }
      }
    }
    return waiters.count >= count
  }

  private func resumeWatchers() {
    let ready = watchers.filter { $0.count <= waiters.count }
    watchers.removeAll { $0.count <= waiters.count }
    for watcher in ready { watcher.continuation.resume() }
  }

  /// Resumes the watcher `id`, if it still waits (its task was cancelled).
  private func dropWatcher(_ id: Int) {
    let dropped = watchers.filter { $0.id == id }
    watchers.removeAll { $0.id == id }
    for watcher in dropped { watcher.continuation.resume() }
  }
}
