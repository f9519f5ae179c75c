/// Waits until `condition` holds, checking on each of the caller's turns, for at most
/// `timeout`; returns whether it held.
///
/// This is the one bounded wait of AirframeTesting, for what a test cannot be told about:
/// a real process's output, a screen drawn by another program, a file written by a
/// child. Work that Airframe starts itself needs no waiting loop: pass a
/// ``TestScheduler`` and call ``TestScheduler/runUntilIdle()``, or wait on a ``Gate``.
/// The timeout only keeps a broken test from hanging; nothing asserts how long it took.
///
/// - Parameters:
///   - timeout: The longest to wait.
///   - isolation: The actor the condition runs on; the caller's, by default.
///   - condition: The state to wait for; it may suspend.
/// - Returns: Whether `condition` held before the timeout.
public func eventually(
  timeout: Duration = .seconds(20),
  isolation: isolated (any Actor)? = #isolation,
  _ condition: () async throws -> Bool
) async rethrows -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  var turns = 0
  while clock.now < deadline {
    if try await condition() { return true }
    turns += 1
    if turns < 100 {
      await Task.yield()
    } else {
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
  return try await condition()
}
