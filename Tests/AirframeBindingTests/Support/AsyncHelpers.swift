// Test helpers for asynchronous work: a failure value and bounded waits.

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
