import AirframeTesting
import Testing

@testable import Airframe

extension ViewStateTests {
  /// The radix order of positions by integer keys is exactly a comparison sort by "keys,
  /// then the tie-break", in both directions, whatever the keys share.
  @Suite
  struct KeyOrderTests {
    /// Keys drawn so that many tie in some columns and bytes: a few distinct values, values
    /// differing only in one byte, the extremes, and random ones.
    static func key(using generator: inout SplitMix64) -> UInt64 {
      switch Int.random(in: 0..<5, using: &generator) {
      case 0: UInt64.random(in: 0..<4, using: &generator)
      case 1: 0xABCD_0000_0000_0000 | UInt64.random(in: 0..<3, using: &generator) << 24
      case 2: [0, .max, 1 << 63].randomElement(using: &generator)!
      default: UInt64.random(in: .min ... .max, using: &generator)
      }
    }

    @Test(arguments: [1, 2, 3])
    func positionsAreInTheOrderOfAComparisonSort(width: Int) {
      var generator = SplitMix64(seed: UInt64(60 + width))
      for count in [0, 1, 2, 65, 1_000, 5_000] {
        let keys = (0..<count * width).map { _ in Self.key(using: &generator) }
        // The tie-break: a hidden value per position, then the position (a total order).
        let hidden = (0..<count).map { _ in Int.random(in: 0..<3, using: &generator) }
        func tie(_ first: Int, _ second: Int) -> Int {
          if hidden[first] != hidden[second] { return hidden[first] < hidden[second] ? -1 : 1 }
          return first < second ? -1 : (first == second ? 0 : 1)
        }
        func compare(_ first: Int, _ second: Int) -> Int {
          for column in 0..<width {
            let (left, right) = (keys[first * width + column], keys[second * width + column])
            if left != right { return left < right ? -1 : 1 }
          }
          return tie(first, second)
        }
        for descending in [false, true] {
          let expected = (0..<count).sorted {
            descending ? compare($0, $1) > 0 : compare($0, $1) < 0
          }
          let order = keys.withUnsafeBufferPointer { keys in
            KeyOrder.positions(
              keys: keys, width: width, count: count, descending: descending, tie: tie)
          }
          #expect(order == expected, "\(count) positions, descending: \(descending)")
        }
      }
    }

    @Test func keysThatShareEveryByteAreOrderedByTheTieBreakAlone() {
      let keys = [UInt64](repeating: 0x0102_0304_0506_0708, count: 300)
      let order = keys.withUnsafeBufferPointer { keys in
        KeyOrder.positions(keys: keys, width: 1, count: 300, descending: false) {
          let (left, right) = ($0 % 7, $1 % 7)
          if left != right { return left < right ? -1 : 1 }
          return $0 < $1 ? -1 : ($0 == $1 ? 0 : 1)
        }
      }
      #expect(order == (0..<300).sorted { ($0 % 7, $0) < ($1 % 7, $1) })
    }
  }
}
