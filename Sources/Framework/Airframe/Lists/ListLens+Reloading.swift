// ListLens: recomputing the whole list — a reload from the model, and a new order over the
// kept rows.

extension ListLens {
  /// Recomputes the whole list from the model's current state and publishes a reload.
  ///
  /// - Complexity: O(*n* log *n*) in the number of entities.
  public func reload() {
    rebuild(from: model.state, revision: model.revision)
    publishReload(revision: shownRevision)
  }

  /// Recomputes every row from `state`; publishes nothing.
  @usableFromInline
  func rebuild(from state: State, revision: Int) {
    let compare = operations.totalOrder(order)
    let (unsorted, byID) = operations.buildRows(state[keyPath: table], project)
    let rows = operations.sortRows(unsorted, compare, order.leadingKeys)
    universe = SortedRows(sorted: rows, chunkCapacity: chunkCapacity, compare: compare)
    projected = byID
    staleRows = [:]
    recentLists = []
    filtered = filter.isIncluded.map { operations.filterRows(universe, $0) }
    shownRevision = revision
    appliedRevision = revision
  }

  /// Sorts the kept rows by the new order and lists them again; publishes a reload.
  func showOrder() {
    guard isObserving else { return reload() }
    syncUniverse()
    let compare = operations.totalOrder(order)
    universe = operations.resortRows(universe, compare, order.leadingKeys)
    recentLists = []
    // The listed rows are exactly the filter's (commits keep them so): sorting them gives
    // the new list without asking the filter about every row again, which matters for an
    // expensive filter (a search with non-ASCII words).
    if let listed = filtered {
      filtered = operations.resortRows(listed, compare, order.leadingKeys)
    }
    publishReload(revision: appliedRevision)
  }

  /// Publishes a reload of the whole list at `revision`.
  @usableFromInline
  func publishReload(revision: Int) {
    shownRevision = revision
    publish(ListUpdate(revision: shownRevision, kind: .reloaded, count: listCount))
  }
}
