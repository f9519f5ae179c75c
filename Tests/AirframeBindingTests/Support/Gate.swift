// Gate: asynchronous work that finishes only when the test says so.

/// A point where asynchronous work waits until the test opens it.
///
/// `wait()` deliberately ignores task cancellation, like work that cannot be stopped
/// (a network call without cancellation support): it returns only when opened.
actor Gate<Value: Sendable> {
  private var waiters: [CheckedContinuation<Result<Value, any Error>, Never>] = []
  /// Results opened while nobody waited, handed to the next waiters in order.
  private var unclaimed: [Result<Value, any Error>] = []
  private(set) var arrivals = 0

  /// Suspends until `open` is called (or returns a result opened earlier); ignores
  /// cancellation.
  func wait() async throws -> Value {
    arrivals += 1
    if !unclaimed.isEmpty { return try unclaimed.removeFirst().get() }
    let result = await withCheckedContinuation { waiters.append($0) }
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

  /// Waits (bounded number of turns) until `count` callers are waiting.
  func waitForWaiters(_ count: Int) async -> Bool {
    for _ in 0..<10_000 {
      if waiters.count >= count { return true }
      await Task.yield()
    }
    return waiters.count >= count
  }
}

struct TestFailure: Error, Equatable {
  let message: String
}

/// Yields the main actor a bounded number of turns until `condition` holds.
@MainActor
func eventually(turns: Int = 10_000, _ condition: () -> Bool) async -> Bool {
  for _ in 0..<turns {
    if condition() { return true }
    await Task.yield()
  }
  return condition()
}

/// Yields a bounded number of turns until the asynchronous `condition` holds.
@MainActor
func eventuallyAsync(turns: Int = 10_000, _ condition: () async -> Bool) async -> Bool {
  for _ in 0..<turns {
    if await condition() { return true }
    await Task.yield()
  }
  return await condition()
}
