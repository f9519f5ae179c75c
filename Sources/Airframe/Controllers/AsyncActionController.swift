// AsyncActionController: a command whose work suspends (disk, network), then commits.
//
// Guarantees
// - The work runs off the main actor; its result becomes an action dispatched on the main
//   actor through the dispatcher (validated, undoable, logged) — never before the work
//   has finished, and never if the run was cancelled or superseded meanwhile: such a
//   result is dropped (outcome `.cancelled` or `.superseded`), even if the work ignored
//   cancellation and returned normally.
// - A trigger while a run is in flight follows the controller's `ReentrancyPolicy`.
// - `isExecuting` is true while any run is in flight; `availability` is false-with-reason
//   while running under `.rejectWhileRunning`, and otherwise follows the rule, recomputed
//   after every commit.
// - `cancel()` cancels every run in flight; none of them commits.

/// The controller of a command whose work is asynchronous, with a declared re-entrancy
/// policy.
///
/// ```swift
/// let sync = AsyncActionController(dispatcher: dispatcher, policy: .rejectWhileRunning) {
///   (_: Void) in try await server.fetchChanges()
/// } makeAction: { changes in
///   ApplyServerChanges(changes)
/// }
/// await sync.trigger(()).value      // .committed(revision: …)
/// ```
@MainActor
public final class AsyncActionController<State, Input: Sendable, Result: Sendable> {
  /// Whether the command can start now, with the reason when it cannot.
  public let availability: StateSource<Availability>
  /// Whether any run is in flight.
  public let isExecuting = StateSource(false)
  /// What this controller does when triggered during a run.
  public let policy: ReentrancyPolicy

  private let dispatcher: ActionDispatcher<State>
  private let availabilityRule: (State) -> Availability
  private let work: @Sendable (Input) async throws -> Result
  private let makeAction: (Result) -> any Action<State>
  private var running: [Int: Task<ActionOutcome, Never>] = [:]
  private var cancelledRuns: Set<Int> = []
  private var latestRun = 0
  private var lastQueued: Task<ActionOutcome, Never>?
  private var commitObservation: Lifetime?

  /// Creates a controller.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the resulting actions.
  ///   - policy: What a trigger during a run does.
  ///   - availability: Whether the command can run against a state; always enabled by
  ///     default.
  ///   - work: The asynchronous work; runs off the main actor.
  ///   - makeAction: Turns the work's result into the action to dispatch.
  public init(
    dispatcher: ActionDispatcher<State>,
    policy: ReentrancyPolicy,
    availability: @escaping (State) -> Availability = { _ in .enabled },
    work: @escaping @Sendable (Input) async throws -> Result,
    makeAction: @escaping (Result) -> any Action<State>
  ) {
    self.dispatcher = dispatcher
    self.policy = policy
    self.availabilityRule = availability
    self.work = work
    self.makeAction = makeAction
    self.availability = StateSource(availability(dispatcher.model.state))
    commitObservation = dispatcher.model.observeCommits { [weak self] _ in
      self?.refreshAvailability()
    }
  }

  /// The number of runs in flight.
  public var runningCount: Int { running.count }

  /// Recomputes availability; call it when view state the rule reads has changed.
  public func refreshAvailability() {
    if policy == .rejectWhileRunning, !running.isEmpty {
      availability.set(.disabled("Already running."))
    } else {
      availability.set(availabilityRule(dispatcher.model.state))
    }
  }

  /// Starts a run for `input`, following the re-entrancy policy.
  ///
  /// - Parameter input: What the gesture carried.
  /// - Returns: A task whose value is the run's outcome.
  @discardableResult
  public func trigger(_ input: Input) -> Task<ActionOutcome, Never> {
    let rule = availabilityRule(dispatcher.model.state)
    guard rule.isEnabled else {
      return Task { .invalid(ValidationResult(rule.issues)) }
    }
    switch policy {
    case .rejectWhileRunning where !running.isEmpty:
      return Task { .rejected("Already running.") }
    case .cancelPrevious:
      cancelRuns()
    default:
      break
    }
    latestRun += 1
    let run = latestRun
    let previous = policy == .queue ? lastQueued : nil
    let work = self.work
    let task = Task { [weak self] () -> ActionOutcome in
      if let previous { _ = await previous.value }
      let result: Swift.Result<Result, any Error>
      do {
        result = .success(try await work(input))
      } catch {
        result = .failure(error)
      }
      guard let self else { return .cancelled }
      return self.finish(run, with: result)
    }
    running[run] = task
    if policy == .queue { lastQueued = task }
    publishExecution()
    return task
  }

  /// Cancels every run in flight; none of them will commit.
  public func cancel() {
    cancelRuns()
    publishExecution()
  }

  /// Stops following model commits and cancels every run.
  public func invalidate() {
    cancel()
    commitObservation?.cancel()
  }

  private func cancelRuns() {
    for (run, task) in running {
      cancelledRuns.insert(run)
      task.cancel()
    }
  }

  private func finish(_ run: Int, with result: Swift.Result<Result, any Error>) -> ActionOutcome {
    running[run] = nil
    defer { publishExecution() }
    if cancelledRuns.remove(run) != nil {
      return policy == .cancelPrevious && run != latestRun ? .superseded : .cancelled
    }
    switch result {
    case .success(let value):
      return dispatcher.dispatch(makeAction(value))
    case .failure(let error):
      return error is CancellationError ? .cancelled : .failed(String(describing: error))
    }
  }

  private func publishExecution() {
    isExecuting.set(!running.isEmpty)
    refreshAvailability()
  }

  // A plain (nonisolated) deinit: it touches only `Task` values, which are Sendable, so
  // cancel-on-release needs no hop to the main actor and no `isolated deinit`
  // back-deployment shim.
  deinit {
    for task in running.values { task.cancel() }
  }
}
