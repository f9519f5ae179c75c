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
///   Requirement(id, otherwise: "Select a note to delete.")
/// } makeAction: { id in
///   DeleteNote(id: id)   // the id the requirement checked, not an optional
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
///   `requires` rule (unmet when nothing is selected, say) is checked first, and the
///   action is built only when it is met, from the value the rule checked: the rule
///   turns a context that may be empty into the value the action needs, so no call
///   site unwraps what the rule already checked.
/// - Availability is recomputed after every model commit and every value the context
///   projection delivers; the app never recomputes it by hand. Equal availabilities are
///   not delivered again, and ``availability`` and ``isExecuting`` are read-only: only the
///   controller writes them.
/// - ``trigger(_:)`` dispatches exactly one action through the dispatcher when the
///   requirement holds (the dispatcher validates, logs and records it for undo); when it
///   does not, nothing is dispatched, the outcome is ``ActionOutcome/invalid(_:)`` with
///   the reason, and the refusal is logged in the dispatcher's ``ActionLog``.
/// - Synchronous: ``isExecuting`` is true only while the dispatch runs.
/// - A run of triggers can undo as one step (``trigger(_:step:coalescingKey:)``), as a run
///   of typing does.
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
  /// The availability now: the requirement's verdict, then (for a command without input)
  /// the validation of the action it would build.
  private let currentAvailability: () -> Availability
  /// The action for a gesture's input, or why the requirement refuses it.
  private let prepare: (Input) -> Prepared
  private var observations: [Lifetime] = []

  /// An action ready to dispatch, or the reason there is none.
  private enum Prepared {
    case action(any Action<State>)
    case refused(Availability)
  }

  private init<Context, Checked>(
    dispatcher: ActionDispatcher<State>,
    name: String?,
    context: some StateProjection<Context>,
    requirement: @escaping (Context, State) -> Requirement<Checked>,
    probe: Input?,
    makeAction: @escaping (Checked, Input) -> any Action<State>
  ) {
    self.dispatcher = dispatcher
    self.name = name ?? "Command"
    let model = dispatcher.model
    currentAvailability = {
      switch requirement(context.value, model.state).verdict {
      case .unmet(let refusal): refusal
      case .met(let checked):
        probe.map { Availability(makeAction(checked, $0).validate(in: model.state)) }
          ?? .enabled
      }
    }
    prepare = { input in
      switch requirement(context.value, model.state).verdict {
      case .unmet(let refusal): .refused(refusal)
      case .met(let checked): .action(makeAction(checked, input))
      }
    }
    availabilitySource = StateSource(.enabled)
    recompute()
    observations = [
      model.observeCommits { [weak self] _ in self?.recompute() },
      context.observe { [weak self] _ in self?.recompute() },
    ]
  }

  /// Creates a controller that reads the view state `context` and has no requirement of
  /// its own.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - name: The command's name in the action log when it refuses a gesture.
  ///   - context: The view state the command acts on.
  ///   - makeAction: Builds the action from the context and the gesture's input.
  public convenience init<Context>(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    reading context: some StateProjection<Context>,
    makeAction: @escaping (Context, Input) -> any Action<State>
  ) {
    self.init(
      dispatcher: dispatcher, name: name, context: context,
      requirement: { context, _ in .met(context) }, probe: nil, makeAction: makeAction)
  }

  /// Creates a controller that reads the view state `context`, with a requirement that
  /// hands the checked value to the action.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - name: The command's name in the action log when it refuses a gesture.
  ///   - context: The view state the command acts on, such as the selection.
  ///   - requires: What the command needs beyond its action's validation: met with the
  ///     value the action is built from (the selected id, unwrapped), or unmet with the
  ///     reason.
  ///   - makeAction: Builds the action from the checked value and the gesture's input;
  ///     called only when `requires` is met.
  public convenience init<Context, Checked>(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    reading context: some StateProjection<Context>,
    requires: @escaping (Context, State) -> Requirement<Checked>,
    makeAction: @escaping (Checked, Input) -> any Action<State>
  ) {
    self.init(
      dispatcher: dispatcher, name: name, context: context, requirement: requires, probe: nil,
      makeAction: makeAction)
  }

  /// Creates a controller that reads only the model and has no requirement of its own.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - name: The command's name in the action log when it refuses a gesture.
  ///   - makeAction: Builds the action for a gesture's input.
  public convenience init(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    makeAction: @escaping (Input) -> any Action<State>
  ) {
    self.init(
      dispatcher: dispatcher, name: name, context: StateSource(()),
      requirement: { _, _ in .met(()) }, probe: nil, makeAction: { makeAction($1) })
  }

  /// Creates a controller that reads only the model, with a requirement that hands the
  /// checked value to the action.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - name: The command's name in the action log when it refuses a gesture.
  ///   - requires: What the command needs beyond its action's validation: met with the
  ///     value the action is built from, or unmet with the reason.
  ///   - makeAction: Builds the action from the checked value and the gesture's input;
  ///     called only when `requires` is met.
  public convenience init<Checked>(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    requires: @escaping (State) -> Requirement<Checked>,
    makeAction: @escaping (Checked, Input) -> any Action<State>
  ) {
    self.init(
      dispatcher: dispatcher, name: name, context: StateSource(()),
      requirement: { requires($1) }, probe: nil, makeAction: makeAction)
  }

  /// Builds the action for `input` and dispatches it, if the command's requirement holds.
  ///
  /// - Parameter input: What the gesture carried, such as the new title.
  /// - Returns: What happened.
  @discardableResult
  public func trigger(_ input: Input) -> ActionOutcome {
    switch prepare(input) {
    case .refused(let refused):
      availabilitySource.set(refused)
      let outcome = ActionOutcome.invalid(ValidationResult(refused.issues))
      dispatcher.logRefusal(name: name, outcome: outcome)
      return outcome
    case .action(let action):
      executingSource.set(true)
      defer { executingSource.set(false) }
      return dispatcher.dispatch(action)
    }
  }

  /// Builds the action for `input` and dispatches it as an undo step named `step` that
  /// merges into the previous one when that was recorded with the same `coalescingKey`.
  ///
  /// For a command a user repeats in a run that should undo at once, such as the saves of
  /// a run of typing: every trigger with one key, in a row, is one "Undo Typing". A
  /// different key, no key, or an undo in between starts a new step (see
  /// ``ActionDispatcher/group(named:coalescingKey:_:)``). A refused trigger records no
  /// step.
  ///
  /// - Parameters:
  ///   - input: What the gesture carried.
  ///   - step: The undo step's name, as in "Undo Typing".
  ///   - coalescingKey: Identifies the run the step belongs to; `nil` for a step of its own.
  /// - Returns: What happened.
  @discardableResult
  public func trigger(_ input: Input, step: String, coalescingKey: AnyHashable?)
    -> ActionOutcome
  {
    dispatcher.group(named: step, coalescingKey: coalescingKey) { trigger(input) }
  }

  /// Stops following model commits and the context; the controller keeps its last
  /// availability.
  public func cancel() {
    for observation in observations { observation.cancel() }
  }

  private func recompute() {
    availabilitySource.set(currentAvailability())
  }
}

extension ActionController where Input == Void {
  /// Creates a controller of a command without input whose availability is the
  /// validation of the action built from `context`.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - name: The command's name in the action log when it refuses a gesture.
  ///   - context: The view state the command acts on.
  ///   - makeAction: Builds the action from the context.
  public convenience init<Context>(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    reading context: some StateProjection<Context>,
    makeAction: @escaping (Context) -> any Action<State>
  ) {
    self.init(
      dispatcher: dispatcher, name: name, context: context,
      requirement: { context, _ in .met(context) }, probe: (),
      makeAction: { context, _ in makeAction(context) })
  }

  /// Creates a controller of a command without input whose availability is its
  /// requirement, then the validation of the action built from the checked value.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - name: The command's name in the action log when it refuses a gesture.
  ///   - context: The view state the command acts on, such as the selection.
  ///   - requires: What the command needs before its action can be built: met with the
  ///     value the action is built from (the selected id, unwrapped), or unmet with the
  ///     reason.
  ///   - makeAction: Builds the action from the checked value; called only when
  ///     `requires` is met.
  public convenience init<Context, Checked>(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    reading context: some StateProjection<Context>,
    requires: @escaping (Context, State) -> Requirement<Checked>,
    makeAction: @escaping (Checked) -> any Action<State>
  ) {
    self.init(
      dispatcher: dispatcher, name: name, context: context, requirement: requires, probe: (),
      makeAction: { checked, _ in makeAction(checked) })
  }

  /// Creates a controller of a command without input that reads only the model; its
  /// availability is the validation of the action `makeAction` builds.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - name: The command's name in the action log when it refuses a gesture.
  ///   - makeAction: Builds the action.
  public convenience init(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    makeAction: @escaping () -> any Action<State>
  ) {
    self.init(
      dispatcher: dispatcher, name: name, context: StateSource(()),
      requirement: { _, _ in .met(()) }, probe: (), makeAction: { _, _ in makeAction() })
  }

  /// Creates a controller of a command without input that reads only the model, with a
  /// requirement that hands the checked value to the action.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - name: The command's name in the action log when it refuses a gesture.
  ///   - requires: What the command needs before its action can be built: met with the
  ///     value the action is built from, or unmet with the reason.
  ///   - makeAction: Builds the action from the checked value; called only when
  ///     `requires` is met.
  public convenience init<Checked>(
    dispatcher: ActionDispatcher<State>,
    name: String? = nil,
    requires: @escaping (State) -> Requirement<Checked>,
    makeAction: @escaping (Checked) -> any Action<State>
  ) {
    self.init(
      dispatcher: dispatcher, name: name, context: StateSource(()),
      requirement: { requires($1) }, probe: (), makeAction: { checked, _ in makeAction(checked) })
  }

  /// Dispatches the command's action, if the command is available.
  ///
  /// - Returns: What happened.
  @discardableResult
  public func trigger() -> ActionOutcome { trigger(()) }
}
