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
/// - An order that starts with integer keys (``by(integerKey:)``, then
///   ``then(integerKey:)``) lets a lens sort n rows with n calls of each key and integer
///   comparisons, comparing rows only where all those keys tie.
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
  /// The integer keys the order starts with (see ``by(integerKey:)``), most significant
  /// first; empty if it starts with another key.
  @usableFromInline let leadingKeys: [(Row) -> UInt64]
  /// Whether every key so far is an integer key, so another one may still lead.
  @usableFromInline let isAllIntegerKeys: Bool

  /// Creates an order from a "sorts before" predicate.
  ///
  /// - Parameter areInIncreasingOrder: Returns `true` if the first row sorts before the
  ///   second; it must be a strict weak ordering. Rows it leaves tied are ordered by id.
  @inlinable
  public init(_ areInIncreasingOrder: @escaping (Row, Row) -> Bool) {
    self.compare = { first, second in
      areInIncreasingOrder(first, second) ? -1 : (areInIncreasingOrder(second, first) ? 1 : 0)
    }
    self.leadingKeys = []
    self.isAllIntegerKeys = false
  }

  @usableFromInline
  init(
    compare: @escaping (Row, Row) -> Int, leadingKeys: [(Row) -> UInt64] = [],
    isAllIntegerKeys: Bool = false
  ) {
    self.compare = compare
    self.leadingKeys = leadingKeys
    self.isAllIntegerKeys = isAllIntegerKeys
  }

  /// An order by an unsigned integer key, smallest first, which a lens computes once per
  /// row when it sorts.
  ///
  /// Sorting then compares integers and reads rows only where two keys tie, so put the
  /// most significant part of an order into the key when it fits in 64 bits (for example a
  /// "pinned" bit above a timestamp, or the first bytes of a text) and refine ties with
  /// ``then(_:_:)``:
  ///
  /// ```swift
  /// ListOrder<NoteRow>
  ///   .by(integerKey: { ($0.isPinned ? 0 : 1 << 63) | $0.titlePrefix >> 1 })
  ///   .then({ $0.sortTitle })
  /// ```
  ///
  /// - Parameter key: The row's key; a smaller key sorts first. It must agree with the
  ///   keys that follow: two rows whose keys differ must not be reordered by them.
  /// - Returns: The order.
  @inlinable
  public static func by(integerKey key: @escaping (Row) -> UInt64) -> ListOrder {
    ListOrder(
      compare: { lhs, rhs in
        let (left, right) = (key(lhs), key(rhs))
        return left < right ? -1 : (left == right ? 0 : 1)
      }, leadingKeys: [key], isAllIntegerKeys: true)
  }

  /// This order, with ties broken by an unsigned integer key, smallest first.
  ///
  /// After ``by(integerKey:)`` (and other integer keys) a lens computes this key once per
  /// row when it sorts too, so a long text can be compared by its first 16 bytes in two
  /// integers before its rows are read.
  ///
  /// - Parameter key: The row's next key; a smaller key sorts first.
  /// - Returns: The refined order.
  @inlinable
  public func then(integerKey key: @escaping (Row) -> UInt64) -> ListOrder {
    let first = compare
    return ListOrder(
      compare: { lhs, rhs in
        let result = first(lhs, rhs)
        if result != 0 { return result }
        let (left, right) = (key(lhs), key(rhs))
        return left < right ? -1 : (left == right ? 0 : 1)
      }, leadingKeys: isAllIntegerKeys ? leadingKeys + [key] : leadingKeys,
      isAllIntegerKeys: isAllIntegerKeys)
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
    return ListOrder(
      compare: { lhs, rhs in
        let result = first(lhs, rhs)
        return result != 0 ? result : second(lhs, rhs)
      }, leadingKeys: leadingKeys)
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
