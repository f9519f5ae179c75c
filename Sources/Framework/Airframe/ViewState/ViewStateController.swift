/// A View State Controller that says which model revision its output reflects and whether
/// that output is what the model says it should be, so a ``ConsistencyCheck`` can verify
/// it.
///
/// ## Guarantees a conformer keeps
///
/// - ``renderedRevision`` is the latest model revision whose commit the controller has
///   applied, *whether or not that commit changed what it shows*: a commit that leaves
///   its output as it was still moves it. After a commit has been delivered, every
///   controller that follows the model reports the model's revision.
/// - ``differenceFromModel()`` recomputes the output from scratch, from the model's current
///   state and the controller's own view state (a selection, a search), by a path
///   independent of the incremental one, and describes the first way the published output
///   differs; `nil` means they agree. A controller that updates incrementally (from change
///   sets) is exactly what this catches when it drifts.
/// - Both only read: they never write the model or the output.
@MainActor
public protocol ViewStateController: AnyObject {
  /// The latest model revision the controller's output reflects.
  var renderedRevision: Int { get }

  /// How the published output differs from the output recomputed from the model now, or
  /// `nil` when they agree.
  ///
  /// - Returns: A readable description of the first difference found.
  func differenceFromModel() -> String?
}

extension ListLens: ViewStateController {
  /// The latest model revision the rows reflect, whether or not that commit changed a
  /// listed row; ``revision`` moves only with a published update.
  public var renderedRevision: Int { appliedRevision }

  /// How the listed rows differ from the rows recomputed from the model's table with the
  /// lens's filter and order, or `nil` when they agree.
  ///
  /// The recomputation projects every entity, filters and sorts with a plain comparison
  /// sort (not the lens's incremental storage), so it costs O(*n* log *n*): use it in
  /// checks and tests, not on every frame of a large list. Rows are compared by id and
  /// order, and by value when `Row` is `Equatable`.
  ///
  /// - Returns: The first difference: a count, an id at a position, or a row's value.
  public func differenceFromModel() -> String? {
    let expected = recomputedRows()
    let shown = rows
    guard shown.count == expected.count else {
      return "lists \(shown.count) rows; the model gives \(expected.count)"
    }
    for (index, (row, wanted)) in zip(shown, expected).enumerated() {
      guard row.id == wanted.id else {
        return "row \(index) is id \(row.id); the model gives id \(wanted.id)"
      }
      if RowEquality.differ(row, wanted) {
        return "row \(index) (id \(row.id)) is out of date"
      }
    }
    return nil
  }

  /// The rows the lens should list now: every entity of the table projected, filtered and
  /// sorted from scratch.
  ///
  /// - Returns: The rows, in the order's total order (ties by id).
  public func recomputedRows() -> [Row] {
    let compare = operations.totalOrder(order)
    let filter = filter
    return model.state[keyPath: table].elements.lazy.map(project).filter { filter.includes($0) }
      .sorted { compare($0, $1) < 0 }
  }
}

/// Compares two rows by value when their type is `Equatable`.
enum RowEquality {
  /// Whether two rows are both `Equatable` and unequal; rows that cannot be compared do
  /// not differ.
  static func differ<Row>(_ first: Row, _ second: Row) -> Bool {
    guard let first = first as? any Equatable else { return false }
    return !first.isEqual(toAny: second)
  }
}

extension Equatable {
  /// Whether `other` is a value of this type equal to `self`.
  fileprivate func isEqual(toAny other: Any) -> Bool {
    (other as? Self).map { $0 == self } ?? false
  }
}
