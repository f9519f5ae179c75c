// ListLens: reading the listed rows and the selection (the accessors behind the lens's
// complexity and Observation guarantees).

extension ListLens {
  /// The model revision of the latest published update.
  ///
  /// A commit that changes no listed row leaves it (and the rows) as they are.
  public var revision: Int {
    trackAccess()
    return shownRevision
  }

  /// The number of rows.
  public var count: Int {
    trackAccess()
    return listCount
  }

  /// The number of listed rows, without tracking.
  @usableFromInline var listCount: Int { filtered?.count ?? universe.count }

  /// Whether the filter shown keeps `row`.
  @inlinable func isListed(_ row: Row) -> Bool { filter.isIncluded?(row) ?? true }

  /// The row at `index`.
  ///
  /// - Parameter index: A position in `0..<count`.
  /// - Returns: The row shown there.
  /// - Complexity: O(log *n*).
  public func row(at index: Int) -> Row {
    trackAccess()
    if let filtered { return filtered.row(at: index) }
    return universe.row(at: index)
  }

  /// The position of the row with `id`, or `nil` if it is not listed.
  ///
  /// - Parameter id: An entity id.
  /// - Returns: Its index in `0..<count`, or `nil`.
  /// - Complexity: O(log *n*), plus one call of the filter.
  public func index(of id: ID) -> Int? {
    trackAccess()
    guard let row = projected[id], isListed(row) else { return nil }
    if let filtered { return filtered.index(of: row) }
    return universe.index(of: row)
  }

  /// The listed row with `id`, or `nil` if it is not listed.
  ///
  /// - Parameter id: An entity id.
  /// - Returns: The row, or `nil`.
  /// - Complexity: O(1) on average, plus one call of the filter.
  public func row(for id: ID) -> Row? {
    trackAccess()
    guard let row = projected[id], isListed(row) else { return nil }
    return row
  }

  /// Every row, in order, as a new array.
  ///
  /// - Complexity: O(*n*); prefer ``row(at:)`` for large lists.
  public var rows: [Row] {
    trackAccess()
    return operations.selectRows(filtered ?? universe, nil)
  }

  /// The latest update, replayed to each new observer and then published after every
  /// commit that changes the list and every reload.
  public var updates: some StateProjection<ListUpdate<ID>> { output }

  // MARK: - Selection

  /// The selected row's id, or `nil`; published whenever it changes.
  public var selection: some StateProjection<ID?> { selectionSource }

  /// Selects the listed row with `id`, or clears the selection with `nil`.
  ///
  /// - Parameter id: A listed row's id, or `nil`.
  /// - Returns: `false`, leaving the selection unchanged, if no listed row has `id`.
  @discardableResult
  public func select(_ id: ID?) -> Bool {
    if let id, projected[id].map(isListed) != true { return false }
    setSelection(id)
    return true
  }

  @usableFromInline
  func setSelection(_ id: ID?) {
    guard id != selectedID else { return }
    selectedID = id
    selectionSource.set(id)
  }
}
