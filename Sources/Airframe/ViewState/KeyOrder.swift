/// Orders positions by a table of integer keys with a radix sort, breaking ties with a
/// comparison.
///
/// ## Guarantees
///
/// - The result is a permutation of `0..<count` in ascending order of each position's keys
///   (`width` per position, most significant first, compared as unsigned integers), and
///   positions with equal keys are in the order of `tie` (ascending; `descending` reverses
///   the whole order): exactly the order a comparison sort with "keys, then `tie`" gives.
/// - Cost: a least-significant-digit radix sort of the first key, one stable pass per
///   byte that is not the same in every key (a byte all keys share, such as the top bytes
///   of nearby dates, costs only its count), then the other keys and `tie` are compared
///   only inside runs of equal first keys. For 100,000 rows this replaced about 1.7
///   million comparisons through closures with a few linear passes over integers.
@usableFromInline
enum KeyOrder {
  /// A first key and its position.
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
    // Only the first keys are radix-sorted: they decide nearly every pair (for the note
    // list's title order, the first eight bytes of the title), and the later keys are
    // compared inside runs of equal first keys, which costs less than eight more passes.
    // Each key travels with its position, so every pass reads memory in order.
    var items = (0..<count).map { Item(key: keys[$0 * width], position: $0) }
    var scratch = items
    var counts = [Int](repeating: 0, count: 8 * 256)
    counts.withUnsafeMutableBufferPointer { counts in
      for item in items {
        for byte in 0..<8 {
          counts[byte << 8 | Int(truncatingIfNeeded: item.key >> (8 * byte) & 0xFF)] += 1
        }
      }
    }
    for byte in 0..<8 {
      let shared = counts.withUnsafeBufferPointer { counts in
        (0..<256).contains { counts[byte << 8 | $0] == count }
      }
      if shared { continue }
      counts.withUnsafeMutableBufferPointer { counts in
        var start = 0
        for digit in 0..<256 {
          let size = counts[byte << 8 | digit]
          counts[byte << 8 | digit] = start
          start += size
        }
        items.withUnsafeBufferPointer { source in
          scratch.withUnsafeMutableBufferPointer { target in
            for item in source {
              let bucket = byte << 8 | Int(truncatingIfNeeded: item.key >> (8 * byte) & 0xFF)
              target[counts[bucket]] = item
              counts[bucket] += 1
            }
          }
        }
      }
      swap(&items, &scratch)
    }
    var order = items.map(\.position)
    if descending { order.reverse() }
    // Runs of equal first keys are put in the order of the other keys, then of `tie`.
    let sign = descending ? -1 : 1
    order.withUnsafeMutableBufferPointer { order in
      func compare(_ first: Int, _ second: Int) -> Int {
        for column in 1..<width {
          let (left, right) = (keys[first * width + column], keys[second * width + column])
          if left != right { return left < right ? -1 : 1 }
        }
        return tie(first, second)
      }
      var start = 0
      while start < count {
        let key = keys[order[start] * width]
        var end = start + 1
        while end < count, keys[order[end] * width] == key { end += 1 }
        if end - start > 1 {
          var run = UnsafeMutableBufferPointer(rebasing: order[start..<end])
          run.sort { sign * compare($0, $1) < 0 }
        }
        start = end
      }
    }
    return order
  }
}
