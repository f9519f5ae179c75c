import Observation

/// A sorted, filtered, selectable list of one entity table, updated row by row from the
/// model's commits.
///
/// A list lens is a View State Controller: it observes a ``Model`` and presents one
/// ``EntityTable`` as rows in a chosen ``ListOrder``, restricted by a ``ListFilter``, with
/// an optional selection. It never changes the model. After each commit it applies only
/// the changed ids and publishes a small ``ListUpdate`` through ``updates``; a table view
/// applies the update and reads rows through ``row(at:)``.
///
/// ```swift
/// let lens = ListLens(
///   model: model, table: \.notes,
///   row: { NoteRow($0) },
///   order: .by(\.isPinned, .descending).then(\.modified, .descending))
/// lens.filter = .search("grocer", in: \.title)   // reloads
/// lens.updates.observe { update in table.apply(update) }.store(in: bag)
/// try model.write { try $0.update(7, in: \.notes) { $0.title = "Groceries" } }
/// // The lens moved row 7 and published one update before `write` returned.
/// ```
///
/// In SwiftUI the lens is `Observable`: a body that reads ``count`` or ``row(at:)`` is
/// re-evaluated after every published update.
///
/// - Complexity: With *n* rows, a commit naming *k* ids costs O(*k* log *n*) comparisons;
///   ``row(at:)`` and ``count`` are O(log *n*) and O(1); ``index(of:)`` is O(log *n*) and
///   ``row(for:)`` O(1), each plus one call of the filter (membership is the filter's
///   answer for the kept row, not a stored index).
///
/// ## Guarantees
///
/// - A lens is a lens: it reads the model (its state at creation or reload, and each
///   commit) and never writes it. It holds only view state: the order, the filter and the
///   selection.
/// - Incremental: a commit that changes k rows of an n-row table costs O(k log n)
///   comparisons plus moves inside bounded chunks of at most 512 rows; rows the commit
///   did not name are never visited, projected, filtered or compared again.
/// - Reload threshold: a commit that names at least 1,024 ids *and* more than an eighth
///   of the table is applied as a reload (the list is rebuilt from the commit's state and
///   a `.reloaded` update is published), because re-sorting is then cheaper than moving
///   each row. Below the threshold, every commit is applied row by row.
/// - Every entity's row is kept, sorted, whether listed or not (while a filter is shown,
///   a commit only notes which kept rows it changed; they are brought up to date when the
///   filter or order next changes, so a commit costs one sorted update), so view state
///   never projects an entity again: changing `filter` checks the kept rows in order (O(n) filter
///   calls, no sort), and changing `order` sorts them and the listed rows (O(n log n), no
///   projection, no filter call). Both
///   publish a `.reloaded` update; `reload()` recomputes everything from the model's
///   current state and publishes one too.
/// - Reuse: rows computed for a filter with a key (``ListFilter/init(key:_:)``) are kept
///   while no commit changes the table and the order stays (the 16 latest lists, holding
///   at most twice the table's rows together); setting a filter with an
///   equal key shows them again without checking any row. A filter marked
///   ``ListFilter/narrowing(_:)`` or ``ListFilter/narrowing(_:reconsidering:)`` with the
///   key of the filter shown is checked only against the listed rows and the rows it
///   names. Either way the list is exactly the
///   rows the filter keeps, as long as the caller's promises about keys hold.
/// - Delivery: the lens observes commits synchronously, so when `Model.write` returns the
///   lens shows the new revision and has published its update. A commit that changes no
///   listed row publishes nothing. Every published update is delivered (no duplicate
///   suppression), then the selection is cleared (and published) if its row left the list.
/// - A commit the lens already shows (a reload during that commit's delivery read the new
///   state) is skipped, so no change is applied twice.
/// - Re-projection: ``reproject(_:)`` projects the named rows again from the model's
///   current state exactly as a commit updating those entities would (same cost, same kind
///   of update), at the revision the lens already shows; nothing else changes.
/// - Lifetime: the lens's commit observation ends when `cancel()` is called or the lens is
///   released; the model does not keep the lens alive.
/// - Revisions: ``revision`` is the revision of the latest published update, so it moves
///   only when the list changed; ``renderedRevision`` is the latest commit the rows
///   reflect, published or not, and is what a ``ConsistencyCheck`` compares.
/// - Observation: reading ``revision``, ``count``, ``rows``, ``row(at:)``, ``index(of:)``
///   or ``row(for:)`` inside `withObservationTracking` (and so inside a SwiftUI body)
///   registers one read; every update the lens publishes (a commit that changed the list,
///   or a reload) fires that tracking's `onChange` before the new rows are visible to
///   observers. A lens whose accessors were never read skips the registrar when it
///   publishes. The selection is a state source, which is `Observable` itself: reading
///   `selection.value` registers that read.
/// - Specialization: the commit path (the initializer, which subscribes it, `apply`, the
///   sorted storage and `ListUpdate.describe`) is inlinable, so the module that creates a
///   lens compiles it for its own types. Reloads and the accessors run generic code, but
///   a reload sorts with the comparison made (specialized) in the initializer.
@MainActor
public final class ListLens<State, Element: Identifiable & Equatable, Row: Identifiable>
where Row.ID == Element.ID, Element.ID: Comparable {
  /// The id of a row, which is the id of the entity it shows.
  public typealias ID = Element.ID

  /// The sort order; setting it reloads the list.
  public var order: ListOrder<Row> {
    didSet { showOrder() }
  }

  /// Which rows are shown; setting it reloads the list (see the reuse rule above).
  public var filter: ListFilter<Row> {
    didSet { showFilter(replacing: oldValue) }
  }

  // The commit path (the designated initializer, which subscribes it, down to the sorted
  // storage) is inlinable, so each client compiles it for its own types; the properties
  // it reads are therefore `@usableFromInline`.
  @usableFromInline let model: Model<State>
  @usableFromInline let table: KeyPath<State, EntityTable<Element>>
  @usableFromInline let project: (Element) -> Row
  @usableFromInline let chunkCapacity: Int
  /// Makes the total order of an order: its keys, then ids.
  ///
  /// Formed in the initializer, so the comparison is compiled for the client's rows even
  /// when `reload()` runs generically.
  @usableFromInline let totalOrder: (ListOrder<Row>) -> (Row, Row) -> Int
  /// Projects every entity and indexes the rows by id.
  ///
  /// Formed in the initializer like `totalOrder`, so a reload compiled for the client's
  /// rows moves them without value-witness copies: run generically, handling 100,000 note
  /// rows copied each row (a retain per string) on every move, several times slower.
  @usableFromInline let buildRows:
    (EntityTable<Element>, (Element) -> Row) -> (rows: [Row], byID: [ID: Row])
  /// Sorts rows by a total order; formed in the initializer like `buildRows`.
  @usableFromInline let sortRows: ([Row], (Row, Row) -> Int, [(Row) -> UInt64]) -> [Row]
  /// The rows of a storage that a filter keeps (all with `nil`), in order; formed in the
  /// initializer like `buildRows`.
  @usableFromInline let selectRows: (SortedRows<Row>, ((Row) -> Bool)?) -> [Row]
  /// The rows of a storage that a filter keeps, as storage; formed in the initializer like
  /// `buildRows`.
  @usableFromInline let filterRows: (SortedRows<Row>, (Row) -> Bool) -> SortedRows<Row>
  /// The kept rows sorted by a new total order; formed in the initializer like `buildRows`.
  @usableFromInline let resortRows:
    (SortedRows<Row>, @escaping (Row, Row) -> Int, [(Row) -> UInt64]) -> SortedRows<Row>
  /// Merges two lists sorted by a total order; formed in the initializer like `buildRows`.
  @usableFromInline let mergeRows: ([Row], [Row], (Row, Row) -> Int) -> [Row]
  /// Every entity's row, listed or not, in order.
  @usableFromInline var universe: SortedRows<Row>
  /// Every entity's row by id.
  @usableFromInline var projected: [ID: Row]
  /// The ids whose row in `universe` is out of date, with that row (`nil`: none), while a
  /// filter is shown; see `syncUniverse`.
  @usableFromInline var staleRows: [ID: Row?] = [:]
  /// The listed rows, or `nil` when the filter is `all` and `universe` is the list.
  @usableFromInline var filtered: SortedRows<Row>?
  /// Rows computed for keyed filters since the table last changed, oldest first.
  var recentLists: [(key: AnyHashable, rows: SortedRows<Row>)] = []
  /// The most lists `recentLists` keeps.
  let recentListLimit = 16
  /// The most rows all of `recentLists` hold together: twice the table's, so memory for
  /// kept lists stays proportional to the table whatever is searched.
  var recentRowLimit: Int { 2 * universe.count + 1_024 }
  /// The revision of the latest published update.
  @usableFromInline var shownRevision: Int
  /// The latest commit the rows reflect, published or not.
  @usableFromInline var appliedRevision: Int
  @usableFromInline var selectedID: ID?
  @usableFromInline var commitLifetime: Lifetime?
  @usableFromInline let output: StateSource<ListUpdate<ID>>
  @usableFromInline let selectionSource: StateSource<ID?>
  let registrar = ObservationRegistrar()
  /// Set once an accessor was read, so updates notify Observation only when somebody may
  /// be tracking.
  var mayBeTracked = false
  let revisionKeyPath: KeyPath<ListLens, Int> = \.revision

  /// Creates a lens over the table at `table`, showing each entity through `row`.
  ///
  /// - Parameters:
  ///   - model: The model to observe; the lens never writes it.
  ///   - table: The key path of the entity table to list.
  ///   - row: Projects an entity to the row the list shows; it must keep the entity's id.
  ///   - order: The initial sort order; the lens breaks ties by id.
  ///   - filter: The initial filter; every row by default.
  @inlinable
  public convenience init(
    model: Model<State>,
    table: KeyPath<State, EntityTable<Element>>,
    row: @escaping (Element) -> Row,
    order: ListOrder<Row>,
    filter: ListFilter<Row> = .all
  ) {
    self.init(
      model: model, table: table, row: row, order: order, filter: filter, chunkCapacity: 512)
  }

  @inlinable
  init(
    model: Model<State>,
    table: KeyPath<State, EntityTable<Element>>,
    row: @escaping (Element) -> Row,
    order: ListOrder<Row>,
    filter: ListFilter<Row>,
    chunkCapacity: Int
  ) {
    self.model = model
    self.table = table
    self.project = row
    self.order = order
    self.filter = filter
    self.chunkCapacity = chunkCapacity
    self.totalOrder = Self.makeTotalOrder
    self.buildRows = Self.makeRows
    self.sortRows = { rows, compare, leadingKeys in
      var rows = rows
      SortedRows<Row>.sort(&rows, by: compare, leadingKeys: leadingKeys)
      return rows
    }
    self.selectRows = Self.select
    self.filterRows = { rows, isIncluded in rows.filtered(isIncluded) }
    self.resortRows = { rows, compare, leadingKeys in
      rows.resorted(by: compare, leadingKeys: leadingKeys)
    }
    self.mergeRows = Self.merge
    self.universe = SortedRows(sorted: [], chunkCapacity: chunkCapacity) { _, _ in 0 }
    self.projected = [:]
    self.filtered = nil
    self.selectionSource = StateSource(nil)
    self.shownRevision = model.revision
    self.appliedRevision = model.revision
    self.output = StateSource(
      ListUpdate(revision: model.revision, kind: .reloaded, count: 0), deliversDuplicates: true)
    rebuild(from: model.state, revision: model.revision)
    output.set(ListUpdate(revision: model.revision, kind: .reloaded, count: listCount))
    commitLifetime = model.observeCommits { [weak self] commit in self?.apply(commit) }
  }

  // MARK: - Reading rows

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
    return selectRows(filtered ?? universe, nil)
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

  // MARK: - Lifetime

  /// Whether the lens still observes the model's commits.
  public var isObserving: Bool { commitLifetime != nil }

  /// Stops observing the model; the rows stay as they are.
  ///
  /// Calling it again does nothing.
  public func cancel() {
    commitLifetime?.cancel()
    commitLifetime = nil
  }

  // MARK: - Updating

  /// Recomputes the whole list from the model's current state and publishes a reload.
  ///
  /// - Complexity: O(*n* log *n*) in the number of entities.
  public func reload() {
    rebuild(from: model.state, revision: model.revision)
    publishReload(revision: shownRevision)
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

  /// Recomputes every row from `state`; publishes nothing.
  @usableFromInline
  func rebuild(from state: State, revision: Int) {
    let compare = totalOrder(order)
    let (unsorted, byID) = buildRows(state[keyPath: table], project)
    let rows = sortRows(unsorted, compare, order.leadingKeys)
    universe = SortedRows(sorted: rows, chunkCapacity: chunkCapacity, compare: compare)
    projected = byID
    staleRows = [:]
    recentLists = []
    filtered = filter.isIncluded.map { filterRows(universe, $0) }
    shownRevision = revision
    appliedRevision = revision
  }

  /// Sorts the kept rows by the new order and lists them again; publishes a reload.
  func showOrder() {
    guard isObserving else { return reload() }
    syncUniverse()
    let compare = totalOrder(order)
    universe = resortRows(universe, compare, order.leadingKeys)
    recentLists = []
    // The listed rows are exactly the filter's (commits keep them so): sorting them gives
    // the new list without asking the filter about every row again, which for an
    // expensive filter (a search with non-ASCII words) was most of a toggle.
    if let listed = filtered { filtered = resortRows(listed, compare, order.leadingKeys) }
    publishReload(revision: appliedRevision)
  }

  /// Lists the rows the new filter keeps, reusing what the reuse rule allows; publishes a
  /// reload.
  func showFilter(replacing old: ListFilter<Row>) {
    guard isObserving else { return reload() }
    syncUniverse()
    if let key = old.key, let rows = filtered {
      recentLists.removeAll { $0.key == key }
      recentLists.append((key, rows))
      var rows = recentLists.reduce(0) { $0 + $1.rows.count }
      while recentLists.count > recentListLimit || rows > recentRowLimit {
        rows -= recentLists.removeFirst().rows.count
      }
    }
    if let key = filter.key, let reused = recentLists.last(where: { $0.key == key }) {
      filtered = reused.rows
    } else if let isIncluded = filter.isIncluded {
      if let narrowed = filter.narrowed, narrowed.key == old.key {
        var rows = filterRows(filtered ?? universe, isIncluded)
        if let reconsidered = narrowed.reconsidered as? [ID] {
          let wasListed = old.isIncluded ?? { _ in true }
          var returning = Set(reconsidered).compactMap { id -> Row? in
            guard let row = projected[id], !wasListed(row), isIncluded(row) else { return nil }
            return row
          }
          if !returning.isEmpty {
            SortedRows.sort(&returning, by: universe.compare)
            rows = list(mergeRows(selectRows(rows, nil), returning, universe.compare))
          }
        }
        filtered = rows
      } else {
        filtered = filterRows(universe, isIncluded)
      }
    } else {
      filtered = nil
    }
    publishReload(revision: appliedRevision)
  }

  /// Storage for rows already sorted in the lens's order.
  private func list(_ rows: [Row]) -> SortedRows<Row> {
    SortedRows(sorted: rows, chunkCapacity: chunkCapacity, compare: universe.compare)
  }

  /// Publishes a reload of the whole list at `revision`.
  @usableFromInline
  func publishReload(revision: Int) {
    shownRevision = revision
    publish(ListUpdate(revision: shownRevision, kind: .reloaded, count: listCount))
  }

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

  @usableFromInline
  func forgetRecentLists() {
    if !recentLists.isEmpty { recentLists = [] }
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

  /// Publishes `update`, then clears the selection if its row left the list.
  @inlinable
  func publish(_ update: ListUpdate<ID>) {
    notifyObservation()
    output.set(update)
    if let selectedID, projected[selectedID].map(isListed) != true { setSelection(nil) }
  }

  @usableFromInline
  func setSelection(_ id: ID?) {
    guard id != selectedID else { return }
    selectedID = id
    selectionSource.set(id)
  }

  /// Whether the storage and the id index agree and hold their invariants; for tests.
  ///
  /// Brings the kept rows up to date first, as the next filter or order change would.
  func storageInvariantsHold() -> Bool {
    syncUniverse()
    let listed = universe.allRows.filter(isListed)
    return universe.checkInvariants() && projected.count == universe.count
      && projected.allSatisfy { universe.index(of: $0.value) != nil }
      && (filtered?.checkInvariants() ?? true)
      && (filtered ?? universe).allRows.map(\.id) == listed.map(\.id)
  }

  /// Every entity's row, in the table's order, and the rows by id.
  @inlinable
  static func makeRows(
    _ elements: EntityTable<Element>, _ project: (Element) -> Row
  ) -> (rows: [Row], byID: [ID: Row]) {
    var rows: [Row] = []
    rows.reserveCapacity(elements.count)
    var byID = [ID: Row](minimumCapacity: elements.count)
    for element in elements.elements {
      let row = project(element)
      rows.append(row)
      byID[row.id] = row
    }
    return (rows, byID)
  }

  /// The rows of `storage` that `isIncluded` keeps (every row with `nil`), in order.
  @inlinable
  static func select(_ storage: SortedRows<Row>, _ isIncluded: ((Row) -> Bool)?) -> [Row] {
    var rows: [Row] = []
    if let isIncluded {
      for chunk in storage.chunks {
        for row in chunk where isIncluded(row) { rows.append(row) }
      }
    } else {
      rows.reserveCapacity(storage.count)
      for chunk in storage.chunks { rows.append(contentsOf: chunk) }
    }
    return rows
  }

  /// Two lists sorted by `compare`, with no row in both, merged in order.
  @inlinable
  static func merge(_ first: [Row], _ second: [Row], _ compare: (Row, Row) -> Int) -> [Row] {
    var merged: [Row] = []
    merged.reserveCapacity(first.count + second.count)
    var (i, j) = (0, 0)
    while i < first.count, j < second.count {
      if compare(first[i], second[j]) < 0 {
        merged.append(first[i])
        i += 1
      } else {
        merged.append(second[j])
        j += 1
      }
    }
    merged.append(contentsOf: first[i...])
    merged.append(contentsOf: second[j...])
    return merged
  }

  /// The lens's order: `order`'s keys, then ids.
  @inlinable
  static func makeTotalOrder(_ order: ListOrder<Row>) -> (Row, Row) -> Int {
    let compare = order.compare
    return { first, second in
      let result = compare(first, second)
      if result != 0 { return result }
      return first.id < second.id ? -1 : (first.id == second.id ? 0 : 1)
    }
  }
}

extension ListLens where Row == Element {
  /// Creates a lens whose rows are the entities themselves.
  ///
  /// - Parameters:
  ///   - model: The model to observe; the lens never writes it.
  ///   - table: The key path of the entity table to list.
  ///   - order: The initial sort order; the lens breaks ties by id.
  ///   - filter: The initial filter; every entity by default.
  @inlinable
  public convenience init(
    model: Model<State>,
    table: KeyPath<State, EntityTable<Element>>,
    order: ListOrder<Element>,
    filter: ListFilter<Element> = .all
  ) {
    self.init(model: model, table: table, row: { $0 }, order: order, filter: filter)
  }
}
