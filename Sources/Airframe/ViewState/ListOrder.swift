/// How a ``ListLens`` sorts its rows: keys compared in turn, ties broken by id.
///
/// Build one from keys, most significant first:
///
/// ```swift
/// let order = ListOrder<NoteRow>
///   .by(\.isPinned, .descending)      // pinned first
///   .then(\.modified, .descending)    // then newest first
/// // The lens breaks any remaining tie by id.
/// ```
///
/// A key is any function of the row, so key paths work as keys.
///
/// ## Guarantees
///
/// - An order compares two rows three ways (before, same, after) with at most one pass over
///   its keys; a lens breaks every tie by id, so the order a lens uses is a strict total
///   order as long as the keys compare consistently (a strict weak ordering).
/// - An order holds no state and never changes: a new sort order is a new value.
/// - Building an order is inlinable, so its comparisons are compiled where the order is
///   made, for the concrete row and key types (no generic dispatch per comparison).
public struct ListOrder<Row> {
  /// The direction of one sort key.
  public enum Direction: Sendable {
    /// Smaller keys first.
    case ascending
    /// Larger keys first.
    case descending
  }

  /// Compares two rows: negative if the first sorts first, zero if tied, positive if after.
  @usableFromInline let compare: (Row, Row) -> Int

  /// Creates an order from a "sorts before" predicate.
  ///
  /// - Parameter areInIncreasingOrder: Returns `true` if the first row sorts before the
  ///   second; it must be a strict weak ordering. Rows it leaves tied are ordered by id.
  @inlinable
  public init(_ areInIncreasingOrder: @escaping (Row, Row) -> Bool) {
    self.compare = { first, second in
      areInIncreasingOrder(first, second) ? -1 : (areInIncreasingOrder(second, first) ? 1 : 0)
    }
  }

  @usableFromInline
  init(compare: @escaping (Row, Row) -> Int) {
    self.compare = compare
  }

  /// An order by one key.
  ///
  /// - Parameters:
  ///   - key: Reads the key from a row; a key path such as `\.title` works.
  ///   - direction: Ascending (the default) or descending.
  /// - Returns: The order.
  @inlinable
  public static func by<Key: Comparable>(
    _ key: @escaping (Row) -> Key, _ direction: Direction = .ascending
  ) -> ListOrder {
    ListOrder(compare: Self.comparison(key, direction))
  }

  /// This order, with ties broken by another key.
  ///
  /// - Parameters:
  ///   - key: Reads the next key from a row.
  ///   - direction: Ascending (the default) or descending.
  /// - Returns: The refined order.
  @inlinable
  public func then<Key: Comparable>(
    _ key: @escaping (Row) -> Key, _ direction: Direction = .ascending
  ) -> ListOrder {
    let first = compare
    let second = Self.comparison(key, direction)
    return ListOrder { lhs, rhs in
      let result = first(lhs, rhs)
      return result != 0 ? result : second(lhs, rhs)
    }
  }

  /// Whether `first` sorts before `second` by this order's keys (ties are not broken).
  ///
  /// - Parameters:
  ///   - first: A row.
  ///   - second: Another row.
  /// - Returns: `true` if `first` sorts strictly before `second`.
  @inlinable
  public func areInIncreasingOrder(_ first: Row, _ second: Row) -> Bool {
    compare(first, second) < 0
  }

  /// The three-way comparison of one key in one direction.
  @inlinable
  static func comparison<Key: Comparable>(
    _ key: @escaping (Row) -> Key, _ direction: Direction
  ) -> (Row, Row) -> Int {
    switch direction {
    case .ascending:
      return { lhs, rhs in
        let left = key(lhs)
        let right = key(rhs)
        return left < right ? -1 : (left == right ? 0 : 1)
      }
    case .descending:
      return { lhs, rhs in
        let left = key(lhs)
        let right = key(rhs)
        return right < left ? -1 : (left == right ? 0 : 1)
      }
    }
  }
}
