import Foundation

/// Asynchronous work run once per key and shared by every consumer of that key, where one
/// consumer giving up does not cancel the work for the others.
///
/// A per-note loader or a per-region catalog needs no dictionary of its own:
///
/// ```swift
/// let notes = KeyedSharedOperation { (id: NoteID) in try await storage.load(id) }
/// editor.load { try await notes.value(for: 7) }
/// preview.load { try await notes.value(for: 7) }   // joins the same run
/// editor.cancel()                                 // `preview` still gets the note
/// ```
///
/// ## Guarantees
/// - Joining: ``value(for:)`` joins the run in flight for its key, or starts one if none
///   is. Every consumer of a run gets the same result. Runs of different keys are
///   independent.
/// - Cancellation is per consumer: a consumer whose task is cancelled stops waiting at
///   once (it gets `CancellationError` from the cancelling thread, without waiting for the
///   main actor) and leaves the run; the others keep waiting.
/// - The run's task is cancelled when, and only when, its last consumer has left. This
///   holds for every interleaving, including a consumer that asks and cancels in the same
///   main-actor turn and one that is already cancelled when it asks: the bookkeeping of a
///   cancelled consumer runs on the scheduler's next main-actor job, and a consumer that
///   joins before then keeps the run alive.
/// - A run that completes is finished and dropped: the next ``value(for:)`` of that key
///   starts a new run. A run whose last consumer left is dropped too.
/// - All bookkeeping is main-actor state; the operation itself runs off the main actor.
@MainActor
public final class KeyedSharedOperation<Key: Hashable & Sendable, Value: Sendable> {
  @MainActor
  private final class Run {
    var task: Task<Void, Never>?
    var waiters: [Int: Waiter] = [:]
  }

  /// One consumer's wait, resumed exactly once: by the result, or by its cancellation.
  private final class Waiter: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var early: Result<Value, any Error>?
    private var isResumed = false

    func install(_ continuation: CheckedContinuation<Value, any Error>) {
      lock.lock()
      if let early {
        lock.unlock()
        continuation.resume(with: early)
        return
      }
      self.continuation = continuation
      lock.unlock()
    }

    /// Resumes the consumer unless it was resumed before; returns whether it was.
    func resume(with result: Result<Value, any Error>) -> Bool {
      lock.lock()
      guard !isResumed else {
        lock.unlock()
        return false
      }
      isResumed = true
      guard let continuation else {
        early = result
        lock.unlock()
        return true
      }
      self.continuation = nil
      lock.unlock()
      continuation.resume(with: result)
      return true
    }
  }

  private let operation: @Sendable (Key) async throws -> Value
  private let scheduler: any WorkScheduler
  private var runs: [Key: Run] = [:]
  private var nextWaiter = 0

  /// The number of runs started so far, over every key.
  public private(set) var startCount = 0

  /// Creates a keyed shared operation; nothing runs until a consumer asks for a key.
  ///
  /// - Parameters:
  ///   - scheduler: Where runs start and where a cancelled consumer's bookkeeping runs;
  ///     plain main-actor tasks by default.
  ///   - operation: The work for one key; it runs off the main actor.
  public init(
    scheduler: any WorkScheduler = .mainActor,
    _ operation: @escaping @Sendable (Key) async throws -> Value
  ) {
    self.scheduler = scheduler
    self.operation = operation
  }

  /// The keys whose runs are in flight.
  public var runningKeys: Set<Key> { Set(runs.keys) }

  /// Whether a run is in flight for `key`.
  ///
  /// - Parameter key: The key.
  /// - Returns: `true` while a run of that key is in flight.
  public func isRunning(for key: Key) -> Bool { runs[key] != nil }

  /// The number of consumers waiting for the run of `key`.
  ///
  /// - Parameter key: The key.
  /// - Returns: The consumers that have not left that run; 0 when none is in flight.
  public func waiterCount(for key: Key) -> Int { runs[key]?.waiters.count ?? 0 }

  /// Waits for the result of the run of `key`, starting one if none is in flight.
  ///
  /// - Parameter key: The input of the work.
  /// - Returns: The run's value.
  /// - Throws: The run's error, or `CancellationError` as soon as this consumer's task is
  ///   cancelled (the run goes on for other consumers).
  public func value(for key: Key) async throws -> Value {
    let run = runs[key] ?? start(key)
    let waiter = Waiter()
    let number = nextWaiter
    nextWaiter += 1
    run.waiters[number] = waiter
    let scheduler = self.scheduler
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { waiter.install($0) }
    } onCancel: {
      if waiter.resume(with: .failure(CancellationError())) {
        scheduler.schedule { [weak self] in self?.leave(run, key: key, waiter: number) }
      }
    }
  }

  private func start(_ key: Key) -> Run {
    let run = Run()
    runs[key] = run
    startCount += 1
    let operation = self.operation
    run.task = scheduler.startTask { [weak self] in
      let result: Result<Value, any Error>
      do {
        result = .success(try await operation(key))
      } catch {
        result = .failure(error)
      }
      self?.finish(run, key: key, with: result)
    }
    return run
  }

  private func leave(_ run: Run, key: Key, waiter: Int) {
    guard run.waiters.removeValue(forKey: waiter) != nil, run.waiters.isEmpty else { return }
    if runs[key] === run { runs[key] = nil }
    run.task?.cancel()
  }

  private func finish(_ run: Run, key: Key, with result: Result<Value, any Error>) {
    if runs[key] === run { runs[key] = nil }
    let waiters = run.waiters
    run.waiters = [:]
    for waiter in waiters.values { _ = waiter.resume(with: result) }
  }
}
