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
///
/// ## Guarantees
///
/// - The work runs off the main actor; its result becomes an action dispatched on the main
///   actor through the dispatcher (validated, undoable, logged), never before the work has
///   finished, and never if the run was cancelled or superseded meanwhile: such a result is
///   dropped (outcome ``ActionOutcome/cancelled`` or ``ActionOutcome/superseded``), even if
///   the work ignored cancellation and returned normally.
/// - Work whose result changes nothing in the state (writing an export, sending a report)
///   makes no action: `makeAction` returns `nil`, nothing is dispatched, and the run's
///   outcome is ``ActionOutcome/unchanged``. Its policy, availability and cancellation are
///   those of every run.
/// - Work that throws ends with ``ActionOutcome/failed(_:)`` carrying the error's
///   description (``ActionOutcome/cancelled`` for a `CancellationError`); nothing is
///   dispatched.
/// - A trigger while a run is in flight follows the controller's ``ReentrancyPolicy``.
/// - ``isExecuting`` is true while a run that can still commit is in flight. A cancelled
///   or superseded run no longer counts: under ``ReentrancyPolicy/cancelPrevious``, once
///   the latest run has committed, ``isExecuting`` is false even if superseded work has not
///   returned yet, so a spinner bound to it stops. ``runningCount`` counts every task that
///   has not returned.
/// - ``availability`` is disabled with the reason "Already running." while a run is in
///   flight under ``ReentrancyPolicy/rejectWhileRunning``, and otherwise follows the
///   availability rule, recomputed after every commit. Both outputs are read-only.
/// - ``cancel()`` cancels every run in flight; none of them commits. Under
///   ``ReentrancyPolicy/queue`` and ``ReentrancyPolicy/coalesce`` a run still waiting for
///   its turn never starts its work.
/// - Under ``ReentrancyPolicy/coalesce``, every trigger during a run joins the one run that
///   waits for it, which starts with the latest trigger's input once the run in flight has
///   finished; each of those triggers returns that run's task.
/// - A trigger the controller refuses (the rule is not met, or a run is in flight under
///   ``ReentrancyPolicy/rejectWhileRunning``) dispatches nothing and appears in the
///   dispatcher's ``ActionLog`` with its reason, like every dispatched action.
/// - Releasing the controller cancels its runs from a plain deinit, which touches only the
///   `Task` values (they are Sendable): no `isolated deinit`, so nothing depends on its
///   back-deployment shim.
@MainActor
public final class AsyncActionController<State, Input: Sendable, Result: Sendable> {
  /// Whether the command can start now, with the reason when it cannot.
  public var availability: some StateProjection<Availability> { availabilitySource }
  /// Whether a run that can still commit is in flight.
  public var isExecuting: some StateProjection<Bool> { executingSource }
  /// What this controller does when triggered during a run.
  public let policy: ReentrancyPolicy

  private let availabilitySource: StateSource<Availability>
  private let executingSource = StateSource(false)
  private let name: String
  private let dispatcher: ActionDispatcher<State>
  private let availabilityRule: (State) -> Availability
  private let work: @Sendable (Input) async throws -> Result
  private let makeAction: (Result) -> (any Action<State>)?
  private var running: [Int: Task<ActionOutcome, Never>] = [:]
  private var cancelledRuns: Set<Int> = []
  private var latestRun = 0
  /// The most recent run under `.queue`, which the next one waits for.
  private var lastQueued: (run: Int, task: Task<ActionOutcome, Never>)?
  /// Under `.queue`: the run waiting for each run in flight.
  private var queuedBehind: [Int: Int] = [:]
  /// Queued runs whose turn came while they were not cancelled: their work may start.
  private var admitted: Set<Int> = []
  /// Under `.coalesce`: the run waiting for the one in flight, which every trigger
  /// meanwhile joins, and the latest of their inputs.
  private var waitingRun: (run: Int, task: Task<ActionOutcome, Never>)?
  private var waitingInput: Input?
  private var commitObservation: Lifetime?
  private let scheduler: any WorkScheduler

  /// Creates a controller.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the resulting actions.
  ///   - name: The command's name in the action log when it refuses a trigger.
  ///   - policy: What a trigger during a run does.
  ///   - scheduler: Where runs start; plain main-actor tasks by default. A test passes
  ///     `AirframeTesting`'s `TestScheduler` to wait until every run has finished.
  ///   - availability: Whether the command can run against a state; always enabled by
  ///     default.
  ///   - work: The asynchronous work; runs off the main actor.
  ///   - makeAction: Turns the work's result into the action to dispatch; `nil` when the
  ///     result changes nothing in the state (the outcome is then `.unchanged`).
  public init(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    policy: ReentrancyPolicy,
    scheduler: any WorkScheduler = .mainActor,
    availability: @escaping (State) -> Availability = { _ in .enabled },
    work: @escaping @Sendable (Input) async throws -> Result,
    makeAction: @escaping (Result) -> (any Action<State>)?
  ) {
    self.dispatcher = dispatcher
    self.scheduler = scheduler
    self.name = name ?? "Command"
    self.policy = policy
    self.availabilityRule = availability
    self.work = work
    self.makeAction = makeAction
    self.availabilitySource = StateSource(availability(dispatcher.model.state))
    commitObservation = dispatcher.model.observeCommits { [weak self] _ in
      self?.refreshAvailability()
    }
  }

  /// The number of runs whose tasks have not returned, cancelled ones included.
  public var runningCount: Int { running.count }

  /// Whether a run that can still commit (not cancelled, not superseded) is in flight.
  private var hasActiveRun: Bool { running.keys.contains { !cancelledRuns.contains($0) } }

  private func refreshAvailability() {
    if policy == .rejectWhileRunning, hasActiveRun {
      availabilitySource.set(.disabled("Already running."))
    } else {
      availabilitySource.set(availabilityRule(dispatcher.model.state))
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
      return refuse(.invalid(ValidationResult(rule.issues)))
    }
    switch policy {
    case .rejectWhileRunning where hasActiveRun:
      return refuse(.rejected("Already running."))
    case .cancelPrevious:
      cancelRuns()
    case .coalesce where hasActiveRun:
      return coalesce(input)
    default:
      break
    }
    latestRun += 1
    let run = latestRun
    // A queued run waits only for a run still in flight; otherwise its work starts at once.
    let previous = lastQueued.flatMap { running[$0.run] == nil ? nil : $0.task }
    if let waitedFor = lastQueued?.run, previous != nil { queuedBehind[waitedFor] = run }
    let work = self.work
    let task = scheduler.startTask { [weak self] () -> ActionOutcome in
      if let previous {
        _ = await previous.value
        // Cancelled before its turn came (see `finish`): the work never starts.
        guard let self, self.admitted.remove(run) != nil else {
          return self?.finish(run, with: .failure(CancellationError())) ?? .cancelled
        }
      }
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
    if policy == .queue { lastQueued = (run, task) }
    publishExecution()
    return task
  }

  /// Under `.coalesce`, during a run: joins the run waiting for it, or makes that run.
  private func coalesce(_ input: Input) -> Task<ActionOutcome, Never> {
    waitingInput = input
    if let waitingRun { return waitingRun.task }
    latestRun += 1
    let run = latestRun
    let inFlight = running.filter { !cancelledRuns.contains($0.key) }.map(\.value)
    let work = self.work
    let task = scheduler.startTask { [weak self] () -> ActionOutcome in
      for earlier in inFlight { _ = await earlier.value }
      guard let self else { return .cancelled }
      // Cancelled while it waited: the work never starts.
      guard !self.cancelledRuns.contains(run), let input = self.waitingInput else {
        return self.finish(run, with: .failure(CancellationError()))
      }
      self.waitingRun = nil
      self.waitingInput = nil
      let result: Swift.Result<Result, any Error>
      do {
        result = .success(try await work(input))
      } catch {
        result = .failure(error)
      }
      return self.finish(run, with: result)
    }
    running[run] = task
    waitingRun = (run, task)
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

  /// Logs a refused trigger and returns its outcome as a finished task.
  private func refuse(_ outcome: ActionOutcome) -> Task<ActionOutcome, Never> {
    dispatcher.logRefusal(name: name, outcome: outcome)
    return Task { outcome }
  }

  private func cancelRuns() {
    waitingRun = nil
    waitingInput = nil
    for (run, task) in running {
      cancelledRuns.insert(run)
      task.cancel()
    }
  }

  private func finish(_ run: Int, with result: Swift.Result<Result, any Error>) -> ActionOutcome {
    running[run] = nil
    // The queued run behind this one gets its turn now, unless it was cancelled meanwhile.
    if let next = queuedBehind.removeValue(forKey: run), !cancelledRuns.contains(next) {
      admitted.insert(next)
    }
    defer { publishExecution() }
    if cancelledRuns.remove(run) != nil {
      return policy == .cancelPrevious && run != latestRun ? .superseded : .cancelled
    }
    switch result {
    case .success(let value):
      guard let action = makeAction(value) else { return .unchanged }
      return dispatcher.dispatch(action)
    case .failure(let error):
      return error is CancellationError ? .cancelled : .failed(String(describing: error))
    }
  }

  private func publishExecution() {
    executingSource.set(hasActiveRun)
    refreshAvailability()
  }

  // A plain (nonisolated) deinit: it touches only `Task` values, which are Sendable, so
  // cancel-on-release needs no hop to the main actor and no `isolated deinit`
  // back-deployment shim.
  deinit {
    for task in running.values { task.cancel() }
  }
}
