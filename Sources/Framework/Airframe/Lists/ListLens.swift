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
/// try model.write(origin: .user("Rename Note")) {
///   try $0.update(7, in: \.notes) { $0.title = "Groceries" }
/// }
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

  // The stored state. The extensions that use it: ListLens+Reading (the accessors and the
  // selection), ListLens+Commits (applying commits), ListLens+Filtering (a new filter and
  // the recent lists), ListLens+Reloading (a reload or a new order), ListLens+Observable,
  // and ListLens.RowOperations (the whole-list operations).
  //
  // The commit path (the designated initializer, which subscribes it, down to the sorted
  // storage) is inlinable, so each client compiles it for its own types; the properties
  // it reads are therefore `@usableFromInline`.
  @usableFromInline let model: Model<State>
  @usableFromInline let table: KeyPath<State, EntityTable<Element>>
  @usableFromInline let project: (Element) -> Row
  @usableFromInline let chunkCapacity: Int
  /// The whole-list operations (building, sorting, filtering and merging rows), formed in
  /// the initializer so they are compiled for the client's rows; see `RowOperations`.
  @usableFromInline let operations: RowOperations
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
    self.operations = RowOperations()
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

  // MARK: - Testing

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
