// ListLens: applying the model's commits row by row (the Incremental, Reload threshold,
// Delivery and Re-projection guarantees in ListLens's documentation).

extension ListLens {
  /// Applies one commit: skips it if already shown, reloads if it names much of the
  /// table, and otherwise updates the changed rows and publishes what moved.
  @inlinable
  func apply(_ commit: Commit<State>) {
    guard commitLifetime != nil, commit.revision > appliedRevision else { return }
    appliedRevision = commit.revision
    let changes = commit.changes.changes(in: table)
    guard !changes.isEmpty else { return }
    forgetRecentLists()
    let elements = commit.state[keyPath: table]
    let named = changes.inserted.count + changes.updated.count + changes.removed.count
    if named >= 1_024, named > elements.count / 8 {
      rebuild(from: commit.state, revision: commit.revision)
      publishReload(revision: commit.revision)
      return
    }
    var update = applyIncrementally(changes, elements: elements)
    guard update.changedRowCount > 0 else { return }
    update.revision = commit.revision
    shownRevision = commit.revision
    publish(update)
  }

  /// Replaces the kept rows of the changed ids, updates the list, and describes the list's
  /// change.
  @inlinable
  func applyIncrementally(
    _ changes: EntityChanges<ID>, elements: EntityTable<Element>
  ) -> ListUpdate<ID> {
    var leaving: [Row] = []
    var arriving: [Row] = []
    // With a filter the kept rows are brought up to date only when they are next needed
    // (`syncUniverse`): a commit records which of them are stale, and updates the list.
    let defersUniverse = filtered != nil
    func note(_ id: ID, old: Row?) {
      if defersUniverse, staleRows.index(forKey: id) == nil { staleRows[id] = .some(old) }
    }
    for id in changes.removed {
      if let old = projected.removeValue(forKey: id) {
        note(id, old: old)
        leaving.append(old)
      }
    }
    func take(_ id: ID) {
      if let row = elements[id].map(project) {
        let old = projected.updateValue(row, forKey: id)
        note(id, old: old)
        if let old { leaving.append(old) }
        arriving.append(row)
      } else if let old = projected.removeValue(forKey: id) {
        note(id, old: old)
        leaving.append(old)
      }
    }
    for id in changes.updated { take(id) }
    for id in changes.inserted { take(id) }
    guard let isIncluded = filter.isIncluded, defersUniverse else {
      return Self.move(leaving: leaving, arriving: arriving, in: &universe)
    }
    return Self.move(
      leaving: leaving.filter(isIncluded), arriving: arriving.filter(isIncluded),
      in: &filtered!)
  }

  /// Applies the changes commits made to the kept rows while a filter was shown: each
  /// stale id's old row leaves, its current row (if any) arrives.
  func syncUniverse() {
    guard !staleRows.isEmpty else { return }
    var leaving: [Row] = []
    var arriving: [Row] = []
    for (id, old) in staleRows {
      if let old { leaving.append(old) }
      if let row = projected[id] { arriving.append(row) }
    }
    staleRows = [:]
    _ = Self.move(leaving: leaving, arriving: arriving, in: &universe)
  }

  /// Removes `leaving` from `storage`, inserts `arriving`, and describes it.
  @inlinable
  static func move(
    leaving: [Row], arriving: [Row], in storage: inout SortedRows<Row>
  ) -> ListUpdate<ID> {
    var leaving = leaving
    var arriving = arriving
    var update = ListUpdate<ID>(revision: 0, kind: .changed, count: storage.count)
    // One row changed without moving (its keys are tied with its old ones): overwrite it
    // in place, which is what removing and re-inserting it would describe.
    if leaving.count == 1, arriving.count == 1, storage.compare(leaving[0], arriving[0]) == 0,
      let index = storage.replace(leaving[0], with: arriving[0])
    {
      update.updated = [ListRowChange(id: arriving[0].id, from: index, to: index)]
      return update
    }
    // Removing in descending order keeps each returned index an old index; inserting in
    // ascending order keeps each returned index a final index.
    if leaving.count > 1 { SortedRows.sort(&leaving, by: storage.compare, descending: true) }
    if arriving.count > 1 { SortedRows.sort(&arriving, by: storage.compare) }
    var departed: [ListRowChange<ID>] = []
    departed.reserveCapacity(leaving.count)
    for row in leaving {
      departed.append(ListRowChange(id: row.id, from: storage.remove(row), to: nil))
    }
    var landed: [ListRowChange<ID>] = []
    landed.reserveCapacity(arriving.count)
    for row in arriving {
      landed.append(ListRowChange(id: row.id, from: nil, to: storage.insert(row)))
    }
    update.count = storage.count
    departed.reverse()
    update.describe(departed: departed, landed: landed)
    return update
  }

  /// Projects the rows of `ids` again from the model's current state, as a commit that
  /// updated those entities would, and publishes what changed.
  ///
  /// Use it when a row depends on more than its entity and that changed, or to give rows
  /// fresh storage (the note list moves rows out of sparsely used text storage this way).
  /// Ids of entities the table does not hold leave the list as a removal would. The update
  /// carries the revision the rows already reflect; an id that changes nothing listed
  /// publishes nothing.
  ///
  /// - Parameter ids: Entity ids.
  /// - Complexity: O(*k* log *n*) for *k* ids, as a commit naming them.
  public func reproject(_ ids: some Sequence<ID>) {
    guard isObserving else { return }
    let changes = EntityChanges(updated: Set(ids))
    guard !changes.isEmpty else { return }
    forgetRecentLists()
    var update = applyIncrementally(changes, elements: model.state[keyPath: table])
    guard update.changedRowCount > 0 else { return }
    update.revision = appliedRevision
    shownRevision = appliedRevision
    publish(update)
  }

  /// Publishes `update`, then clears the selection if its row left the list.
  @inlinable
  func publish(_ update: ListUpdate<ID>) {
    notifyObservation()
    output.set(update)
    if let selectedID, projected[selectedID].map(isListed) != true { setSelection(nil) }
  }
}
