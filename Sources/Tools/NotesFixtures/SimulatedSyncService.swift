// SimulatedSyncService: a sync service for tests and benchmarks that simulates latency,
// progress and failure in process. Test support, not part of the shipped library: the
// program syncs through NotesSync's ServerSyncService.

public import AirframeBinding
public import Foundation
public import NotesCore

/// An in-process sync service that simulates latency, progress and failure.
///
/// ```swift
/// let service = SimulatedSyncService(steps: 4, stepDelay: .milliseconds(150))
/// let failing = SimulatedSyncService(
///   steps: 4, stepDelay: .zero, failure: .atStep(2, "Server unavailable"))
/// ```
public struct SimulatedSyncService: SyncService {
  /// A simulated failure.
  public struct Failure: Error, Equatable, CustomStringConvertible {
    /// The step at which the sync fails.
    public let step: Int
    /// The message the failure carries.
    public let message: String

    /// Fails at `step` with `message`.
    ///
    /// - Parameters:
    ///   - step: The step, from 1, at which the sync fails.
    ///   - message: What the failure says.
    /// - Returns: The failure.
    public static func atStep(_ step: Int, _ message: String) -> Failure {
      Failure(step: step, message: message)
    }

    /// The message.
    public var description: String { message }
  }

  /// The number of progress steps.
  public let steps: Int
  /// The simulated latency of each step.
  public let stepDelay: Duration
  /// The failure to simulate, if any.
  public let failure: Failure?
  private let clock: @Sendable () -> Date
  private let scheduler: any WorkScheduler

  /// Creates a simulated service.
  ///
  /// - Parameters:
  ///   - steps: The number of progress steps; at least 1.
  ///   - stepDelay: The simulated latency of each step.
  ///   - failure: The failure to simulate, if any.
  ///   - scheduler: Whose clock the step delays run on; the continuous clock by default.
  ///   - clock: The time reported when a sync finishes; the current time by default.
  public init(
    steps: Int = 4,
    stepDelay: Duration = .milliseconds(100),
    failure: Failure? = nil,
    scheduler: any WorkScheduler = .mainActor,
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.steps = max(1, steps)
    self.stepDelay = stepDelay
    self.failure = failure
    self.scheduler = scheduler
    self.clock = clock
  }

  /// Reports each step's progress after its delay; fails at the configured step.
  public func sync(progress: @escaping @Sendable (Double) async -> Void) async throws -> Date {
    await progress(0)
    for step in 1...steps {
      if stepDelay > .zero { try await scheduler.sleep(for: stepDelay) }
      try Task.checkCancellation()
      if let failure, failure.step == step { throw failure }
      await progress(Double(step) / Double(steps))
    }
    return clock()
  }
}
