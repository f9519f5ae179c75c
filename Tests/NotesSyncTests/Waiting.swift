// What the sync tests wait for without sleeping: values recorded as they happen with
// waiters resumed the moment a condition holds, and a deadline around work that may never
// end. A deadline only keeps a broken test from hanging; nothing asserts how long a wait
// took.

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

  /// Waits until the values meet `isMet`; `false` if they had not within `limit`.
  func reach(
    within limit: Duration = .seconds(30), _ isMet: @escaping ([Value]) -> Bool
  ) async -> Bool {
    guard !isMet(values) else { return true }
    nextID += 1
    let id = nextID
    let timer = Task { @MainActor [weak self] in
      try? await Task.sleep(for: limit)
      self?.expire(id)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { waiters.append((id, isMet, $0)) }
  }

  private func expire(_ id: Int) {
    let late = waiters.filter { $0.id == id }
    waiters.removeAll { $0.id == id }
    for waiter in late { waiter.resume.resume(returning: false) }
  }
}

/// `work`'s value, or ``WaitTimedOut`` when it takes longer than `limit`.
///
/// The deadline is the test's guard against a wait that never ends; nothing asserts how
/// long it took. The work goes on after a timeout; the test has failed by then.
@MainActor
@discardableResult
func within<Value: Sendable>(
  _ limit: Duration, _ work: @escaping @MainActor () async throws -> Value
) async throws -> Value {
  let first = FirstOutcome<Value>()
  return try await withCheckedThrowingContinuation { continuation in
    first.continuation = continuation
    first.worker = Task { @MainActor in first.finish(await outcome(of: work)) }
    first.timer = Task { @MainActor in
      try? await Task.sleep(for: limit)
      first.finish(.failure(WaitTimedOut(limit: limit)))
    }
  }
}

/// Whichever of a piece of work and its deadline ends first.
@MainActor
private final class FirstOutcome<Value: Sendable> {
  var continuation: CheckedContinuation<Value, any Error>?
  var worker: Task<Void, Never>?
  var timer: Task<Void, Never>?

  func finish(_ result: Result<Value, any Error>) {
    guard let continuation else { return }
    self.continuation = nil
    timer?.cancel()
    continuation.resume(with: result)
  }
}

/// A wait that passed its deadline.
struct WaitTimedOut: Error, CustomStringConvertible {
  let limit: Duration
  var description: String { "nothing happened within \(limit)" }
}

/// The outcome of `work`, failure included.
@MainActor
func outcome<Value>(of work: @MainActor () async throws -> Value) async -> Result<Value, any Error>
{
  do { return .success(try await work()) } catch { return .failure(error) }
}
