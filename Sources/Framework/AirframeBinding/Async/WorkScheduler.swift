/// Where Airframe's asynchronous primitives start their work, run deferred main-actor
/// jobs, and wait for time to pass.
///
/// Every primitive that does something later takes a scheduler as an explicit, named
/// argument: ``ObservationProjection`` (its re-reads), ``AsyncProjection`` (its
/// requests), ``SharedOperation`` and ``KeyedSharedOperation`` (their runs and the
/// bookkeeping after a consumer cancels), and the architecture layer's asynchronous
/// controllers. The default, ``MainActorScheduler``, uses plain tasks and the continuous
/// clock. A test passes `AirframeTesting`'s `TestScheduler` instead: it holds deferred
/// jobs until the test runs them, knows when all the work it started has finished, and
/// keeps a virtual clock that moves only when the test advances it, so a test of a
/// debounce, a time-out, a retry back-off or a superseded request needs no sleeps and no
/// polling.
///
/// ## Guarantees a conformer must keep
/// - ``schedule(_:)`` may be called from any thread (Observation reports changes on the
///   thread that mutates); the job runs on the main actor, later, never inside the call.
/// - ``startTask(_:)`` starts `work` as a new unstructured task that inherits nothing but
///   the main actor, and returns it, so the caller can cancel it or await its value.
/// - ``sleep(for:)`` suspends for at least `duration` of the scheduler's time, and throws
///   `CancellationError` as soon as the calling task is cancelled.
public protocol WorkScheduler: Sendable {
  /// Arranges for `job` to run on the main actor later.
  ///
  /// - Parameter job: The work; it must not be run synchronously inside this call.
  func schedule(_ job: @escaping @Sendable @MainActor () -> Void)

  /// Starts `work` in a new main-actor task.
  ///
  /// The work may `await` code that runs elsewhere; it resumes on the main actor.
  ///
  /// - Parameter work: The work.
  /// - Returns: The task, to cancel it or await its value.
  func startTask<Result: Sendable>(
    _ work: @escaping @Sendable @MainActor () async -> Result
  ) -> Task<Result, Never>

  /// Suspends the calling task for `duration` of this scheduler's time.
  ///
  /// - Parameter duration: How long to wait.
  /// - Throws: `CancellationError` if the calling task is cancelled first.
  func sleep(for duration: Duration) async throws
}

/// The scheduler of a running app: a main-actor task per job or piece of work, and the
/// continuous clock.
public struct MainActorScheduler: WorkScheduler {
  /// Creates the scheduler.
  public init() {}

  /// Starts a main-actor task that runs `job`.
  ///
  /// - Parameter job: The work.
  public func schedule(_ job: @escaping @Sendable @MainActor () -> Void) {
    Task { @MainActor in job() }
  }

  /// Starts a main-actor task that runs `work`.
  ///
  /// - Parameter work: The work.
  /// - Returns: The task.
  public func startTask<Result: Sendable>(
    _ work: @escaping @Sendable @MainActor () async -> Result
  ) -> Task<Result, Never> {
    Task { @MainActor in await work() }
  }

  /// Sleeps on the continuous clock.
  ///
  /// - Parameter duration: How long to wait.
  /// - Throws: `CancellationError` if the calling task is cancelled first.
  public func sleep(for duration: Duration) async throws {
    try await Task.sleep(for: duration)
  }
}

extension WorkScheduler where Self == MainActorScheduler {
  /// The default: plain main-actor tasks and the continuous clock.
  public static var mainActor: MainActorScheduler { MainActorScheduler() }
}
