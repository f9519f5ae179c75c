/// The changes of one write, made to a copy of the state and committed all at once.
///
/// ```swift
/// try model.write(origin: .background("import")) { transaction in
///   try transaction.insert(note, into: \.notes)
///   try transaction.update(note.notebookID, in: \.notebooks) { $0.noteCount += 1 }
/// }
/// ```
///
/// ## Guarantees
///
/// - Every change goes through a method that records it in the commit's change set, so the
///   change set always describes exactly what the write changed.
/// - An update that leaves an entity equal to its old value records nothing.
/// - A method that fails (duplicate or missing id) throws and changes nothing; if the
///   write's body lets the error escape, the whole write is discarded.
/// - Changes are made in place on the model's state (no copy of its tables); each one also
///   records how to revert it, and a discarded write is reverted from that log, newest
///   first, so the state ends exactly as it was.
public struct Transaction<State> {
  let storage: TransactionStorage<State>

  init(storage: TransactionStorage<State>) {
    self.storage = storage
  }

  /// The state as the write has changed it so far.
  public var state: State { storage.state }

  /// What the write has changed so far.
  public var changes: ChangeSet<State> { storage.changes }

  /// Adds `element` to the table at `table`.
  ///
  /// - Parameters:
  ///   - element: A new entity.
  ///   - table: The table's key path in the state.
  /// - Throws: ``ModelError/duplicateID(table:id:)`` if the id exists.
  public mutating func insert<Element>(
    _ element: Element,
    into table: WritableKeyPath<State, EntityTable<Element>>
  ) throws(ModelError) {
    guard !storage.state[keyPath: table].contains(element.id) else {
      throw .duplicateID(table: Self.name(of: table), id: "\(element.id)")
    }
    storage.state[keyPath: table].store(element)
    storage.changes.modify(table) { $0.recordInsert(element.id) }
    let id = element.id
    storage.insertions.append((table, AnyHashable(id)))
    storage.undoLog.append { _ = $0[keyPath: table].removeValue(for: id) }
  }

  /// Changes the entity with `id` in place.
  ///
  /// - Parameters:
  ///   - id: The entity's id.
  ///   - table: The table's key path in the state.
  ///   - change: Modifies the entity; it must keep the id.
  /// - Throws: ``ModelError/missingID(table:id:)`` if no entity has `id`.
  public mutating func update<Element>(
    _ id: Element.ID,
    in table: WritableKeyPath<State, EntityTable<Element>>,
    _ change: (inout Element) -> Void
  ) throws(ModelError) {
    guard let old = storage.state[keyPath: table][id] else {
      throw .missingID(table: Self.name(of: table), id: "\(id)")
    }
    var new = old
    change(&new)
    precondition(new.id == id, "An update must not change an entity's id")
    guard new != old else { return }
    storage.state[keyPath: table].store(new)
    storage.changes.modify(table) { $0.recordUpdate(id) }
    storage.undoLog.append { $0[keyPath: table].store(old) }
  }

  /// Removes the entity with `id`.
  ///
  /// - Parameters:
  ///   - id: The entity's id.
  ///   - table: The table's key path in the state.
  /// - Returns: The removed entity.
  /// - Throws: ``ModelError/missingID(table:id:)`` if no entity has `id`.
  @discardableResult
  public mutating func remove<Element>(
    _ id: Element.ID,
    from table: WritableKeyPath<State, EntityTable<Element>>
  ) throws(ModelError) -> Element {
    guard let removed = storage.state[keyPath: table].removeValue(for: id) else {
      throw .missingID(table: Self.name(of: table), id: "\(id)")
    }
    storage.changes.modify(table) { $0.recordRemove(id) }
    storage.undoLog.append { $0[keyPath: table].store(removed) }
    return removed
  }

  /// Sets a value, such as a sync status.
  ///
  /// Setting a whole ``EntityTable`` replaces its rows one by one, so the change set lists
  /// every row inserted, updated and removed (and no value change): a list lens showing
  /// the table sees each row. That costs O(*n*) in the rows of both tables; prefer
  /// ``insert(_:into:)``, ``update(_:in:_:)`` and ``remove(_:from:)`` for a few rows.
  ///
  /// A value that *contains* an entity table at any depth (a struct holding a table, an
  /// optional or enum case carrying one, the whole state through `\.self`) cannot be set:
  /// its rows would change without the change set naming them, so list lenses and
  /// storage that persists rows would silently keep the old ones. Such a set changes
  /// nothing and makes the whole write fail with ``ModelError/tableInsideValue(path:)``
  /// when its body returns; set each table, or change its rows, instead. Checking a value
  /// costs O(its size, not counting tables); plain scalars (numbers, strings, dates) are
  /// not walked at all.
  ///
  /// - Parameters:
  ///   - keyPath: The value's key path in the state.
  ///   - value: The new value; an equal value records nothing.
  public mutating func set<Value: Equatable>(
    _ keyPath: WritableKeyPath<State, Value>, to value: Value
  ) {
    if let table = value as? any RowReplacing {
      table.replaceRows(at: keyPath, in: &self)
      return
    }
    let old = storage.state[keyPath: keyPath]
    guard old != value else { return }
    guard !TableSearch.finds(in: value), !TableSearch.finds(in: old) else {
      if storage.refusal == nil {
        storage.refusal = .tableInsideValue(path: Self.name(of: keyPath))
      }
      return
    }
    storage.state[keyPath: keyPath] = value
    storage.changes.recordValue(keyPath)
    storage.undoLog.append { $0[keyPath: keyPath] = old }
  }

  private static func name(of table: AnyKeyPath) -> String {
    ChangeSet<State>.name(of: table)
  }
}

/// A table that ``Transaction/set(_:to:)`` replaces row by row.
protocol RowReplacing {
  /// Makes the table at `keyPath` equal to `self` through row inserts, updates and removals.
  func replaceRows<State>(at keyPath: AnyKeyPath, in transaction: inout Transaction<State>)
}

extension EntityTable: RowReplacing {
  func replaceRows<State>(at keyPath: AnyKeyPath, in transaction: inout Transaction<State>) {
    guard let table = keyPath as? WritableKeyPath<State, EntityTable<Element>> else { return }
    let old = transaction.state[keyPath: table]
    // Each call below names a row known to be present (or absent), so none can throw.
    for id in old.byID.keys where byID[id] == nil {
      _ = try? transaction.remove(id, from: table)
    }
    for (id, element) in byID {
      if old.contains(id) {
        try? transaction.update(id, in: table) { $0 = element }
      } else {
        try? transaction.insert(element, into: table)
      }
    }
  }
}

/// The state a write is changing in place, its change set, and how to revert it.
final class TransactionStorage<State> {
  var state: State
  var changes = ChangeSet<State>()
  /// How to revert each change, oldest first.
  var undoLog: [(inout State) -> Void] = []
  /// Every insert, oldest first, so ``Transaction/creating(_:)`` can name what one part of
  /// a write inserted without reading the whole change set.
  var insertions: [(table: AnyKeyPath, id: AnyHashable)] = []
  /// Why the write must fail even if its body returns: a set the transaction refused.
  var refusal: ModelError?

  init(state: State) { self.state = state }

  /// Reverts every change, newest first; afterwards `state` equals the state before.
  func rollBack() {
    for revert in undoLog.reversed() { revert(&state) }
    undoLog.removeAll()
  }
}
