/// The controller of one command: it knows when the command is available and how to turn
/// the user's gesture into an action.
///
/// A controller reads two things: the model, and one view-state projection you give it
/// (the selection, say) as its *context*. It builds the action from the context and the
/// gesture's input, and its availability follows what it reads:
///
/// ```swift
/// let selection = StateSource<Note.ID?>(nil)
/// let delete = ActionController(dispatcher: dispatcher, reading: selection) { id, _ in
///   id == nil ? .disabled("Select a note to delete.") : .enabled
/// } makeAction: { id in
///   DeleteNote(id: id!)
/// }
/// delete.availability.observe { menuItem.isEnabled = $0.isEnabled }
/// selection.set(1)    // availability: DeleteNote(id: 1).validate(in: state)
/// delete.trigger()
/// ```
///
/// ## Guarantees
///
/// - Availability is the action's own ``Action/validate(in:)`` result: for a command
///   without input (`Input == Void`), the action built from the current context is
///   validated against the current state. A command whose input is known only at the
///   gesture (a typed title) cannot be validated before it; its availability is the
///   `requires` rule alone, and validation judges the input at ``trigger(_:)``. A
///   `requires` rule (false when nothing is selected, say) is checked first, and the
///   action is built only when it passes.
/// - Availability is recomputed after every model commit and every value the context
///   projection delivers; the app never recomputes it by hand. Equal availabilities are
///   not delivered again, and ``availability`` and ``isExecuting`` are read-only: only the
///   controller writes them.
/// - ``trigger(_:)`` dispatches exactly one action through the dispatcher when the
///   requirement holds (the dispatcher validates, logs and records it for undo); when it
///   does not, nothing is dispatched, the outcome is ``ActionOutcome/invalid(_:)`` with
///   the reason, and the refusal is logged in the dispatcher's ``ActionLog``.
/// - Synchronous: ``isExecuting`` is true only while the dispatch runs.
@MainActor
public final class ActionController<State, Input> {
  /// Whether the command can run now, with the reason when it cannot.
  public var availability: some StateProjection<Availability> { availabilitySource }
  /// Whether the command is running.
  public var isExecuting: some StateProjection<Bool> { executingSource }

  private let availabilitySource: StateSource<Availability>
  private let executingSource = StateSource(false)
  private let dispatcher: ActionDispatcher<State>
  private let name: String
  /// The requirement's verdict; `nil` when it holds.
  private let refusal: () -> Availability?
  /// The availability of the action the context names, for a command without input.
  private let validation: (() -> Availability)?
  private let build: (Input) -> any Action<State>
  private var observations: [Lifetime] = []

  private init<Context>(
    dispatcher: ActionDispatcher<State>,
    name: String?,
    context: some StateProjection<Context>,
    requirement: @escaping (Context, State) -> Availability,
    probe: Input?,
    makeAction: @escaping (Context, Input) -> any Action<State>
  ) {
    self.dispatcher = dispatcher
    self.name = name ?? "Command"
    let model = dispatcher.model
    refusal = {
      let verdict = requirement(context.value, model.state)
      return verdict.isEnabled ? nil : verdict
    }
    validation = probe.map { probe in
      { Availability(makeAction(context.value, probe).validate(in: model.state)) }
    }
    build = { makeAction(context.value, $0) }
    availabilitySource = StateSource(.enabled)
    recompute()
    observations = [
      model.observeCommits { [weak self] _ in self?.recompute() },
      context.observe { [weak self] _ in self?.recompute() },
    ]
  }

  /// Creates a controller that reads the view state `context`.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - name: The command's name in the action log when it refuses a gesture.
  ///   - context: The view state the command acts on, such as the selection.
  ///   - requires: What the command needs beyond its action's validation; always met by
  ///     default.
  ///   - makeAction: Builds the action from the context and the gesture's input; called
  ///     only when `requires` is met.
  public convenience init<Context>(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    reading context: some StateProjection<Context>,
    requires: @escaping (Context, State) -> Availability = { _, _ in .enabled },
    makeAction: @escaping (Context, Input) -> any Action<State>
  ) {
    self.init(
      dispatcher: dispatcher, name: name, context: context, requirement: requires, probe: nil,
      makeAction: makeAction)
  }

  /// Creates a controller that reads only the model.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - name: The command's name in the action log when it refuses a gesture.
  ///   - requires: What the command needs beyond its action's validation; always met by
  ///     default.
  ///   - makeAction: Builds the action for a gesture's input; called only when `requires`
  ///     is met.
  public convenience init(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    requires: @escaping (State) -> Availability = { _ in .enabled },
    makeAction: @escaping (Input) -> any Action<State>
  ) {
    self.init(
      dispatcher: dispatcher, name: name, context: StateSource(()),
      requirement: { requires($1) }, probe: nil, makeAction: { makeAction($1) })
  }

  /// Builds the action for `input` and dispatches it, if the command's requirement holds.
  ///
  /// - Parameter input: What the gesture carried, such as the new title.
  /// - Returns: What happened.
  @discardableResult
  public func trigger(_ input: Input) -> ActionOutcome {
    if let refused = refusal() {
      availabilitySource.set(refused)
      let outcome = ActionOutcome.invalid(ValidationResult(refused.issues))
      dispatcher.logRefusal(name: name, outcome: outcome)
      return outcome
    }
    executingSource.set(true)
    defer { executingSource.set(false) }
    return dispatcher.dispatch(build(input))
  }

  /// Stops following model commits and the context; the controller keeps its last
  /// availability.
  public func cancel() {
    for observation in observations { observation.cancel() }
  }

  private func recompute() {
    availabilitySource.set(refusal() ?? validation?() ?? .enabled)
  }
}

extension ActionController where Input == Void {
  /// Creates a controller of a command without input whose availability is the
  /// validation of the action built from `context`.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - name: The command's name in the action log when it refuses a gesture.
  ///   - context: The view state the command acts on, such as the selection.
  ///   - requires: What the command needs before its action can be built; always met by
  ///     default.
  ///   - makeAction: Builds the action from the context; called only when `requires` is
  ///     met.
  public convenience init<Context>(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    reading context: some StateProjection<Context>,
    requires: @escaping (Context, State) -> Availability = { _, _ in .enabled },
    makeAction: @escaping (Context) -> any Action<State>
  ) {
    self.init(
      dispatcher: dispatcher, name: name, context: context, requirement: requires, probe: (),
      makeAction: { context, _ in makeAction(context) })
  }

  /// Creates a controller of a command without input that reads only the model; its
  /// availability is the validation of the action `makeAction` builds.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - name: The command's name in the action log when it refuses a gesture.
  ///   - requires: What the command needs before its action can be built; always met by
  ///     default.
  ///   - makeAction: Builds the action; called only when `requires` is met.
  public convenience init(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    requires: @escaping (State) -> Availability = { _ in .enabled },
    makeAction: @escaping () -> any Action<State>
  ) {
    self.init(
      dispatcher: dispatcher, name: name, context: StateSource(()),
      requirement: { requires($1) }, probe: (), makeAction: { _, _ in makeAction() })
  }

  /// Dispatches the command's action, if the command is available.
  ///
  /// - Returns: What happened.
  @discardableResult
  public func trigger() -> ActionOutcome { trigger(()) }
}
