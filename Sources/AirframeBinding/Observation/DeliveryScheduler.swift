// DeliveryScheduler: where a deferred delivery runs.
//
// Guarantees
// - `schedule` may be called from any thread (Observation reports changes on the thread
//   that mutates); the job always runs on the main actor.
// - `MainActorScheduler` runs each job in its own main-actor task, in the order scheduled.

/// Runs deferred main-actor work, such as ``ObservationProjection``'s re-reads.
///
/// Scheduling is an explicit argument so that tests can replace it: `AirframeTesting`'s
/// `ManualScheduler` queues jobs until the test drains them.
public protocol DeliveryScheduler: Sendable {
  /// Arranges for `job` to run on the main actor later.
  ///
  /// - Parameter job: The work; it must not be run synchronously inside this call.
  func schedule(_ job: @escaping @Sendable @MainActor () -> Void)
}

/// Runs each job in a new main-actor task: on one of the main actor's next turns.
public struct MainActorScheduler: DeliveryScheduler {
  /// Creates the scheduler.
  public init() {}

  /// Starts a main-actor task that runs `job`.
  ///
  /// - Parameter job: The work.
  public func schedule(_ job: @escaping @Sendable @MainActor () -> Void) {
    Task { @MainActor in job() }
  }
}

extension DeliveryScheduler where Self == MainActorScheduler {
  /// The default: a main-actor task per job.
  public static var mainActor: MainActorScheduler { MainActorScheduler() }
}
