/// What one undo or redo step left in the rows and values it changed, to compare with the
/// model before the step is reverted.
///
/// The dispatcher takes one after each recorded step. Before an undo writes, it finds
/// every row or value that is no longer what the step left; if the undo's own writes touch
/// one of them, the undo is refused, so it never overwrites a change made since (by a
/// background task, another process or a sync server). Rows compare whole: a change to any
/// field of a row counts.
struct StepSnapshot<State> {
  /// A row (a table's key path and an id) or a value (its key path, no id).
  struct Key: Hashable {
    let path: AnyKeyPath
    let id: AnyHashable?
  }

  /// Whether a state still holds what the step left at one key.
  typealias Expectation = (State) -> Bool

  private(set) var expectations: [Key: Expectation] = [:]

  init() {}

  init(_ expectations: [Key: Expectation]) { self.expectations = expectations }

  /// Adds a later step's expectations; where both name a key, the later one wins.
  mutating func merge(_ later: StepSnapshot) {
    expectations.merge(later.expectations) { _, newer in newer }
  }

  /// The keys whose value in `state` is no longer what the step left.
  func changedKeys(in state: State) -> Set<Key> {
    Set(expectations.lazy.filter { !$0.value(state) }.map(\.key))
  }

  /// A key's name for a message, such as `notes 3` or `syncStatus`; made only when needed,
  /// since describing a key path is slow.
  static func label(of key: Key) -> String {
    let name = ChangeSet<State>.name(of: key.path)
    return key.id.map { "\(name) \($0.base)" } ?? name
  }
}
