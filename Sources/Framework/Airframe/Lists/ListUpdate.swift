/// One row of a ``ListUpdate``: its id and its position before and after the update.
public struct ListRowChange<ID: Hashable>: Hashable {
  /// The row's id.
  public var id: ID
  /// The row's index before the update; `nil` for an inserted row.
  public var from: Int?
  /// The row's index after the update; `nil` for a removed row.
  public var to: Int?

  /// Creates a row change.
  ///
  /// - Parameters:
  ///   - id: The row's id.
  ///   - from: Its index before the update, if it was listed.
  ///   - to: Its index after the update, if it is listed.
  @inlinable
  public init(id: ID, from: Int?, to: Int?) {
    self.id = id
    self.from = from
    self.to = to
  }
}

extension ListRowChange: Sendable where ID: Sendable {}

/// What the latest update of a ``ListLens`` changed, for a table view to apply.
///
/// ```swift
/// lens.updates.observe { update in
///   switch update.kind {
///   case .reloaded: tableView.reloadData()
///   case .changed:
///     tableView.performBatchUpdates {
///       tableView.deleteRows(at: update.removed.map { path($0.from!) })
///       tableView.insertRows(at: update.inserted.map { path($0.to!) })
///       for move in update.moved { tableView.moveRow(at: path(move.from!), to: path(move.to!)) }
///       tableView.reloadRows(at: update.updated.map { path($0.from!) })
///     }
///   }
/// }.store(in: bag)
/// ```
///
/// ## Guarantees
///
/// - An update never carries the rows themselves: its size is proportional to the number
///   of rows that changed, not to the length of the list.
/// - Old indices (`removed`, and the `from` of `moved` and `updated`) are positions in the
///   list before the update; new indices (`inserted`, and the `to` of `moved` and
///   `updated`) are positions after it. Deleting the removed and moved rows at their old
///   indices, then inserting the inserted and moved rows at their new indices (in
///   ascending order), turns the old list into the new one; the updated rows keep their
///   place relative to every row that stays.
/// - A `.reloaded` update lists no rows: read the whole list again.
public struct ListUpdate<ID: Hashable>: Hashable {
  /// Whether the update lists its changed rows or replaces the whole list.
  public enum Kind: Hashable, Sendable {
    /// The list was recomputed (first render, view-state change, or a very large commit).
    case reloaded
    /// Only the rows named in the update changed.
    case changed
  }

  /// The model revision the list shows after this update.
  public var revision: Int
  /// Whether the rows are listed or the list was reloaded.
  public var kind: Kind
  /// The number of rows after the update.
  public var count: Int
  /// Rows no longer listed, by ascending old index.
  public var removed: [ListRowChange<ID>] = []
  /// Rows newly listed, by ascending new index.
  public var inserted: [ListRowChange<ID>] = []
  /// Rows still listed whose position among the staying rows changed, by ascending new index.
  public var moved: [ListRowChange<ID>] = []
  /// Rows still listed, changed in place, by ascending new index.
  public var updated: [ListRowChange<ID>] = []

  /// Creates an update.
  ///
  /// - Parameters:
  ///   - revision: The model revision shown.
  ///   - kind: Listed changes or a reload.
  ///   - count: The number of rows after the update.
  @inlinable
  public init(revision: Int, kind: Kind, count: Int) {
    self.revision = revision
    self.kind = kind
    self.count = count
  }

  /// The number of rows this update names.
  @inlinable
  public var changedRowCount: Int { removed.count + inserted.count + moved.count + updated.count }
}

extension ListUpdate: Sendable where ID: Sendable {}
