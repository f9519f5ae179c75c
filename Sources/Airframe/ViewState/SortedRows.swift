// SortedRows: the rows of a list lens, kept sorted in bounded chunks.
//
// Guarantees
// - Rows are kept in ascending order of `compare`, which must be a strict total order
//   (only a row compares equal to itself); every chunk is non-empty and holds at most
//   `chunkCapacity` rows.
// - `ends[i]` is the number of rows in chunks 0...i, so index access needs no scan.
// - Cost with n rows and chunk capacity B: finding, inserting or removing a row is
//   O(log n) comparisons plus an O(B) move inside one chunk and an O(n / B) update of
//   `ends` (plain integer adds); `row(at:)` is O(log(n / B)). With B = 512 and 100,000
//   rows a move shifts at most one chunk instead of the whole list.
// - Building from sorted rows is O(n).

/// Rows in ascending order, stored as an array of bounded sorted chunks.
struct SortedRows<Row> {
  /// The most rows one chunk holds; a chunk that grows past it is split in two.
  let chunkCapacity: Int
  /// Compares two rows: negative if the first sorts first, zero only for the same row.
  let compare: (Row, Row) -> Int
  private(set) var chunks: [[Row]] = []
  /// `ends[i]` is the number of rows in `chunks[0...i]`.
  private var ends: [Int] = []

  /// Creates storage holding `rows`, which must already be sorted by `compare`.
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

  /// The number of rows.
  var count: Int { ends.last ?? 0 }

  /// The row at `index`, which must be in `0..<count`.
  func row(at index: Int) -> Row {
    precondition(index >= 0 && index < count, "row index out of range")
    let chunk = chunkContaining(index: index)
    return chunks[chunk][index - start(of: chunk)]
  }

  /// The position of `row`, or `nil` if no stored row compares equal to it.
  func index(of row: Row) -> Int? {
    let chunk = chunkFor(row)
    guard chunk < chunks.count else { return nil }
    let offset = lowerBound(of: row, in: chunks[chunk])
    guard offset < chunks[chunk].count, compare(chunks[chunk][offset], row) == 0 else {
      return nil
    }
    return start(of: chunk) + offset
  }

  /// Inserts `row`, which must not be stored yet, and returns its position.
  @discardableResult
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
    let offset = lowerBound(of: row, in: chunks[chunk])
    let position = start(of: chunk) + offset
    chunks[chunk].insert(row, at: offset)
    adjustEnds(from: chunk, by: 1)
    if chunks[chunk].count > chunkCapacity { split(chunk) }
    return position
  }

  /// Removes the stored row that compares equal to `row` and returns its former position,
  /// or returns `nil` if there is none.
  @discardableResult
  mutating func remove(_ row: Row) -> Int? {
    let chunk = chunkFor(row)
    guard chunk < chunks.count else { return nil }
    let offset = lowerBound(of: row, in: chunks[chunk])
    guard offset < chunks[chunk].count, compare(chunks[chunk][offset], row) == 0 else {
      return nil
    }
    let position = start(of: chunk) + offset
    chunks[chunk].remove(at: offset)
    adjustEnds(from: chunk, by: -1)
    rebalance(afterRemovingFrom: chunk)
    return position
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

  private func start(of chunk: Int) -> Int { chunk == 0 ? 0 : ends[chunk - 1] }

  /// The chunk whose rows include position `index`.
  private func chunkContaining(index: Int) -> Int {
    var low = 0
    var high = ends.count - 1
    while low < high {
      let middle = (low + high) / 2
      if ends[middle] > index { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// The first chunk whose last row does not sort before `row`; `chunks.count` if none.
  private func chunkFor(_ row: Row) -> Int {
    var low = 0
    var high = chunks.count
    while low < high {
      let middle = (low + high) / 2
      if compare(chunks[middle][chunks[middle].count - 1], row) < 0 {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// The first offset in `chunk` whose row does not sort before `row`.
  private func lowerBound(of row: Row, in chunk: [Row]) -> Int {
    var low = 0
    var high = chunk.count
    while low < high {
      let middle = (low + high) / 2
      if compare(chunk[middle], row) < 0 { low = middle + 1 } else { high = middle }
    }
    return low
  }

  // MARK: - Restructuring

  private mutating func adjustEnds(from chunk: Int, by delta: Int) {
    ends.withUnsafeMutableBufferPointer { ends in
      for index in chunk..<ends.count { ends[index] += delta }
    }
  }

  private mutating func split(_ chunk: Int) {
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
  private mutating func rebalance(afterRemovingFrom chunk: Int) {
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
  private mutating func merge(_ source: Int, into target: Int) {
    precondition(source == target + 1)
    let moved = chunks[source]
    chunks[target].append(contentsOf: moved)
    chunks.remove(at: source)
    ends.remove(at: target)
  }
}
