// Gate: asynchronous work that finishes only when the test says so.

/// A point where asynchronous work waits until the test opens it.
///
/// `wait()` deliberately ignores task cancellation, like work that cannot be stopped
/// (a network call without cancellation support): it returns only when opened.
actor Gate<Value: Sendable> {
  private var waiters: [CheckedContinuation<Result<Value, any Error>, Never>] = []
  /// Results opened while nobody waited, handed to the next waiters in order.
  private var unclaimed: [Result<Value, any Error>] = []
  /// Callers of `waitForWaiters`, resumed when enough waiters have arrived.
  private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  private(set) var arrivals = 0

  /// Suspends until `open` is called (or returns a result opened earlier); ignores
  /// cancellation.
  func wait() async throws -> Value {
    arrivals += 1
    if !unclaimed.isEmpty { return try unclaimed.removeFirst().get() }
    let result = await withCheckedContinuation {
      waiters.append($0)
      resumeWatchers()
    }
    return try result.get()
  }

  /// Resumes every waiter with `result`, or keeps it for the next waiter if none waits.
  func open(with result: Result<Value, any Error>) {
    guard !waiters.isEmpty else {
      unclaimed.append(result)
      return
    }
    let resuming = waiters
    waiters = []
    for waiter in resuming { waiter.resume(returning: result) }
  }

  func open(returning value: Value) { open(with: .success(value)) }

  var waiterCount: Int { waiters.count }

  /// Suspends until at least `count` callers are waiting at the gate.
  func waitForWaiters(_ count: Int) async -> Bool {
    if waiters.count < count {
      await withCheckedContinuation { watchers.append((count, $0)) }
    }
    return waiters.count >= count
  }

  private func resumeWatchers() {
    let ready = watchers.filter { $0.count <= waiters.count }
    watchers.removeAll { $0.count <= waiters.count }
    for watcher in ready { watcher.continuation.resume() }
  }
}

struct TestFailure: Error, Equatable {
  let message: String
}

/// Waits until `condition` holds, checking on each main-actor turn, for at most
/// `timeout`; returns whether it held.
///
/// The bound only keeps a broken test from hanging; nothing asserts how long it took.
@MainActor
func eventually(timeout: Duration = .seconds(20), _ condition: () -> Bool) async -> Bool {
  await eventuallyAsync(timeout: timeout) { condition() }
}

/// Waits until the asynchronous `condition` holds, for at most `timeout`.
@MainActor
func eventuallyAsync(
  timeout: Duration = .seconds(20),
  _ condition: () async -> Bool
) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  var turns = 0
  while clock.now < deadline {
    if await condition() { return true }
    turns += 1
    if turns < 100 {
      await Task.yield()
    } else {
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
  return await condition()
}
