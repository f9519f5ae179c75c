/// The entry point of the mutate path: runs actions through the model's funnel and keeps
/// the undo history and the action log.
///
/// ```swift
/// let dispatcher = ActionDispatcher(model: model)
/// dispatcher.dispatch(RenameNote(id: 1, title: "Groceries"))   // .committed(revision: 1)
/// dispatcher.undoAvailability.value.undoName                      // "Rename Note"
/// dispatcher.undo()                                               // .committed(revision: 2)
/// ```
///
/// ## Guarantees
///
/// - An action runs only if `validate(in:)` returns no issue against the current state;
///   otherwise nothing changes and the outcome is ``ActionOutcome/invalid(_:)`` with every
///   reason.
/// - A valid action runs in one ``Model/write(origin:_:)`` whose commit carries the
///   action's ``CommitOrigin``: ``CommitOrigin/user(_:)`` with the action's name unless
///   the caller names another origin. A committed outcome carries the ids the step
///   created (``CreatedEntities``).
/// - Only the user's own actions are recorded for undo, and only if the write committed.
///   A new recorded action clears the redo stack. Commits from a background task or an
///   external source (another process, a sync server) never become undo steps.
/// - Undo runs an entry's inverse actions (all of a group's) in one write, so a group
///   undoes atomically; its inverses become the redo entry.
/// - Compare and set: an undo applies only if every row and value it would restore is
///   still what its step left. If another writer changed one of them since (a row
///   compares whole), the undo changes nothing, returns ``ActionOutcome/invalid(_:)``
///   naming what changed, and drops the entry, so the history stays usable and the next
///   undo can proceed. Rows and values the undo does not write (another note, a sync
///   status, an id counter) may change freely in between.
/// - The same rules hold when an inverse is no longer valid (its target was deleted
///   meanwhile): nothing changes, the outcome is ``ActionOutcome/invalid(_:)`` with the
///   reason, and the entry is dropped.
/// - Redo of a step that is no longer valid: a redo entry is compared with what its undo
///   left, and validated, in the same way; if either fails, the redo changes nothing,
///   returns ``ActionOutcome/invalid(_:)`` with the reason and is dropped. A redo whose
///   write fails (storage) is kept, as is an undo whose write fails.
/// - Undo and redo availability (with the names for menu items) is published through the
///   read-only ``undoAvailability``, updated after every dispatch, undo and redo.
/// - What is logged: every dispatch, undo and redo, and every gesture an
///   ``ActionController`` or ``AsyncActionController`` refused, is appended to ``log`` as
///   an ``ActionLogEntry`` with its name, origin, validation result, outcome, duration and
///   a summary of its change set.
/// - Coalescing: consecutive steps dispatched with the same coalescing key (typing in one
///   note, say) become one undo step whose undo restores the state before the first of
///   them and compares with what the last of them left. Any step with another key or
///   none, an undo or a redo ends the run. The caller guarantees that the first step's
///   inverse reverts the whole run (true when every step edits the same entity and its
///   inverse restores the entity, as Notes' edits do).
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
  ///   - origin: Where the action comes from; the user's, named after the action, by
  ///     default. Only a user action is recorded for undo: an action applied for a
  ///     background task or an external source is validated, committed and logged, and
  ///     undo never reverts it.
  /// - Returns: What happened.
  @discardableResult
  public func dispatch(
    _ action: some Action<State>, coalescingKey: AnyHashable? = nil, origin: CommitOrigin? = nil
  ) -> ActionOutcome {
    let origin = origin ?? .user(action.name)
    let step = run([action], name: action.name, origin: origin, expecting: nil)
    if case .committed = step.outcome, origin.isUser, let inverse = step.inverses.first {
      history.record(
        name: action.name, inverse: inverse, coalescingKey: coalescingKey,
        snapshot: step.snapshot)
      publishAvailability()
    }
    return step.outcome
  }

  /// Runs `body` so that every action it dispatches becomes one undo step named `name`.
  ///
  /// - Parameters:
  ///   - name: The step's name, as in "Undo Move Notes".
  ///   - coalescingKey: Merges the group into the previous step when that step was
  ///     recorded with the same key (see ``dispatch(_:coalescingKey:origin:)``).
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

  /// Reverts the most recent step, unless something else changed what it would restore.
  ///
  /// - Returns: What happened; `.rejected` if there is nothing to undo, `.invalid` with
  ///   the reason if the step can no longer be reverted (the entry is then dropped).
  @discardableResult
  public func undo() -> ActionOutcome {
    guard let entry = history.popUndo() else { return .rejected("Nothing to undo.") }
    let (outcome, reverse) = replay(entry, as: "Undo")
    if let reverse {
      history.pushRedo(reverse)
    } else if case .failed = outcome {
      history.pushUndo(entry)
    }
    // Otherwise (invalid, or nothing left to revert) the step is spent.
    publishAvailability()
    return outcome
  }

  /// Repeats the most recently undone step, unless something else changed what it would
  /// overwrite.
  ///
  /// - Returns: What happened; `.rejected` if there is nothing to redo, `.invalid` with
  ///   the reason if the step can no longer be repeated (the entry is then dropped).
  @discardableResult
  public func redo() -> ActionOutcome {
    guard let entry = history.popRedo() else { return .rejected("Nothing to redo.") }
    let (outcome, reverse) = replay(entry, as: "Redo")
    if let reverse {
      history.pushUndo(reverse)
    } else if case .failed = outcome {
      history.pushRedo(entry)
    }
    publishAvailability()
    return outcome
  }

  /// Runs a history entry as the user's "Undo …" or "Redo …" step; when it commits, also
  /// returns the entry that reverses it.
  private func replay(
    _ entry: UndoEntry<State>, as verb: String
  ) -> (ActionOutcome, UndoEntry<State>?) {
    let name = "\(verb) \(entry.name)"
    let step = run(entry.actions, name: name, origin: .user(name), expecting: entry.snapshot)
    guard case .committed = step.outcome else { return (step.outcome, nil) }
    let reverse = UndoEntry(
      name: entry.name, actions: step.inverses.reversed(), snapshot: step.snapshot)
    return (step.outcome, reverse)
  }

  /// One run of actions: its outcome, their inverses in the same order, and what it left.
  private struct Step {
    var outcome: ActionOutcome
    var inverses: [any Action<State>] = []
    var snapshot = StepSnapshot<State>()
  }

  /// Validates and performs `actions` in order in one write.
  ///
  /// With `expected` (an undo or redo), the write is refused, changing nothing, if it
  /// would change a row or value that is no longer what the step being reverted left.
  private func run(
    _ actions: [any Action<State>],
    name: String,
    origin: CommitOrigin,
    expecting expected: StepSnapshot<State>?
  ) -> Step {
    let clock = ContinuousClock()
    let start = clock.now
    var inverses: [any Action<State>] = []
    var validation = ValidationResult()
    var changes: ChangeSet<State>?
    var step = Step(outcome: .unchanged)
    do {
      let revisionBefore = model.revision
      try model.write(origin: origin) { transaction in
        // The body runs again if the storage was behind another writer: start afresh.
        inverses = []
        validation = ValidationResult()
        let changedSince = expected?.changedKeys(in: transaction.state) ?? []
        for action in actions {
          let result = action.validate(in: transaction.state)
          guard result.isValid else {
            validation = result
            throw InvalidAction()
          }
          inverses.append(try action.perform(in: &transaction))
        }
        if !changedSince.isEmpty {
          let overwritten = transaction.changes.touchedKeys.intersection(changedSince)
          if !overwritten.isEmpty {
            validation = Self.conflict(name, overwritten.map(StepSnapshot.label(of:)))
            throw InvalidAction()
          }
        }
        changes = transaction.changes
      }
      if model.revision != revisionBefore, let changes, !changes.isEmpty {
        step.outcome = .committed(revision: model.revision, created: CreatedEntities(changes))
        step.inverses = inverses
        step.snapshot = changes.snapshot(of: model.state)
      }
    } catch is InvalidAction {
      step.outcome = .invalid(validation)
      changes = nil
    } catch let refusal as ActionRefusal {
      validation = refusal.result
      step.outcome = .invalid(validation)
      changes = nil
    } catch {
      step.outcome = .failed(String(describing: error))
      changes = nil
    }
    log.append(
      ActionLogEntry(
        name: name, origin: origin, validation: validation, outcome: step.outcome,
        duration: clock.now - start, changeSummary: { [changes] in changes?.summary ?? "" }))
    return step
  }

  /// Why an undo or redo was refused: the rows and values changed since its step.
  private static func conflict(_ name: String, _ labels: [String]) -> ValidationResult {
    let list = labels.sorted().joined(separator: ", ")
    let verb = labels.count == 1 ? "has" : "have"
    return ValidationResult([
      ValidationIssue(
        field: "history",
        message: "\(name) would overwrite a later change: \(list) \(verb) changed since.")
    ])
  }

  /// Logs a gesture that a controller refused before anything was dispatched.
  func logRefusal(name: String, outcome: ActionOutcome) {
    var validation = ValidationResult()
    if case .invalid(let result) = outcome { validation = result }
    log.append(
      ActionLogEntry(
        name: name, origin: .user(name), validation: validation, outcome: outcome,
        duration: .zero, changeSummary: { "" }))
  }

  private func publishAvailability() {
    undoAvailabilitySource.set(
      UndoAvailability(
        undoName: history.undoStack.last?.name, redoName: history.redoStack.last?.name))
  }
}

/// Stops a write whose action failed validation; never escapes the dispatcher.
private struct InvalidAction: Error {}
