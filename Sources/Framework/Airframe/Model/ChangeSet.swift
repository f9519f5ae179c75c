/// The ids of one entity kind that a commit inserted, updated and removed.
///
/// The three sets are disjoint and describe the net effect of the whole write: an entity
/// inserted and then updated in one write is only inserted; inserted and then removed, it
/// does not appear at all; updated and then removed, it is only removed.
public struct EntityChanges<ID: Hashable>: Equatable {
  /// Ids of entities that did not exist before the write.
  public internal(set) var inserted: Set<ID> = []
  /// Ids of entities that existed before and after the write and changed.
  public internal(set) var updated: Set<ID> = []
  /// Ids of entities that existed before the write and no longer do.
  public internal(set) var removed: Set<ID> = []

  /// Creates a description of changes.
  ///
  /// - Parameters:
  ///   - inserted: Ids of inserted entities.
  ///   - updated: Ids of updated entities.
  ///   - removed: Ids of removed entities.
  public init(inserted: Set<ID> = [], updated: Set<ID> = [], removed: Set<ID> = []) {
    self.inserted = inserted
    self.updated = updated
    self.removed = removed
  }

  /// Whether nothing changed.
  public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && removed.isEmpty }

  mutating func recordInsert(_ id: ID) {
    if removed.remove(id) != nil {
      updated.insert(id)
    } else {
      inserted.insert(id)
    }
  }

  mutating func recordUpdate(_ id: ID) {
    if !inserted.contains(id) { updated.insert(id) }
  }

  mutating func recordRemove(_ id: ID) {
    if inserted.remove(id) == nil {
      updated.remove(id)
      removed.insert(id)
    }
  }
}

extension EntityChanges: Sendable where ID: Sendable {}

/// Counts of a table's changes whose id type is not known statically.
protocol EntityChangeCounts {
  var counts: (inserted: Int, updated: Int, removed: Int) { get }
  var isEmpty: Bool { get }
  var insertedIDs: Set<AnyHashable> { get }
  /// Every id inserted, updated or removed.
  var touchedIDs: Set<AnyHashable> { get }
  /// Whether `id` is among the inserted ids.
  func isInserted(_ id: AnyHashable) -> Bool
}

/// One table's changes in a change set, grown in place by the transaction.
final class TableChanges<ID: Hashable>: EntityChangeCounts {
  var changes = EntityChanges<ID>()
  var counts: (inserted: Int, updated: Int, removed: Int) {
    (changes.inserted.count, changes.updated.count, changes.removed.count)
  }
  var isEmpty: Bool { changes.isEmpty }
  var insertedIDs: Set<AnyHashable> { Self.erase(changes.inserted) }
  func isInserted(_ id: AnyHashable) -> Bool {
    (id.base as? ID).map { changes.inserted.contains($0) } ?? false
  }
  var touchedIDs: Set<AnyHashable> {
    Self.erase(changes.inserted.union(changes.updated).union(changes.removed))
  }

  private static func erase(_ ids: Set<ID>) -> Set<AnyHashable> {
    var erased = Set<AnyHashable>(minimumCapacity: ids.count)
    for id in ids { erased.insert(AnyHashable(id)) }
    return erased
  }
}

/// What one commit changed: entity ids per table, and which other values changed.
///
/// Read the changes of one table with ``changes(in:)``:
///
/// ```swift
/// model.observeCommits { commit in
///   let notes = commit.changes.changes(in: \.notes)
///   for id in notes.updated { refreshRow(id) }
/// }
/// ```
public struct ChangeSet<State> {
  /// The changes of each table, boxed so a write can grow them in place.
  ///
  /// A value stored as `Any` would be copied, whole, on every change. Only a transaction
  /// mutates the boxes, before its commit is posted; a posted change set is never mutated.
  private var tables: [AnyKeyPath: AnyObject] = [:]
  private var values: Set<AnyKeyPath> = []
  /// Per changed table or value: reads, from a state, what is there now at each key this
  /// change set names (for undo's compare-and-set).
  private var snapshotters:
    [AnyKeyPath: (State) -> [StepSnapshot<State>.Key: StepSnapshot<State>.Expectation]] = [:]

  init() {}

  /// The changes made to the table at `table`.
  ///
  /// - Parameter table: The key path of an ``EntityTable`` in the state.
  /// - Returns: The table's changes; empty if the commit did not touch it.
  public func changes<Element>(
    in table: KeyPath<State, EntityTable<Element>>
  ) -> EntityChanges<Element.ID> {
    (tables[table] as? TableChanges<Element.ID>)?.changes ?? EntityChanges()
  }

  /// Whether the value at `keyPath` (not an entity table) was changed.
  ///
  /// - Parameter keyPath: A key path set through ``Transaction/set(_:to:)``.
  /// - Returns: `true` if the commit set it to a different value.
  public func changed(_ keyPath: PartialKeyPath<State>) -> Bool { values.contains(keyPath) }

  /// Whether the commit changed nothing.
  public var isEmpty: Bool {
    values.isEmpty && tables.values.allSatisfy { ($0 as? any EntityChangeCounts)?.isEmpty ?? true }
  }

  /// The key paths of the tables this commit changed.
  public var changedTables: [AnyKeyPath] {
    tables.compactMap { key, box in
      (box as? any EntityChangeCounts)?.isEmpty == false ? key : nil
    }
  }

  /// Whether the change set names `id` as inserted into the table at `table`.
  func isInserted(_ id: AnyHashable, in table: AnyKeyPath) -> Bool {
    (tables[table] as? any EntityChangeCounts)?.isInserted(id) ?? false
  }

  /// The inserted ids of every table that has any.
  var insertedIDs: [AnyKeyPath: Set<AnyHashable>] {
    tables.compactMapValues { box in
      let ids = (box as? any EntityChangeCounts)?.insertedIDs ?? []
      return ids.isEmpty ? nil : ids
    }
  }

  /// The key paths of the values (not tables) this commit changed.
  public var changedValues: [AnyKeyPath] { Array(values) }

  mutating func modify<Element>(
    _ table: KeyPath<State, EntityTable<Element>>,
    _ change: (inout EntityChanges<Element.ID>) -> Void
  ) {
    if let box = tables[table] as? TableChanges<Element.ID> {
      change(&box.changes)
    } else {
      let box = TableChanges<Element.ID>()
      change(&box.changes)
      tables[table] = box
      snapshotters[table] = { state in
        var expectations: [StepSnapshot<State>.Key: StepSnapshot<State>.Expectation] = [:]
        let changes = box.changes
        for id in changes.inserted.union(changes.updated).union(changes.removed) {
          let row = state[keyPath: table][id]
          expectations[StepSnapshot.Key(path: table, id: id)] = { $0[keyPath: table][id] == row }
        }
        return expectations
      }
    }
  }

  /// What `state` holds at every row and value this change set names.
  func snapshot(of state: State) -> StepSnapshot<State> {
    var expectations: [StepSnapshot<State>.Key: StepSnapshot<State>.Expectation] = [:]
    for snapshotter in snapshotters.values {
      // The first table's expectations become the dictionary itself (a bulk import's
      // 100,000 rows are not copied into an empty one).
      if expectations.isEmpty {
        expectations = snapshotter(state)
      } else {
        expectations.merge(snapshotter(state)) { _, newer in newer }
      }
    }
    return StepSnapshot(expectations)
  }

  /// Every row and value this change set names.
  var touchedKeys: Set<StepSnapshot<State>.Key> {
    var keys = Set(values.map { StepSnapshot<State>.Key(path: $0, id: nil) })
    for (table, box) in tables {
      for id in (box as? any EntityChangeCounts)?.touchedIDs ?? [] {
        keys.insert(StepSnapshot.Key(path: table, id: id))
      }
    }
    return keys
  }

  /// A short description such as `notes +1 ~0 -0, syncStatus`, sorted by name.
  var summary: String {
    let tableParts = tables.compactMap { keyPath, box -> String? in
      guard let box = box as? any EntityChangeCounts, !box.isEmpty else { return nil }
      let counts = box.counts
      return "\(Self.name(of: keyPath)) +\(counts.inserted) ~\(counts.updated) -\(counts.removed)"
    }
    let valueParts = values.map { Self.name(of: $0) }
    return (tableParts.sorted() + valueParts.sorted()).joined(separator: ", ")
  }

  /// The last component of a key path's description, such as `notes` for `\Library.notes`.
  static func name(of keyPath: AnyKeyPath) -> String {
    "\(keyPath)".split(separator: ".").last.map(String.init) ?? "\(keyPath)"
  }

  mutating func recordValue<Value: Equatable>(_ keyPath: KeyPath<State, Value>) {
    values.insert(keyPath)
    snapshotters[keyPath] = { state in
      let value = state[keyPath: keyPath]
      return [StepSnapshot.Key(path: keyPath, id: nil): { $0[keyPath: keyPath] == value }]
    }
  }
}
