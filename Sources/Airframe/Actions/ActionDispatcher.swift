// ActionDispatcher: validates, performs, records for undo, and logs every action.
//
// Guarantees
// - An action runs only if `validate(in:)` returns no issue against the current state;
//   otherwise nothing changes and the outcome is `.invalid` with every reason.
// - A valid action runs in one `Model.write`; its inverse is recorded for undo only if the
//   write committed. A new recorded action clears the redo stack.
// - Undo runs an entry's inverse actions (all of a group's) in one write, so a group
//   undoes atomically; its inverses become the redo entry. If an inverse is no longer
//   valid (its target was deleted meanwhile), undo changes nothing, returns `.invalid`
//   with the reason, and drops the entry so the next undo can proceed.
// - Undo and redo availability (with the names for menu items) is published as a state
//   source, updated after every dispatch, undo and redo.
// - Every dispatch, undo and redo is appended to the action log with its duration.
// - Coalescing: consecutive steps dispatched with the same coalescing key (typing in one
//   note, say) become one undo step whose undo restores the state before the first of
//   them. Any step with another key or none, an undo or a redo ends the run. The caller
//   guarantees that the first step's inverse reverts the whole run (true when every step
//   edits the same entity and its inverse restores the entity, as Notes' edits do).

/// The entry point of the mutate path: runs actions through the model's funnel and keeps
/// the undo history and the action log.
///
/// ```swift
/// let dispatcher = ActionDispatcher(model: model)
/// dispatcher.dispatch(RenameNote(id: 1, title: "Groceries"))   // .committed(revision: 1)
/// dispatcher.undoAvailability.value.undoName                      // "Rename Note"
/// dispatcher.undo()                                               // .committed(revision: 2)
/// ```
@MainActor
public final class ActionDispatcher<State> {
  /// The names a menu shows for undo and redo; `nil` when there is nothing to undo or redo.
  public struct UndoAvailability: Equatable, Sendable {
    /// The name of the step "Undo" would revert.
    public var undoName: String?
    /// The name of the step "Redo" would repeat.
    public var redoName: String?

    /// Creates an availability.
    ///
    /// - Parameters:
    ///   - undoName: The name of the step "Undo" would revert.
    ///   - redoName: The name of the step "Redo" would repeat.
    public init(undoName: String? = nil, redoName: String? = nil) {
      self.undoName = undoName
      self.redoName = redoName
    }
  }

  /// The model every action writes to.
  public let model: Model<State>
  /// The log of every dispatch, undo and redo.
  public let log: ActionLog
  /// What undo and redo would do now; read-only, published by the dispatcher.
  public var undoAvailability: some StateProjection<UndoAvailability> { undoAvailabilitySource }

  private let undoAvailabilitySource = StateSource(UndoAvailability())

  private var history: UndoHistory<State>

  /// Creates a dispatcher.
  ///
  /// - Parameters:
  ///   - model: The model actions write to.
  ///   - undoLimit: The most undo steps kept.
  ///   - log: The action log; a new one by default.
  public init(model: Model<State>, undoLimit: Int = 100, log: ActionLog = ActionLog()) {
    self.model = model
    self.log = log
    self.history = UndoHistory(limit: undoLimit)
  }

  /// Validates `action` and, if it is valid, performs it and records its inverse.
  ///
  /// Pass a `coalescingKey` to merge consecutive steps into one undo step, as a text
  /// editor merges typed characters: a step recorded right after another with the same
  /// key extends that step instead of adding one.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - coalescingKey: Identifies a run of steps that undo as one; `nil` for a step of
  ///     its own.
  /// - Returns: What happened.
  @discardableResult
  public func dispatch(
    _ action: some Action<State>, coalescingKey: AnyHashable? = nil
  ) -> ActionOutcome {
    let (outcome, inverses) = run([action], name: action.name)
    if case .committed = outcome, let inverse = inverses.first {
      history.record(name: action.name, inverse: inverse, coalescingKey: coalescingKey)
      publishAvailability()
    }
    return outcome
  }

  /// Runs `body` so that every action it dispatches becomes one undo step named `name`.
  ///
  /// - Parameters:
  ///   - name: The step's name, as in "Undo Move Notes".
  ///   - coalescingKey: Merges the group into the previous step when that step was
  ///     recorded with the same key (see ``dispatch(_:coalescingKey:)``).
  ///   - body: Dispatches the actions of the group.
  /// - Returns: What `body` returns.
  public func group<Result>(
    named name: String, coalescingKey: AnyHashable? = nil, _ body: () throws -> Result
  ) rethrows -> Result {
    history.beginGroup(named: name, coalescingKey: coalescingKey)
    defer {
      history.endGroup()
      publishAvailability()
    }
    return try body()
  }

  /// Reverts the most recent step.
  ///
  /// - Returns: What happened; `.rejected` if there is nothing to undo.
  @discardableResult
  public func undo() -> ActionOutcome {
    guard let entry = history.popUndo() else { return .rejected("Nothing to undo.") }
    let (outcome, inverses) = run(entry.actions, name: "Undo \(entry.name)")
    if case .committed = outcome {
      history.pushRedo(UndoEntry(name: entry.name, actions: inverses.reversed()))
    } else if case .unchanged = outcome {
      // Nothing to revert any more; the step is spent.
    } else if case .failed = outcome {
      history.pushUndo(entry)
    }
    publishAvailability()
    return outcome
  }

  /// Repeats the most recently undone step.
  ///
  /// - Returns: What happened; `.rejected` if there is nothing to redo.
  @discardableResult
  public func redo() -> ActionOutcome {
    guard let entry = history.popRedo() else { return .rejected("Nothing to redo.") }
    let (outcome, inverses) = run(entry.actions, name: "Redo \(entry.name)")
    if case .committed = outcome {
      history.pushUndo(UndoEntry(name: entry.name, actions: inverses.reversed()))
    } else if case .failed = outcome {
      history.pushRedo(entry)
    }
    publishAvailability()
    return outcome
  }

  /// Validates and performs `actions` in order in one write; returns their inverses in
  /// the same order.
  private func run(
    _ actions: [any Action<State>],
    name: String
  ) -> (ActionOutcome, [any Action<State>]) {
    let clock = ContinuousClock()
    let start = clock.now
    var inverses: [any Action<State>] = []
    var validation = ValidationResult()
    var changes: ChangeSet<State>?
    let outcome: ActionOutcome
    do {
      let revisionBefore = model.revision
      try model.write { transaction in
        for action in actions {
          let result = action.validate(in: transaction.state)
          guard result.isValid else {
            validation = result
            throw InvalidAction()
          }
          inverses.append(try action.perform(in: &transaction))
        }
        changes = transaction.changes
      }
      outcome =
        model.revision == revisionBefore
        ? .unchanged
        : .committed(
          revision: model.revision, created: changes.map(CreatedEntities.init) ?? CreatedEntities())
    } catch is InvalidAction {
      outcome = .invalid(validation)
      changes = nil
    } catch {
      outcome = .failed(String(describing: error))
      changes = nil
    }
    log.append(
      ActionLogEntry(
        name: name, validation: validation, outcome: outcome, duration: clock.now - start,
        changeSummary: { [changes] in changes?.summary ?? "" }))
    return (outcome, inverses)
  }

  /// Logs a gesture that a controller refused before anything was dispatched.
  func logRefusal(name: String, outcome: ActionOutcome) {
    var validation = ValidationResult()
    if case .invalid(let result) = outcome { validation = result }
    log.append(
      ActionLogEntry(
        name: name, validation: validation, outcome: outcome, duration: .zero,
        changeSummary: { "" }))
  }

  private func publishAvailability() {
    undoAvailabilitySource.set(
      UndoAvailability(
        undoName: history.undoStack.last?.name, redoName: history.redoStack.last?.name))
  }
}

/// Stops a write whose action failed validation; never escapes the dispatcher.
private struct InvalidAction: Error {}
