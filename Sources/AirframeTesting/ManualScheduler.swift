// ManualScheduler: deferred deliveries that run only when the test drains them.
//
// Guarantees
// - `schedule` may be called from any thread; jobs queue in the order scheduled.
// - `drain()` runs queued jobs on the main actor, oldest first, including jobs scheduled
//   by the jobs it runs, until none is left; it returns how many ran.

public import AirframeBinding
import Synchronization

/// A ``DeliveryScheduler`` for tests: nothing runs until ``drain()``.
///
/// ```swift
/// let scheduler = ManualScheduler()
/// let count = ObservationProjection(scheduler: scheduler) { counter.count }
/// counter.count = 1
/// #expect(count.value == 0)       // the re-read is queued, not run
/// scheduler.drain()
/// #expect(count.value == 1)
/// ```
public final class ManualScheduler: DeliveryScheduler {
  private let jobs = Mutex<[@Sendable @MainActor () -> Void]>([])

  /// Creates a scheduler with nothing queued.
  public init() {}

  /// Queues `job` until the next ``drain()``.
  ///
  /// - Parameter job: The work.
  public func schedule(_ job: @escaping @Sendable @MainActor () -> Void) {
    jobs.withLock { $0.append(job) }
  }

  /// The number of jobs waiting.
  public var pendingCount: Int { jobs.withLock { $0.count } }

  /// Runs every queued job, and every job those schedule, until none is left.
  ///
  /// - Returns: The number of jobs run.
  @MainActor
  @discardableResult
  public func drain() -> Int {
    var ran = 0
    while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
      job()
      ran += 1
    }
    return ran
  }
}
