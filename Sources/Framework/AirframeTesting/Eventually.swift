public import Testing

/// Waits until `condition` holds, checking on each of the caller's turns, for at most
/// `timeout`; returns whether it held.
///
/// For what a test cannot be told about: a real process's output, a screen drawn by
/// another program, a file written by a child. Work that Airframe starts itself needs no
/// waiting loop: pass a ``TestScheduler`` and call ``TestScheduler/runUntilIdle()``, or
/// wait on a ``Gate``. The timeout only keeps a broken test from hanging; nothing asserts
/// how long it took. A cancelled task (a test past its time limit) stops waiting at once.
///
/// Prefer ``eventually(_:within:isolation:sourceLocation:_:satisfies:)``: it says what it
/// waited for and the last value it saw, and it ends the test where the wait failed.
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
  var checks = Checks(limit: timeout)
  while try await !condition() {
    guard await checks.another() == nil else { return false }
  }
  return true
}

/// Waits until `value` satisfies `isMet`, checking on each of the caller's turns; throws
/// ``WaitTimedOut``, naming what it waited for and the last value it saw, when `limit`
/// passes first or the waiting task is cancelled.
///
/// For what a test cannot be told about: a real process's output, a screen drawn by
/// another program, a file written by a child.
///
/// ```swift
/// let lines = try await eventually("the child has printed three lines") {
///   try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count
/// } satisfies: { $0 >= 3 }
/// ```
///
/// A wait that fails throws, so the test ends there, instead of going on into steps that
/// assume what never happened (a task awaited that can no longer finish would hang the
/// run). The error's description is the failure's report, for example "Timed out after
/// 20.0 s waiting until the child has printed three lines (LogTests.swift:12:5); the last
/// value seen: 2". The limit is a safety net, not a measurement, and counts the caller's
/// own time: a stretch in which the caller could not run (its actor held by other tests
/// of a parallel run) counts as a second, so a busy machine delays the failure of a wait
/// but does not cause it; the test's time limit bounds the rest. Let nothing assert how
/// long the wait took. Work that Airframe starts itself needs no polling: pass a
/// ``TestScheduler`` and call ``TestScheduler/runUntilIdle()`` or
/// ``TestScheduler/waitForSleepers(_:within:isolation:sourceLocation:)``, or wait on a
/// ``Gate``.
///
/// - Parameters:
///   - awaited: What the test waits for, as a phrase that follows "waiting until".
///   - limit: The longest to wait.
///   - isolation: The actor `value` and `isMet` run on; the caller's, by default.
///   - sourceLocation: Where the wait is, for the report.
///   - value: Reads the value to check; it may suspend.
///   - isMet: Whether the value is the one awaited.
/// - Returns: The first value that satisfied `isMet`.
/// - Throws: ``WaitTimedOut`` past `limit` or on cancellation; whatever `value` or
///   `isMet` throws.
@discardableResult
public func eventually<Value>(
  _ awaited: String,
  within limit: Duration = .seconds(20),
  isolation: isolated (any Actor)? = #isolation,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ value: () async throws -> Value,
  satisfies isMet: (Value) throws -> Bool
) async throws -> Value {
  var checks = Checks(limit: limit)
  while true {
    let seen = try await value()
    if try isMet(seen) { return seen }
    if let ending = await checks.another() {
      throw WaitTimedOut(
        awaited: awaited, limit: limit, waited: ending.waited,
        lastValue: String(describing: seen), wasCancelled: ending.wasCancelled,
        sourceLocation: sourceLocation)
    }
  }
}

/// The pace and the end of a polling wait: the caller's next turns at first, then a
/// millisecond's sleep between checks, until the deadline (in the caller's own time, see
/// `OwnTime`) or the task's cancellation.
private struct Checks {
  let limit: Duration
  var time = OwnTime()
  var turns = 0

  init(limit: Duration) { self.limit = limit }

  /// Waits for the next check; returns why the wait must end instead, if it must.
  ///
  /// The check after the deadline still happens, and a stretch in which the caller could
  /// not run (a main actor held by another test) counts as a second: the wait gives up
  /// only after it has looked for `limit` of its own time.
  mutating func another(
    isolation: isolated (any Actor)? = #isolation
  ) async -> (waited: Duration, wasCancelled: Bool)? {
    time.tick()
    if Task.isCancelled { return (time.waited, true) }
    if time.counted >= limit { return (time.waited, false) }
    turns += 1
    if turns < 100 {
      await Task.yield()
    } else {
      try? await Task.sleep(for: .milliseconds(1))
    }
    return nil
  }
}
