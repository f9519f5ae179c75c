// What the sync tests wait for without sleeping: values recorded as they happen with
// waiters resumed the moment a condition holds, and a deadline around work that may never
// end. A deadline only keeps a broken test from hanging; nothing asserts how long a wait
// took. A wait that gives up says what it waited for, where, and what it saw.

import AirframeTesting
import Testing

/// What a test waits for without sleeping: values as they happen, and waiters resumed as
/// soon as those meet their condition (or with `false` at their deadline).
@MainActor
final class Recorded<Value> {
  private(set) var values: [Value] = []
  private var waiters:
    [(id: Int, isMet: ([Value]) -> Bool, resume: CheckedContinuation<Bool, Never>)] = []
  private var nextID = 0

  /// Records `value` and resumes every waiter whose condition now holds.
  func record(_ value: Value) {
    values.append(value)
    let met = waiters.filter { $0.isMet(values) }
    waiters.removeAll { $0.isMet(values) }
    for waiter in met { waiter.resume.resume(returning: true) }
  }

  /// Waits until the values meet `isMet`; `false` if they had not within `limit`, or when
  /// the task is cancelled, and then an issue names `awaited` and the values recorded.
  func reach(
    _ awaited: String = "the values recorded meet the condition",
    within limit: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
    _ isMet: @escaping ([Value]) -> Bool
  ) async -> Bool {
    guard !isMet(values) else { return true }
    nextID += 1
    let id = nextID
    let start = ContinuousClock.now
    let timer = Task { @MainActor [weak self] in
      try? await Task.sleep(for: limit)
      self?.expire(id)
    }
    defer { timer.cancel() }
    let met = await withTaskCancellationHandler {
      await withCheckedContinuation { waiters.append((id, isMet, $0)) }
    } onCancel: {
      timer.cancel()
    }
    if !met {
      let timedOut = WaitTimedOut(
        awaited: awaited, limit: limit, waited: start.duration(to: .now),
        lastValue: "\(values)", wasCancelled: Task.isCancelled, sourceLocation: sourceLocation)
      Issue.record("\(timedOut)", sourceLocation: sourceLocation)
    }
    return met
  }

  private func expire(_ id: Int) {
    let late = waiters.filter { $0.id == id }
    waiters.removeAll { $0.id == id }
    for waiter in late { waiter.resume.resume(returning: false) }
  }
}

/// `work`'s value, or ``WaitTimedOut`` naming `awaited` when it takes longer than `limit`
/// or the test is cancelled first.
///
/// The deadline is the test's guard against a wait that never ends; nothing asserts how
/// long it took. The work is cancelled after a timeout; the test has failed by then.
@MainActor
@discardableResult
func within<Value: Sendable>(
  _ limit: Duration, _ awaited: String = "the work ends",
  sourceLocation: SourceLocation = #_sourceLocation,
  _ work: @escaping @MainActor () async throws -> Value
) async throws -> Value {
  try await withDeadline(awaited, within: limit, sourceLocation: sourceLocation, work)
}

/// The outcome of `work`, failure included.
@MainActor
func outcome<Value>(of work: @MainActor () async throws -> Value) async -> Result<Value, any Error>
{
  do { return .success(try await work()) } catch { return .failure(error) }
}
