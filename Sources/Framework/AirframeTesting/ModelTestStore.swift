public import Airframe
public import Testing

/// A change the test expects a step to make, for ``ModelTestStore``.
///
/// ## Guarantees
/// - After each `send`, `undo` or `redo`, the model's state must equal the state before it
///   with exactly the test's stated modifications applied; any other difference fails the
///   test with a readable line diff.
/// - The commit's change set must list exactly the stated tables with exactly the stated
///   ids, and exactly the stated values; anything unstated fails the test.
/// - Stating changes for a step that committed nothing fails the test, and so does a step
///   that committed without the test stating any change.
public struct ExpectedChange<State> {
  let keyPath: AnyKeyPath
  let isTable: Bool
  let check: (ChangeSet<State>) -> String?

  /// Expects the table at `table` to have exactly these inserted, updated and removed ids.
  ///
  /// - Parameters:
  ///   - table: The table's key path.
  ///   - inserted: The ids expected to be inserted.
  ///   - updated: The ids expected to be updated.
  ///   - removed: The ids expected to be removed.
  /// - Returns: The expectation.
  public static func table<Element>(
    _ table: KeyPath<State, EntityTable<Element>>,
    inserted: Set<Element.ID> = [],
    updated: Set<Element.ID> = [],
    removed: Set<Element.ID> = []
  ) -> Self {
    let expected = EntityChanges(inserted: inserted, updated: updated, removed: removed)
    return Self(keyPath: table, isTable: true) { changes in
      let actual = changes.changes(in: table)
      guard actual != expected else { return nil }
      return """
        \(table): expected inserted \(sorted(expected.inserted)), updated \
        \(sorted(expected.updated)), removed \(sorted(expected.removed)); \
        got inserted \(sorted(actual.inserted)), updated \(sorted(actual.updated)), \
        removed \(sorted(actual.removed))
        """
    }
  }

  /// Expects the value at `keyPath` (not a table) to have changed.
  ///
  /// - Parameter keyPath: The value's key path.
  /// - Returns: The expectation.
  public static func value(_ keyPath: PartialKeyPath<State>) -> Self {
    Self(keyPath: keyPath, isTable: false) { changes in
      changes.changed(keyPath) ? nil : "\(keyPath) was expected to change but did not"
    }
  }

  private static func sorted<ID>(_ ids: Set<ID>) -> String {
    "[" + ids.map { "\($0)" }.sorted().joined(separator: ", ") + "]"
  }
}

/// Runs actions against a model and fails the test on any change it did not state, in the
/// spirit of The Composable Architecture's `TestStore`.
///
/// ```swift
/// let store = ModelTestStore(initialState: Library())
/// store.send(AddNote(note: note), changes: [.table(\.notes, inserted: [note.id])]) {
///   $0.notes = EntityTable([note])
/// }
/// store.undo(changes: [.table(\.notes, removed: [note.id])]) {
///   $0.notes = EntityTable()
/// }
/// ```
@MainActor
public final class ModelTestStore<State: Equatable> {
  /// The dispatcher the store sends actions through.
  public let dispatcher: ActionDispatcher<State>

  /// Creates a store over a new in-memory model.
  ///
  /// - Parameter initialState: The model's state at revision 0.
  public convenience init(initialState: State) {
    self.init(dispatcher: ActionDispatcher(model: Model(initialState)))
  }

  /// Creates a store over an existing dispatcher.
  ///
  /// - Parameter dispatcher: The dispatcher and model to test.
  public init(dispatcher: ActionDispatcher<State>) {
    self.dispatcher = dispatcher
  }

  /// The model under test.
  public var model: Model<State> { dispatcher.model }

  /// Dispatches `action` and checks that it changed exactly what the test states.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - changes: Every table and value the commit must report, and nothing else.
  ///   - sourceLocation: Where failures are reported.
  ///   - update: Applies the expected modifications to the state from before the action.
  /// - Returns: The outcome.
  @discardableResult
  public func send(
    _ action: some Action<State>,
    changes: [ExpectedChange<State>] = [],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ update: (inout State) -> Void = { _ in }
  ) -> ActionOutcome {
    step(changes: changes, sourceLocation: sourceLocation, update) {
      dispatcher.dispatch(action)
    }
  }

  /// Undoes the last step and checks that it changed exactly what the test states.
  ///
  /// - Parameters:
  ///   - changes: Every table and value the commit must report, and nothing else.
  ///   - sourceLocation: Where failures are reported.
  ///   - update: Applies the expected modifications to the state from before the undo.
  /// - Returns: The outcome.
  @discardableResult
  public func undo(
    changes: [ExpectedChange<State>] = [],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ update: (inout State) -> Void = { _ in }
  ) -> ActionOutcome {
    step(changes: changes, sourceLocation: sourceLocation, update) { dispatcher.undo() }
  }

  /// Redoes the last undone step and checks that it changed exactly what the test states.
  ///
  /// - Parameters:
  ///   - changes: Every table and value the commit must report, and nothing else.
  ///   - sourceLocation: Where failures are reported.
  ///   - update: Applies the expected modifications to the state from before the redo.
  /// - Returns: The outcome.
  @discardableResult
  public func redo(
    changes: [ExpectedChange<State>] = [],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ update: (inout State) -> Void = { _ in }
  ) -> ActionOutcome {
    step(changes: changes, sourceLocation: sourceLocation, update) { dispatcher.redo() }
  }

  private func step(
    changes expected: [ExpectedChange<State>],
    sourceLocation: SourceLocation,
    _ update: (inout State) -> Void,
    perform: () -> ActionOutcome
  ) -> ActionOutcome {
    let before = model.state
    var commits: [Commit<State>] = []
    let observation = model.observeCommits { commits.append($0) }
    let outcome = perform()
    observation.cancel()

    var expectedState = before
    update(&expectedState)
    if expectedState != model.state {
      let diff = LineDiff.describe(expected: expectedState, actual: model.state)
      Issue.record(
        Comment(
          rawValue: "State after the step differs from what the test stated "
            + "(− expected, + actual):\n\(diff)"),
        sourceLocation: sourceLocation)
    }
    checkChanges(expected, commits: commits, outcome: outcome, sourceLocation: sourceLocation)
    return outcome
  }

  private func checkChanges(
    _ expected: [ExpectedChange<State>],
    commits: [Commit<State>],
    outcome: ActionOutcome,
    sourceLocation: SourceLocation
  ) {
    guard let commit = commits.last else {
      if !expected.isEmpty {
        Issue.record(
          "The test stated changes, but the step committed nothing (\(outcome)).",
          sourceLocation: sourceLocation)
      }
      return
    }
    var problems = expected.compactMap { $0.check(commit.changes) }
    let statedTables = Set(expected.filter(\.isTable).map(\.keyPath))
    let statedValues = Set(expected.filter { !$0.isTable }.map(\.keyPath))
    for table in commit.changes.changedTables where !statedTables.contains(table) {
      problems.append("\(table) changed, but the test did not state it")
    }
    for value in commit.changes.changedValues where !statedValues.contains(value) {
      problems.append("\(value) changed, but the test did not state it")
    }
    if !problems.isEmpty {
      let list = problems.sorted().map { "  • " + $0 }.joined(separator: "\n")
      Issue.record(
        Comment(rawValue: "The change set differs from what the test stated:\n\(list)"),
        sourceLocation: sourceLocation)
    }
  }
}
