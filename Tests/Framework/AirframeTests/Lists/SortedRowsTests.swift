import AirframeTesting
import Testing

@testable import Airframe

extension ViewStateTests {
  @Suite
  struct SortedRowsTests {
    func compare(_ first: Int, _ second: Int) -> Int {
      first < second ? -1 : (first == second ? 0 : 1)
    }

    @Test(arguments: [4, 8, 64])
    func randomInsertsAndRemovalsKeepTheRowsSortedAndIndexed(chunkCapacity: Int) {
      var generator = SplitMix64(seed: UInt64(chunkCapacity))
      var reference = Array(stride(from: 0, to: 2_000, by: 2))
      var rows = SortedRows(sorted: reference, chunkCapacity: chunkCapacity, compare: compare)
      for step in 0..<4_000 {
        let value = Int.random(in: 0..<4_000, using: &generator)
        let position = reference.partitioningIndex { $0 >= value }
        let present = position < reference.count && reference[position] == value
        // Drain to nearly empty and refill, so chunks split, merge and disappear.
        let removing = step < 3_000 ? (step % 3 != 0) : (step % 3 == 0)
        if present, removing {
          #expect(rows.remove(value) == position)
          reference.remove(at: position)
        } else if !present {
          #expect(rows.insert(value) == position)
          reference.insert(value, at: position)
        } else {
          #expect(rows.index(of: value) == position)
        }
        if step.isMultiple(of: 250) {
          #expect(rows.checkInvariants())
          #expect(rows.allRows == reference)
        }
      }
      #expect(rows.checkInvariants())
      #expect(rows.count == reference.count)
      for (index, value) in reference.enumerated() {
        #expect(rows.row(at: index) == value)
        #expect(rows.index(of: value) == index)
      }
      #expect(rows.index(of: -1) == nil)
      #expect(rows.remove(4_001) == nil)
    }

    @Test func anEmptyStorageAcceptsItsFirstRow() {
      var rows = SortedRows<Int>(sorted: [], chunkCapacity: 4, compare: compare)
      #expect(rows.count == 0)
      #expect(rows.index(of: 3) == nil)
      #expect(rows.insert(3) == 0)
      #expect(rows.remove(3) == 0)
      #expect(rows.count == 0)
      #expect(rows.checkInvariants())
    }
  }
}

extension Array {
  fileprivate func partitioningIndex(where belongsInSecondPartition: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if belongsInSecondPartition(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
