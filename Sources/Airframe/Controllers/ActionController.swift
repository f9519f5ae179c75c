// ActionController: turns a gesture into a configured action and dispatches it.
//
// Guarantees
// - `availability` is a state source: replayed on observe, recomputed after every model
//   commit and on `refreshAvailability()` (call it when view state the command depends
//   on, such as the selection, changes). Equal availabilities are not delivered again.
// - `trigger` refuses to run while the command is unavailable (outcome `.invalid` with the
//   reason) and otherwise dispatches exactly one action through the dispatcher.
// - Synchronous: `isExecuting` is true only while the dispatch runs.

/// The controller of one command: it knows when the command is available and how to turn
/// the user's gesture into an action.
///
/// ```swift
/// let rename = ActionController(dispatcher: dispatcher) { state in
///   selection.value == nil ? .disabled("Select a note to rename.") : .enabled
/// } makeAction: { (title: String) in
///   RenameNote(id: selection.value!, title: title)
/// }
/// rename.availability.observe { menuItem.isEnabled = $0.isEnabled }
/// rename.trigger("Groceries")
/// ```
@MainActor
public final class ActionController<State, Input> {
  /// Whether the command can run now, with the reason when it cannot.
  public let availability: StateSource<Availability>
  /// Whether the command is running.
  public let isExecuting = StateSource(false)

  private let dispatcher: ActionDispatcher<State>
  private let availabilityRule: (State) -> Availability
  private let makeAction: (Input) -> any Action<State>
  private var commitObservation: Lifetime?

  /// Creates a controller.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - availability: Whether the command can run against a state.
  ///   - makeAction: Builds the action for a gesture's input.
  public init(
    dispatcher: ActionDispatcher<State>,
    availability: @escaping (State) -> Availability,
    makeAction: @escaping (Input) -> any Action<State>
  ) {
    self.dispatcher = dispatcher
    self.availabilityRule = availability
    self.makeAction = makeAction
    self.availability = StateSource(availability(dispatcher.model.state))
    commitObservation = dispatcher.model.observeCommits { [weak self] _ in
      self?.refreshAvailability()
    }
  }

  /// Recomputes availability; call it when view state the rule reads has changed.
  public func refreshAvailability() {
    availability.set(availabilityRule(dispatcher.model.state))
  }

  /// Builds the action for `input` and dispatches it, if the command is available.
  ///
  /// - Parameter input: What the gesture carried, such as the new title.
  /// - Returns: What happened.
  @discardableResult
  public func trigger(_ input: Input) -> ActionOutcome {
    refreshAvailability()
    let current = availability.value
    guard current.isEnabled else { return .invalid(ValidationResult(current.issues)) }
    isExecuting.set(true)
    defer { isExecuting.set(false) }
    return dispatcher.dispatch(makeAction(input))
  }

  /// Stops following model commits; the controller keeps its last availability.
  public func cancel() {
    commitObservation?.cancel()
  }
}

extension ActionController where Input == Void {
  /// Dispatches the command's action, if the command is available.
  ///
  /// - Returns: What happened.
  @discardableResult
  public func trigger() -> ActionOutcome { trigger(()) }
}
