// SharedOperation: one run of asynchronous work, shared by every consumer that awaits it.
//
// Guarantees
// - Joining: `value()` joins the run in flight, or starts one if none is. Every consumer
//   of a run gets the same result.
// - Cancellation is per consumer: a cancelled consumer stops waiting at once (it gets
//   `CancellationError`) and leaves the run; the others keep waiting. The run's task is
//   cancelled only when its last consumer has left.
// - A run that completes is finished: the next `value()` starts a new run.
// - All bookkeeping is main-actor state; the operation itself runs off the main actor.

/// Asynchronous work that several consumers can await together, where one consumer
/// giving up does not cancel the work for the others.
///
/// Two screens showing the same catalog can each load through their own
/// ``AsyncProjection`` while sharing one network request:
///
/// ```swift
/// let catalog = SharedOperation { try await service.fetchZones() }
/// left.load { try await catalog.value() }
/// right.load { try await catalog.value() }   // joins the same run
/// left.cancel()                              // `right` still gets the result
/// ```
@MainActor
public final class SharedOperation<Value: Sendable> {
  @MainActor
  private final class Run {
    var task: Task<Void, Never>?
    var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
  }

  private let operation: @Sendable () async throws -> Value
  private var run: Run?
  private var nextWaiter = 0

  /// The number of runs started so far.
  public private(set) var startCount = 0

  /// Creates a shared operation; nothing runs until a consumer calls ``value()``.
  ///
  /// - Parameter operation: The work; it runs off the main actor.
  public init(_ operation: @escaping @Sendable () async throws -> Value) {
    self.operation = operation
  }

  /// Whether a run is in flight.
  public var isRunning: Bool { run != nil }

  /// The number of consumers waiting for the run in flight.
  public var waiterCount: Int { run?.waiters.count ?? 0 }

  /// Waits for the result of the run in flight, starting one if needed.
  ///
  /// - Returns: The run's value.
  /// - Throws: The run's error, or `CancellationError` if this consumer's task is
  ///   cancelled first (the run goes on for other consumers).
  public func value() async throws -> Value {
    let run = self.run ?? start()
    let waiter = nextWaiter
    nextWaiter += 1
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
        } else {
          run.waiters[waiter] = continuation
        }
      }
    } onCancel: {
      Task { @MainActor in self.leave(run, waiter: waiter) }
    }
  }

  private func start() -> Run {
    let run = Run()
    self.run = run
    startCount += 1
    let operation = self.operation
    run.task = Task {
      let result: Result<Value, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      self.finish(run, with: result)
    }
    return run
  }

  private func leave(_ run: Run, waiter: Int) {
    guard let continuation = run.waiters.removeValue(forKey: waiter) else { return }
    continuation.resume(throwing: CancellationError())
    if run.waiters.isEmpty, self.run === run {
      self.run = nil
      run.task?.cancel()
    }
  }

  private func finish(_ run: Run, with result: Result<Value, any Error>) {
    if self.run === run { self.run = nil }
    let waiters = run.waiters
    run.waiters = [:]
    for continuation in waiters.values { continuation.resume(with: result) }
  }
}
