// ListLens: showing a new filter, reusing the rows of recent keyed filters and narrowing the
// rows shown (the Reuse guarantee in ListLens's documentation).

extension ListLens {
  /// Lists the rows the new filter keeps, reusing what the reuse rule allows; publishes a
  /// reload.
  func showFilter(replacing old: ListFilter<Row>) {
    guard isObserving else { return reload() }
    syncUniverse()
    if let key = old.key, let rows = filtered { rememberList(rows, for: key) }
    if let key = filter.key, let reused = recentLists.last(where: { $0.key == key }) {
      filtered = reused.rows
    } else if let isIncluded = filter.isIncluded {
      if let narrowed = filter.narrowed, narrowed.key == old.key {
        var rows = operations.filterRows(filtered ?? universe, isIncluded)
        if let reconsidered = narrowed.reconsidered as? [ID] {
          let wasListed = old.isIncluded ?? { _ in true }
          var returning = Set(reconsidered).compactMap { id -> Row? in
            guard let row = projected[id], !wasListed(row), isIncluded(row) else { return nil }
            return row
          }
          if !returning.isEmpty {
            SortedRows.sort(&returning, by: universe.compare)
            rows = list(
              operations.mergeRows(operations.selectRows(rows, nil), returning, universe.compare))
          }
        }
        filtered = rows
      } else {
        filtered = operations.filterRows(universe, isIncluded)
      }
    } else {
      filtered = nil
    }
    publishReload(revision: appliedRevision)
  }

  /// Keeps `rows`, listed for a filter with `key`, as the newest recent list, dropping the
  /// oldest ones beyond `recentListLimit` lists or `recentRowLimit` rows together.
  private func rememberList(_ rows: SortedRows<Row>, for key: AnyHashable) {
    recentLists.removeAll { $0.key == key }
    recentLists.append((key, rows))
    var rows = recentLists.reduce(0) { $0 + $1.rows.count }
    while recentLists.count > recentListLimit || rows > recentRowLimit {
      rows -= recentLists.removeFirst().rows.count
    }
  }

  /// The most rows all of `recentLists` hold together: twice the table's, so memory for
  /// kept lists stays proportional to the table whatever is searched.
  var recentRowLimit: Int { 2 * universe.count + 1_024 }

  /// Storage for rows already sorted in the lens's order.
  private func list(_ rows: [Row]) -> SortedRows<Row> {
    SortedRows(sorted: rows, chunkCapacity: chunkCapacity, compare: universe.compare)
  }

  /// Drops the recent lists: a commit or a re-projection changed the table, so their rows
  /// may no longer be the filters'.
  @usableFromInline
  func forgetRecentLists() {
    if !recentLists.isEmpty { recentLists = [] }
  }
}
