/// Orders positions by a table of integer keys with a radix sort, breaking ties with a
/// comparison.
///
/// ## Guarantees
///
/// - The result is a permutation of `0..<count` in ascending order of each position's keys
///   (`width` per position, most significant first, compared as unsigned integers), and
///   positions with equal keys are in the order of `tie` (ascending; `descending` reverses
///   the whole order): exactly the order a comparison sort with "keys, then `tie`" gives.
/// - Cost: a least-significant-digit radix sort of the first keys, one stable pass per
///   byte that is not the same in every key (a byte all keys share, such as the top bytes
///   of nearby dates, costs only its count); each long run of equal first keys is sorted
///   the same way by the second keys, and so on; runs of at most 64 positions, and runs
///   equal in every key, are compared (`tie` only for the latter). For 100,000 rows that is
///   a few linear passes over integers instead of about 1.7 million comparisons through
///   closures.
@usableFromInline
enum KeyOrder {
  /// A key and its position.
  @usableFromInline
  struct Item {
    @usableFromInline let key: UInt64
    @usableFromInline let position: Int

    @inlinable init(key: UInt64, position: Int) {
      self.key = key
      self.position = position
    }
  }

  /// The positions `0..<count` ordered by `keys` and then `tie`.
  ///
  /// - Parameters:
  ///   - keys: `count * width` keys: position `p`'s are `keys[p * width ..< (p + 1) * width]`.
  ///   - width: Keys per position, at least 1.
  ///   - count: The number of positions.
  ///   - descending: Whether to order from the greatest.
  ///   - tie: Compares two positions whose keys are equal: negative if the first sorts
  ///     first (in ascending order), zero only for the same position.
  /// - Returns: The ordered positions.
  @inlinable
  static func positions(
    keys: UnsafeBufferPointer<UInt64>, width: Int, count: Int, descending: Bool,
    tie: (Int, Int) -> Int
  ) -> [Int] {
    precondition(width >= 1 && keys.count == count * width, "a key table of the wrong size")
    var order = Array(0..<count)
    var items = [Item](repeating: Item(key: 0, position: 0), count: count)
    var scratch = items
    order.withUnsafeMutableBufferPointer { order in
      items.withUnsafeMutableBufferPointer { items in
        scratch.withUnsafeMutableBufferPointer { scratch in
          sortRun(
            order, from: 0, keys: keys, width: width, items: items,
            scratch: scratch, tie: tie)
        }
      }
    }
    // The order is total, so the descending order is the ascending one reversed.
    if descending { order.reverse() }
    return order
  }

  /// Runs shorter than this are compared rather than radix-sorted.
  @usableFromInline static let shortRun = 64

  /// Sorts `run` (positions whose keys before `column` are equal) by the keys from `column`
  /// on, then `tie`, ascending.
  ///
  /// A long run is radix-sorted by its keys in `column` (each key beside its position, so
  /// every pass reads memory in order; a byte every key shares is skipped), and each run of
  /// equal keys in it by the next column the same way; a short run is compared.
  @inlinable
  static func sortRun(
    _ run: UnsafeMutableBufferPointer<Int>, from column: Int,
    keys: UnsafeBufferPointer<UInt64>, width: Int, items: UnsafeMutableBufferPointer<Item>,
    scratch: UnsafeMutableBufferPointer<Item>, tie: (Int, Int) -> Int
  ) {
    var run = run
    let count = run.count
    guard count > 1 else { return }
    guard column < width else {
      run.sort { tie($0, $1) < 0 }
      return
    }
    guard count > shortRun else {
      run.sort { first, second in
        for next in column..<width {
          let (left, right) = (keys[first * width + next], keys[second * width + next])
          if left != right { return left < right }
        }
        return tie(first, second) < 0
      }
      return
    }
    var source = UnsafeMutableBufferPointer(rebasing: items[0..<count])
    var target = UnsafeMutableBufferPointer(rebasing: scratch[0..<count])
    for index in 0..<count {
      source[index] = Item(key: keys[run[index] * width + column], position: run[index])
    }
    var counts = [Int](repeating: 0, count: 8 * 256)
    counts.withUnsafeMutableBufferPointer { counts in
      for item in source {
        for byte in 0..<8 {
          counts[byte << 8 | Int(truncatingIfNeeded: item.key >> (8 * byte) & 0xFF)] += 1
        }
      }
      for byte in 0..<8 {
        // A byte every key shares puts every key in one bucket: nothing to move.
        if (0..<256).contains(where: { counts[byte << 8 | $0] == count }) { continue }
        var start = 0
        for digit in 0..<256 {
          let size = counts[byte << 8 | digit]
          counts[byte << 8 | digit] = start
          start += size
        }
        for item in source {
          let bucket = byte << 8 | Int(truncatingIfNeeded: item.key >> (8 * byte) & 0xFF)
          target[counts[bucket]] = item
          counts[bucket] += 1
        }
        swap(&source, &target)
      }
    }
    for index in 0..<count { run[index] = source[index].position }
    // Each run of equal keys is ordered by the next column (the scratch space is free
    // again: the positions are back in `run`).
    var start = 0
    while start < count {
      let key = keys[run[start] * width + column]
      var end = start + 1
      while end < count, keys[run[end] * width + column] == key { end += 1 }
      if end - start > 1 {
        sortRun(
          UnsafeMutableBufferPointer(rebasing: run[start..<end]), from: column + 1, keys: keys,
          width: width, items: items, scratch: scratch, tie: tie)
      }
      start = end
    }
  }
}
