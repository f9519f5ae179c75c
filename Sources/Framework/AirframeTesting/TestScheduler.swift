public import AirframeBinding
import Foundation
public import Testing

/// A `WorkScheduler` for tests: deferred jobs wait until the test runs them, the work
/// it starts is counted until it finishes, and its clock moves only when the test
/// advances it.
///
/// Pass it to every primitive under test, then say what should happen and assert:
///
/// ```swift
/// let scheduler = TestScheduler()
/// let zones = AsyncProjection<[Zone]>(scheduler: scheduler)
/// zones.load { try await catalog.zones() }
/// await scheduler.runUntilIdle()               // the request has completed
/// #expect(zones.value.value == expected)
///
/// let retry = Retrying(scheduler: scheduler)   // sleeps 2 s between attempts
/// retry.start()
/// await scheduler.advance(by: .seconds(2))     // the second attempt has run
/// ```
///
/// ## Guarantees
/// - ``schedule(_:)`` may be called from any thread; jobs queue in the order scheduled
///   and run only inside ``drain()``, ``runUntilIdle()`` or ``advance(by:)``, on the main
///   actor, oldest first, including the jobs those jobs schedule.
/// - ``startTask(_:)`` starts real tasks at once (they run concurrently, as in the app)
///   and counts each one until its work has returned.
/// - ``sleep(for:)`` suspends until the test has advanced the clock past the sleeper's
///   deadline, and throws `CancellationError` at once when the sleeping task is
///   cancelled. The clock starts at zero and never moves on its own.
/// - ``runUntilIdle()`` returns when no job is queued and every counted task has either
///   finished or is asleep on this clock. It never polls: it waits for the scheduler to
///   report a change. Work that waits on something else the test controls (a `Gate` that
///   nobody opens) keeps it waiting until the test's task is cancelled (as Swift Testing
///   cancels a test at its time limit): then it returns at once, and so does
///   ``advance(by:)``.
/// - ``waitForSleepers(_:within:isolation:sourceLocation:)`` returns as soon as enough
///   tasks sleep on this clock, whoever started them; it never polls, and it throws
///   ``WaitTimedOut`` at its deadline or when the waiting task is cancelled.
public final class TestScheduler: WorkScheduler, @unchecked Sendable {
  /// A caller of `waitForSleepers`: how many sleepers it waits for.
  private struct SleeperWatcher {
    var count: Int
    var continuation: CheckedContinuation<Void, Never>
  }

  private struct Sleeper {
    var deadline: Duration
    var order: Int
    var continuation: CheckedContinuation<Void, any Error>?
    var isCancelled = false
  }

  // Everything below is guarded by `lock`.
  private let lock = NSLock()
  private var jobs: [@Sendable @MainActor () -> Void] = []
  private var running = 0
  private var sleepers: [Int: Sleeper] = [:]
  private var nextSleeper = 0
  private var currentTime: Duration = .zero
  private var idleWaiter: CheckedContinuation<Void, Never>?
  private var sleeperWatchers: [Int: SleeperWatcher] = [:]
  private var nextWatcher = 0

  /// Creates a scheduler with nothing queued, nothing running and the clock at zero.
  public init() {}

  /// How far the test has advanced the clock since the scheduler was created.
  public var now: Duration { locked { currentTime } }

  /// The number of jobs waiting to run.
  public var pendingCount: Int { locked { jobs.count } }

  /// The number of started tasks whose work has not returned, sleepers included.
  public var runningCount: Int { locked { running } }

  /// The number of tasks asleep on this scheduler's clock.
  public var sleeperCount: Int { locked { sleepers.count } }

  /// Queues `job` until the test runs queued jobs.
  ///
  /// - Parameter job: The work.
  public func schedule(_ job: @escaping @Sendable @MainActor () -> Void) {
    let waiter = locked { () -> CheckedContinuation<Void, Never>? in
      jobs.append(job)
      return takeIdleWaiter()
    }
    waiter?.resume()
  }

  /// Starts `work` in a main-actor task at once and counts it until it returns.
  ///
  /// - Parameter work: The work.
  /// - Returns: The task.
  public func startTask<Result: Sendable>(
    _ work: @escaping @Sendable @MainActor () async -> Result
  ) -> Task<Result, Never> {
    locked { running += 1 }
    return Task { @MainActor in
      let result = await work()
      self.taskFinished()
      return result
    }
  }

  /// Suspends until the test advances the clock by `duration` from now.
  ///
  /// - Parameter duration: How long to wait on the virtual clock.
  /// - Throws: `CancellationError` as soon as the calling task is cancelled.
  public func sleep(for duration: Duration) async throws {
    let (number, deadline) = locked { () -> (Int, Duration) in
      nextSleeper += 1
      return (nextSleeper, currentTime + max(duration, .zero))
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let waiter = locked { () -> CheckedContinuation<Void, Never>? in
          if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
            return nil
          }
          sleepers[number] = Sleeper(
            deadline: deadline, order: number, continuation: continuation)
          return takeIdleWaiter()
        }
        waiter?.resume()
        for watcher in locked({ takeSleeperWatchers() }) { watcher.resume() }
      }
    } onCancel: {
      let continuation = locked { () -> CheckedContinuation<Void, any Error>? in
        sleepers.removeValue(forKey: number)?.continuation
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// Suspends until at least `count` tasks are asleep on this clock, whoever started
  /// them; throws ``WaitTimedOut``, with the number asleep, when `limit` passes first or
  /// the waiting task is cancelled.
  ///
  /// Use it for work the test cannot start through the scheduler, such as a service whose
  /// delays run on this clock behind a coordinator that starts its own tasks: once the
  /// work sleeps here, ``advance(by:)`` wakes it. The wait is told of each new sleeper; it
  /// never polls. The limit is a safety net, not a measurement.
  ///
  /// - Parameters:
  ///   - count: The number of sleepers to wait for.
  ///   - limit: The longest to wait, in the caller's own time (see
  ///     ``withDeadline(_:within:isolation:sourceLocation:_:)``).
  ///   - isolation: The caller's actor, on which the deadline's clock runs.
  ///   - sourceLocation: Where the wait is, for the report.
  /// - Throws: ``WaitTimedOut`` past `limit` or on cancellation.
  public func waitForSleepers(
    _ count: Int, within limit: Duration = .seconds(20),
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    do {
      try await withDeadline(
        "\(count) task(s) sleep on the test scheduler's clock", within: limit,
        sourceLocation: sourceLocation
      ) { [self] in
        await sleepersArrive(count)
      }
    } catch var timedOut as WaitTimedOut {
      timedOut.lastValue = "\(sleeperCount) asleep"
      throw timedOut
    }
  }

  /// Suspends until at least `count` tasks sleep on this clock, or the task is cancelled.
  private func sleepersArrive(_ count: Int) async {
    let id = locked { () -> Int in
      nextWatcher += 1
      return nextWatcher
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = locked { () -> Bool in
          if sleepers.count >= count || Task.isCancelled { return true }
          sleeperWatchers[id] = SleeperWatcher(count: count, continuation: continuation)
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      locked { sleeperWatchers.removeValue(forKey: id) }?.continuation.resume()
    }
  }

  /// Runs every queued job, and every job those schedule, until none is left.
  ///
  /// Synchronous: it does not wait for tasks. Use it where a test only needs deferred
  /// deliveries (such as an `ObservationProjection`'s re-reads) to run.
  ///
  /// - Returns: The number of jobs run.
  @MainActor
  @discardableResult
  public func drain() -> Int {
    var ran = 0
    while let job = locked({ jobs.isEmpty ? nil : jobs.removeFirst() }) {
      job()
      ran += 1
    }
    return ran
  }

  /// Runs queued jobs and waits for started tasks until nothing is left to do but sleep
  /// on this clock; returns at once when the calling task is cancelled.
  @MainActor
  public func runUntilIdle() async {
    while !Task.isCancelled {
      drain()
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let resumeNow = locked { () -> Bool in
            if !jobs.isEmpty || running <= sleepers.count || Task.isCancelled { return true }
            idleWaiter = continuation
            return false
          }
          if resumeNow { continuation.resume() }
        }
      } onCancel: {
        locked { takeIdleWaiter() }?.resume()
      }
      let done = locked { jobs.isEmpty && running <= sleepers.count }
      if done { return }
    }
  }

  /// Moves the clock forward by `duration`, waking each sleeper whose deadline it
  /// passes, in deadline order, and running until idle after each wake-up.
  ///
  /// - Parameter duration: How far to move the clock.
  @MainActor
  public func advance(by duration: Duration) async {
    await runUntilIdle()
    let target = locked { currentTime + max(duration, .zero) }
    while let next = locked({ nextDue(before: target) }) {
      next.resume()
      await runUntilIdle()
    }
    locked { currentTime = target }
  }

  /// Removes the earliest sleeper due by `target` and moves the clock to its deadline.
  private func nextDue(before target: Duration) -> CheckedContinuation<Void, any Error>? {
    let due = sleepers.filter { $0.value.deadline <= target }
      .min { ($0.value.deadline, $0.value.order) < ($1.value.deadline, $1.value.order) }
    guard let due else { return nil }
    sleepers[due.key] = nil
    currentTime = max(currentTime, due.value.deadline)
    return due.value.continuation
  }

  private func taskFinished() {
    let waiter = locked { () -> CheckedContinuation<Void, Never>? in
      running -= 1
      return takeIdleWaiter()
    }
    waiter?.resume()
  }

  /// Takes the callers of `waitForSleepers` whose count of sleepers is reached; call with
  /// the lock held.
  private func takeSleeperWatchers() -> [CheckedContinuation<Void, Never>] {
    let met = sleeperWatchers.filter { $0.value.count <= sleepers.count }
    for id in met.keys { sleeperWatchers[id] = nil }
    return met.values.map(\.continuation)
  }

  /// Takes the waiting `runUntilIdle` call, if any; call with the lock held.
  private func takeIdleWaiter() -> CheckedContinuation<Void, Never>? {
    defer { idleWaiter = nil }
    return idleWaiter
  }

  private func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
