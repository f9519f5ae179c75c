/// Rows in ascending order, stored as an array of bounded sorted chunks.
///
/// ## Guarantees
///
/// - Rows are kept in ascending order of `compare`, which must be a strict total order
///   (only a row compares equal to itself); every chunk is non-empty and holds at most
///   `chunkCapacity` rows.
/// - `ends[i]` is the number of rows in chunks 0...i, so index access needs no scan.
/// - Cost with n rows and chunk capacity B: finding, inserting or removing a row is
///   O(log n) comparisons plus an O(B) move inside one chunk and an O(n / B) update of
///   `ends` (plain integer adds); `row(at:)` is O(log(n / B)). With B = 512 and 100,000
///   rows a move shifts at most one chunk instead of the whole list.
/// - Building from sorted rows is O(n).
/// - Specialization: the per-commit operations (`insert`, `remove`, `replace` and the
///   searches they use) are inlinable, so a lens's client compiles them for its own row
///   type; the searches read rows through buffer pointers (no bounds checks, no copies of
///   the chunk arrays).
@usableFromInline
struct SortedRows<Row> {
  /// The most rows one chunk holds; a chunk that grows past it is split in two.
  @usableFromInline let chunkCapacity: Int
  /// Compares two rows: negative if the first sorts first, zero only for the same row.
  @usableFromInline let compare: (Row, Row) -> Int
  @usableFromInline var chunks: [[Row]] = []
  /// `ends[i]` is the number of rows in `chunks[0...i]`.
  @usableFromInline var ends: [Int] = []

  /// Creates storage holding `rows`, which must already be sorted by `compare`.
  @usableFromInline
  init(sorted rows: [Row], chunkCapacity: Int = 512, compare: @escaping (Row, Row) -> Int) {
    precondition(chunkCapacity >= 4, "chunk capacity too small")
    self.chunkCapacity = chunkCapacity
    self.compare = compare
    // Fill chunks to three quarters, so that inserts do not split them straight away.
    let fill = chunkCapacity * 3 / 4
    var start = 0
    chunks.reserveCapacity(rows.count / fill + 1)
    ends.reserveCapacity(rows.count / fill + 1)
    while start < rows.count {
      let end = min(start + fill, rows.count)
      var chunk: [Row] = []
      chunk.reserveCapacity(chunkCapacity + 1)
      chunk.append(contentsOf: rows[start..<end])
      chunks.append(chunk)
      ends.append(end)
      start = end
    }
  }

  /// Creates storage holding `rows`, in any order, sorted by `compare`.
  @usableFromInline
  init(unsorted rows: [Row], chunkCapacity: Int = 512, compare: @escaping (Row, Row) -> Int) {
    var rows = rows
    Self.sort(&rows, by: compare)
    self.init(sorted: rows, chunkCapacity: chunkCapacity, compare: compare)
  }

  /// Sorts `rows` by `compare`, ascending or descending.
  ///
  /// The sort's closure is formed here, outside any actor, so a main-actor caller's sort
  /// makes no run-time isolation check per comparison.
  ///
  /// A large list is sorted as positions, then gathered: the sort moves integers. With
  /// `leadingKeys` (the integer keys `compare` starts with) each row's keys are computed
  /// once, the positions are radix-sorted by them (`KeyOrder`), and rows are compared only
  /// where all of them tie. Sorting the rows themselves
  /// copied a row (a retain and a release of every reference it holds) for every
  /// comparison, which made sorting 100,000 note rows most of a sort toggle's time.
  @inlinable
  static func sort(
    _ rows: inout [Row], by compare: (Row, Row) -> Int, leadingKeys: [(Row) -> UInt64] = [],
    descending: Bool = false
  ) {
    guard rows.count > 64 else {
      if descending {
        rows.sort { compare($0, $1) > 0 }
      } else {
        rows.sort { compare($0, $1) < 0 }
      }
      return
    }
    let width = leadingKeys.count
    var keys: [UInt64] = []
    keys.reserveCapacity(rows.count * width)
    if width > 0 {
      for row in rows {
        for key in leadingKeys { keys.append(key(row)) }
      }
    }
    let sign = descending ? -1 : 1
    let positions = rows.withUnsafeBufferPointer { rows in
      keys.withUnsafeBufferPointer { keys in
        guard width == 0 else {
          return KeyOrder.positions(
            keys: keys, width: width, count: rows.count, descending: descending
          ) { compare(rows[$0], rows[$1]) }
        }
        var positions = Array(rows.indices)
        positions.sort { sign * compare(rows[$0], rows[$1]) < 0 }
        return positions
      }
    }
    rows = positions.map { rows[$0] }
  }

  /// The rows `isIncluded` keeps, in order.
  ///
  /// A chunk whose every row is kept is shared with this storage (copy on write), not
  /// copied: a filter that keeps most rows (the first letter of a search) copies only the
  /// chunks it thins. Other kept rows are copied into new chunks.
  @inlinable
  func filtered(_ isIncluded: (Row) -> Bool) -> SortedRows {
    var kept = SortedRows(sorted: [], chunkCapacity: chunkCapacity, compare: compare)
    let fill = chunkCapacity * 3 / 4
    var chunk: [Row] = []
    var total = 0
    func close() {
      guard !chunk.isEmpty else { return }
      total += chunk.count
      kept.chunks.append(chunk)
      kept.ends.append(total)
      chunk = []
    }
    var keptOffsets: [Int] = []
    keptOffsets.reserveCapacity(chunkCapacity + 1)
    for source in chunks {
      keptOffsets.removeAll(keepingCapacity: true)
      source.withUnsafeBufferPointer { rows in
        for index in rows.indices where isIncluded(rows[index]) { keptOffsets.append(index) }
      }
      if keptOffsets.count == source.count {
        close()
        total += source.count
        kept.chunks.append(source)
        kept.ends.append(total)
        continue
      }
      source.withUnsafeBufferPointer { rows in
        for index in keptOffsets {
          if chunk.isEmpty { chunk.reserveCapacity(chunkCapacity + 1) }
          chunk.append(rows[index])
          if chunk.count == fill { close() }
        }
      }
    }
    close()
    return kept
  }

  /// The same rows in the order of `compare`, each row copied once.
  ///
  /// Sorts positions (with each row's `leadingKeys` computed once, radix-sorted by them) and
  /// gathers the rows into new chunks: one retain and, when the old storage goes, one release per
  /// row, which for 100,000 rows scattered in memory is most of the cost.
  @inlinable
  func resorted(
    by compare: @escaping (Row, Row) -> Int, leadingKeys: [(Row) -> UInt64]
  ) -> SortedRows {
    let width = leadingKeys.count
    var locations: [Int] = []
    locations.reserveCapacity(count)
    var keys: [UInt64] = []
    keys.reserveCapacity(count * width)
    for chunk in chunks.indices {
      chunks[chunk].withUnsafeBufferPointer { rows in
        for offset in rows.indices {
          locations.append(chunk << 32 | offset)
          guard width > 0 else { continue }
          let row = rows[offset]  // one copy for all the keys
          for key in leadingKeys { keys.append(key(row)) }
        }
      }
    }
    let order = chunks.withUnsafeBufferPointer { chunks in
      locations.withUnsafeBufferPointer { locations in
        keys.withUnsafeBufferPointer { keys in
          func compareRows(_ first: Int, _ second: Int) -> Int {
            let (left, right) = (locations[first], locations[second])
            return chunks[left >> 32].withUnsafeBufferPointer { leftRows in
              chunks[right >> 32].withUnsafeBufferPointer { rightRows in
                compare(leftRows[left & 0xFFFF_FFFF], rightRows[right & 0xFFFF_FFFF])
              }
            }
          }
          guard width == 0 else {
            return KeyOrder.positions(
              keys: keys, width: width, count: locations.count, descending: false,
              tie: compareRows)
          }
          var order = Array(locations.indices)
          order.sort { compareRows($0, $1) < 0 }
          return order
        }
      }
    }
    var sorted = SortedRows(sorted: [], chunkCapacity: chunkCapacity, compare: compare)
    let fill = chunkCapacity * 3 / 4
    sorted.chunks.reserveCapacity(order.count / fill + 1)
    sorted.ends.reserveCapacity(order.count / fill + 1)
    chunks.withUnsafeBufferPointer { chunks in
      var start = 0
      while start < order.count {
        let end = min(start + fill, order.count)
        var chunk: [Row] = []
        chunk.reserveCapacity(chunkCapacity + 1)
        for index in start..<end {
          let location = locations[order[index]]
          chunks[location >> 32].withUnsafeBufferPointer { rows in
            chunk.append(rows[location & 0xFFFF_FFFF])
          }
        }
        sorted.chunks.append(chunk)
        sorted.ends.append(end)
        start = end
      }
    }
    return sorted
  }

  /// The number of rows.
  @inlinable var count: Int { ends.last ?? 0 }

  /// The row at `index`, which must be in `0..<count`.
  func row(at index: Int) -> Row {
    precondition(index >= 0 && index < count, "row index out of range")
    let chunk = chunkContaining(index: index)
    return chunks[chunk][index - start(of: chunk)]
  }

  /// The position of `row`, or `nil` if no stored row compares equal to it.
  func index(of row: Row) -> Int? {
    guard let (chunk, offset) = location(of: row) else { return nil }
    return start(of: chunk) + offset
  }

  /// Inserts `row`, which must not be stored yet, and returns its position.
  @inlinable @discardableResult
  mutating func insert(_ row: Row) -> Int {
    guard !chunks.isEmpty else {
      var chunk: [Row] = []
      chunk.reserveCapacity(chunkCapacity + 1)
      chunk.append(row)
      chunks.append(chunk)
      ends.append(1)
      return 0
    }
    let chunk = min(chunkFor(row), chunks.count - 1)
    let offset = lowerBound(of: row, in: chunk)
    let position = start(of: chunk) + offset
    chunks[chunk].insert(row, at: offset)
    adjustEnds(from: chunk, by: 1)
    if chunks[chunk].count > chunkCapacity { split(chunk) }
    return position
  }

  /// Removes the stored row that compares equal to `row` and returns its former position,
  /// or returns `nil` if there is none.
  @inlinable @discardableResult
  mutating func remove(_ row: Row) -> Int? {
    guard let (chunk, offset) = location(of: row) else { return nil }
    let position = start(of: chunk) + offset
    chunks[chunk].remove(at: offset)
    adjustEnds(from: chunk, by: -1)
    rebalance(afterRemovingFrom: chunk)
    return position
  }

  /// Replaces the stored row that compares equal to `old` with `new`, which must sort in
  /// the same place (compare the same as `old` with every other row), and returns its
  /// position, or returns `nil` if `old` is not stored.
  @inlinable
  mutating func replace(_ old: Row, with new: Row) -> Int? {
    guard let (chunk, offset) = location(of: old) else { return nil }
    chunks[chunk][offset] = new
    return start(of: chunk) + offset
  }

  /// Every row, in order (O(n); for tests and small lists).
  var allRows: [Row] { Array(chunks.joined()) }

  /// Checks the stored invariants; for tests.
  func checkInvariants() -> Bool {
    var total = 0
    var previous: Row?
    for (index, chunk) in chunks.enumerated() {
      guard !chunk.isEmpty, chunk.count <= chunkCapacity else { return false }
      total += chunk.count
      guard ends[index] == total else { return false }
      for row in chunk {
        if let previous, compare(previous, row) >= 0 { return false }
        previous = row
      }
    }
    return ends.count == chunks.count
  }

  // MARK: - Locating

  @inlinable
  func start(of chunk: Int) -> Int { chunk == 0 ? 0 : ends[chunk - 1] }

  /// The chunk whose rows include position `index`.
  func chunkContaining(index: Int) -> Int {
    var low = 0
    var high = ends.count - 1
    while low < high {
      let middle = (low + high) / 2
      if ends[middle] > index { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// The chunk and offset of the stored row that compares equal to `row`, if any.
  @inlinable
  func location(of row: Row) -> (chunk: Int, offset: Int)? {
    let chunk = chunkFor(row)
    guard chunk < chunks.count else { return nil }
    let offset = lowerBound(of: row, in: chunk)
    let found = chunks[chunk].withUnsafeBufferPointer { rows in
      offset < rows.count && compare(rows[offset], row) == 0
    }
    return found ? (chunk, offset) : nil
  }

  /// The first chunk whose last row does not sort before `row`; `chunks.count` if none.
  @inlinable
  func chunkFor(_ row: Row) -> Int {
    chunks.withUnsafeBufferPointer { chunks in
      var low = 0
      var high = chunks.count
      while low < high {
        let middle = (low + high) / 2
        let sortsBefore = chunks[middle].withUnsafeBufferPointer { last in
          compare(last[last.count - 1], row) < 0
        }
        if sortsBefore { low = middle + 1 } else { high = middle }
      }
      return low
    }
  }

  /// The first offset in chunk `chunk` whose row does not sort before `row`.
  @inlinable
  func lowerBound(of row: Row, in chunk: Int) -> Int {
    chunks[chunk].withUnsafeBufferPointer { rows in
      var low = 0
      var high = rows.count
      while low < high {
        let middle = (low + high) / 2
        if compare(rows[middle], row) < 0 { low = middle + 1 } else { high = middle }
      }
      return low
    }
  }

  // MARK: - Restructuring

  @inlinable
  mutating func adjustEnds(from chunk: Int, by delta: Int) {
    ends.withUnsafeMutableBufferPointer { ends in
      for index in chunk..<ends.count { ends[index] += delta }
    }
  }

  @usableFromInline
  mutating func split(_ chunk: Int) {
    let half = chunks[chunk].count / 2
    var upper: [Row] = []
    upper.reserveCapacity(chunkCapacity + 1)
    upper.append(contentsOf: chunks[chunk][half...])
    chunks[chunk].removeSubrange(half...)
    chunks.insert(upper, at: chunk + 1)
    ends.insert(start(of: chunk) + half, at: chunk)
  }

  /// Drops an empty chunk, or merges a chunk under a quarter full into a neighbour that
  /// has room, so the number of chunks stays about n / B.
  @inlinable
  mutating func rebalance(afterRemovingFrom chunk: Int) {
    let size = chunks[chunk].count
    if size == 0 {
      chunks.remove(at: chunk)
      ends.remove(at: chunk)
      return
    }
    guard size < chunkCapacity / 4 else { return }
    let limit = chunkCapacity * 3 / 4
    if chunk + 1 < chunks.count, size + chunks[chunk + 1].count <= limit {
      merge(chunk + 1, into: chunk)
    } else if chunk > 0, size + chunks[chunk - 1].count <= limit {
      merge(chunk, into: chunk - 1)
    }
  }

  /// Appends the rows of chunk `source` to chunk `source - 1` and drops `source`.
  @usableFromInline
  mutating func merge(_ source: Int, into target: Int) {
    precondition(source == target + 1)
    let moved = chunks[source]
    chunks[target].append(contentsOf: moved)
    chunks.remove(at: source)
    ends.remove(at: target)
  }
}
