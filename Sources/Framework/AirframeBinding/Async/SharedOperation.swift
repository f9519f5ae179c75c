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
///
/// It is a ``KeyedSharedOperation`` with a single key, and keeps all of its guarantees:
///
/// ## Guarantees
/// - Joining: ``value()`` joins the run in flight, or starts one if none is. Every
///   consumer of a run gets the same result.
/// - Cancellation is per consumer: a cancelled consumer stops waiting at once (it gets
///   `CancellationError`) and leaves the run; the others keep waiting.
/// - The run's task is cancelled when, and only when, its last consumer has left, for
///   every interleaving (asking and cancelling in the same main-actor turn included).
/// - A run that completes is finished: the next ``value()`` starts a new run.
/// - All bookkeeping is main-actor state; the operation itself runs off the main actor.
@MainActor
public final class SharedOperation<Value: Sendable> {
  /// The one key of the underlying keyed operation.
  private struct Single: Hashable, Sendable {}

  private let runs: KeyedSharedOperation<Single, Value>

  /// Creates a shared operation; nothing runs until a consumer calls ``value()``.
  ///
  /// - Parameters:
  ///   - scheduler: Where runs start and where a cancelled consumer's bookkeeping runs;
  ///     plain main-actor tasks by default.
  ///   - operation: The work; it runs off the main actor.
  public init(
    scheduler: any WorkScheduler = .mainActor,
    _ operation: @escaping @Sendable () async throws -> Value
  ) {
    runs = KeyedSharedOperation(scheduler: scheduler) { _ in try await operation() }
  }

  /// The number of runs started so far.
  public var startCount: Int { runs.startCount }

  /// Whether a run is in flight.
  public var isRunning: Bool { runs.isRunning(for: Single()) }

  /// The number of consumers waiting for the run in flight.
  public var waiterCount: Int { runs.waiterCount(for: Single()) }

  /// Waits for the result of the run in flight, starting one if needed.
  ///
  /// - Returns: The run's value.
  /// - Throws: The run's error, or `CancellationError` as soon as this consumer's task is
  ///   cancelled (the run goes on for other consumers).
  public func value() async throws -> Value {
    try await runs.value(for: Single())
  }
}
