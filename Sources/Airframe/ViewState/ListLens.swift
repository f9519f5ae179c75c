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
///   ``row(at:)`` and ``count`` are O(log *n*) and O(1); ``index(of:)`` is O(log *n*).
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
/// - Changing view state (`order`, `filter`) or calling `reload()` recomputes the whole
///   list from the model's current state and publishes a `.reloaded` update.
/// - Delivery: the lens observes commits synchronously, so when `Model.write` returns the
///   lens shows the new revision and has published its update. A commit that changes no
///   listed row publishes nothing. Every published update is delivered (no duplicate
///   suppression), then the selection is cleared (and published) if its row left the list.
/// - A commit the lens already shows (a reload during that commit's delivery read the new
///   state) is skipped, so no change is applied twice.
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
    didSet { reload() }
  }

  /// Which rows are shown; setting it reloads the list.
  public var filter: ListFilter<Row> {
    didSet { reload() }
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
  /// Projects, filters and sorts every entity, and indexes the rows by id.
  ///
  /// Formed in the initializer like `totalOrder`, so a reload compiled for the client's
  /// rows moves and compares them without value-witness copies: run generically, sorting
  /// 100,000 note rows copied each row (a retain per string) on every move, several times
  /// slower.
  @usableFromInline let buildRows:
    (EntityTable<Element>, (Element) -> Row, ((Row) -> Bool)?, (Row, Row) -> Int) -> (
      rows: [Row], byID: [ID: Row]
    )
  @usableFromInline var storage: SortedRows<Row>
  @usableFromInline var rowsByID: [ID: Row]
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
    self.storage = SortedRows(sorted: [], chunkCapacity: chunkCapacity) { _, _ in 0 }
    self.rowsByID = [:]
    self.selectionSource = StateSource(nil)
    self.shownRevision = model.revision
    self.appliedRevision = model.revision
    self.output = StateSource(
      ListUpdate(revision: model.revision, kind: .reloaded, count: 0), deliversDuplicates: true)
    rebuild(from: model.state, revision: model.revision)
    output.set(ListUpdate(revision: model.revision, kind: .reloaded, count: storage.count))
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
    return storage.count
  }

  /// The row at `index`.
  ///
  /// - Parameter index: A position in `0..<count`.
  /// - Returns: The row shown there.
  /// - Complexity: O(log *n*).
  public func row(at index: Int) -> Row {
    trackAccess()
    return storage.row(at: index)
  }

  /// The position of the row with `id`, or `nil` if it is not listed.
  ///
  /// - Parameter id: An entity id.
  /// - Returns: Its index in `0..<count`, or `nil`.
  /// - Complexity: O(log *n*).
  public func index(of id: ID) -> Int? {
    trackAccess()
    guard let row = rowsByID[id] else { return nil }
    return storage.index(of: row)
  }

  /// The listed row with `id`, or `nil` if it is not listed.
  ///
  /// - Parameter id: An entity id.
  /// - Returns: The row, or `nil`.
  /// - Complexity: O(1) on average.
  public func row(for id: ID) -> Row? {
    trackAccess()
    return rowsByID[id]
  }

  /// Every row, in order, as a new array.
  ///
  /// - Complexity: O(*n*); prefer ``row(at:)`` for large lists.
  public var rows: [Row] {
    trackAccess()
    return storage.allRows
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
    if let id, rowsByID[id] == nil { return false }
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
    publish(ListUpdate(revision: shownRevision, kind: .reloaded, count: storage.count))
  }

  /// Recomputes every row from `state`; publishes nothing.
  @usableFromInline
  func rebuild(from state: State, revision: Int) {
    let compare = totalOrder(order)
    let (rows, byID) = buildRows(state[keyPath: table], project, filter.isIncluded, compare)
    storage = SortedRows(sorted: rows, chunkCapacity: chunkCapacity, compare: compare)
    rowsByID = byID
    shownRevision = revision
    appliedRevision = revision
  }

  /// Applies one commit: skips it if already shown, reloads if it names much of the
  /// table, and otherwise updates the changed rows and publishes what moved.
  @inlinable
  func apply(_ commit: Commit<State>) {
    guard commitLifetime != nil, commit.revision > appliedRevision else { return }
    appliedRevision = commit.revision
    let changes = commit.changes.changes(in: table)
    guard !changes.isEmpty else { return }
    let elements = commit.state[keyPath: table]
    let named = changes.inserted.count + changes.updated.count + changes.removed.count
    if named >= 1_024, named > elements.count / 8 {
      rebuild(from: commit.state, revision: commit.revision)
      publish(ListUpdate(revision: commit.revision, kind: .reloaded, count: storage.count))
      return
    }
    var update = applyIncrementally(changes, elements: elements)
    guard update.changedRowCount > 0 else { return }
    update.revision = commit.revision
    shownRevision = commit.revision
    publish(update)
  }

  /// Removes the old rows of the changed ids, inserts their new rows, and describes it.
  @inlinable
  func applyIncrementally(
    _ changes: EntityChanges<ID>, elements: EntityTable<Element>
  ) -> ListUpdate<ID> {
    var leaving: [Row] = []
    var arriving: [Row] = []
    for id in changes.removed {
      if let old = rowsByID.removeValue(forKey: id) { leaving.append(old) }
    }
    let isIncluded = filter.isIncluded
    func take(_ id: ID) {
      if let row = elements[id].map(project), isIncluded?(row) ?? true {
        if let old = rowsByID.updateValue(row, forKey: id) { leaving.append(old) }
        arriving.append(row)
      } else if let old = rowsByID.removeValue(forKey: id) {
        leaving.append(old)
      }
    }
    for id in changes.updated { take(id) }
    for id in changes.inserted { take(id) }
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
    if let selectedID, rowsByID[selectedID] == nil { setSelection(nil) }
  }

  @usableFromInline
  func setSelection(_ id: ID?) {
    guard id != selectedID else { return }
    selectedID = id
    selectionSource.set(id)
  }

  /// Whether the storage and the id index agree and hold their invariants; for tests.
  func storageInvariantsHold() -> Bool {
    storage.checkInvariants() && rowsByID.count == storage.count
      && rowsByID.allSatisfy { storage.index(of: $0.value) != nil }
  }

  /// Every entity's row that `isIncluded` keeps, sorted by `compare`, and the rows by id.
  @inlinable
  static func makeRows(
    _ elements: EntityTable<Element>, _ project: (Element) -> Row, _ isIncluded: ((Row) -> Bool)?,
    _ compare: (Row, Row) -> Int
  ) -> (rows: [Row], byID: [ID: Row]) {
    var rows: [Row] = []
    rows.reserveCapacity(elements.count)
    if let isIncluded {
      for element in elements.elements {
        let row = project(element)
        if isIncluded(row) { rows.append(row) }
      }
    } else {
      for element in elements.elements { rows.append(project(element)) }
    }
    SortedRows<Row>.sort(&rows, by: compare)
    var byID = [ID: Row](minimumCapacity: rows.count)
    for row in rows { byID[row.id] = row }
    return (rows, byID)
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
