// ListLens.RowOperations: the lens's whole-list operations, formed where the lens is
// created so that they are compiled for the client's rows.

extension ListLens {
  /// The operations a reload, a filter change and an order change run over every row.
  ///
  /// `reload()` and the `filter` and `order` setters run generic code. Each operation here
  /// is a closure formed in the lens's inlinable initializer, so the module that creates a
  /// lens compiles it for its own rows: the rows move without value-witness copies, where
  /// generic code would copy each row (a retain per string) on every move. Each is called
  /// once per whole-list change, never per row or per commit.
  @usableFromInline
  struct RowOperations {
    /// Makes the total order of an order: its keys, then ids.
    ///
    /// The comparison it returns is compiled for the client's rows even when `reload()`
    /// runs generically.
    @usableFromInline let totalOrder: (ListOrder<Row>) -> (Row, Row) -> Int
    /// Projects every entity and indexes the rows by id.
    @usableFromInline let buildRows:
      (EntityTable<Element>, (Element) -> Row) -> (rows: [Row], byID: [ID: Row])
    /// Sorts rows by a total order.
    @usableFromInline let sortRows: ([Row], (Row, Row) -> Int, [(Row) -> UInt64]) -> [Row]
    /// The rows of a storage that a filter keeps (all with `nil`), in order.
    @usableFromInline let selectRows: (SortedRows<Row>, ((Row) -> Bool)?) -> [Row]
    /// The rows of a storage that a filter keeps, as storage.
    @usableFromInline let filterRows: (SortedRows<Row>, (Row) -> Bool) -> SortedRows<Row>
    /// The kept rows sorted by a new total order.
    @usableFromInline let resortRows:
      (SortedRows<Row>, @escaping (Row, Row) -> Int, [(Row) -> UInt64]) -> SortedRows<Row>
    /// Merges two lists sorted by a total order.
    @usableFromInline let mergeRows: ([Row], [Row], (Row, Row) -> Int) -> [Row]

    /// Forms every operation; called from the lens's inlinable initializer.
    ///
    /// Closure literals, not references to the static methods: a method reference captures
    /// `Self`'s metatype, which the compiler flags as not `Sendable` (SendableMetatypes).
    @inlinable
    init() {
      self.totalOrder = { order in Self.makeTotalOrder(order) }
      self.buildRows = { elements, project in Self.makeRows(elements, project) }
      self.sortRows = { rows, compare, leadingKeys in
        var rows = rows
        SortedRows<Row>.sort(&rows, by: compare, leadingKeys: leadingKeys)
        return rows
      }
      self.selectRows = { storage, isIncluded in Self.select(storage, isIncluded) }
      self.filterRows = { rows, isIncluded in rows.filtered(isIncluded) }
      self.resortRows = { rows, compare, leadingKeys in
        rows.resorted(by: compare, leadingKeys: leadingKeys)
      }
      self.mergeRows = { first, second, compare in Self.merge(first, second, compare) }
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
}
