import AirframeTesting
import Testing

@testable import Airframe

extension ViewStateTests {
  /// A commit that changes one row without changing its sort keys overwrites the row where
  /// it is; these check that the lens publishes what a removal and re-insertion would.
  @Suite(.noLiveBindings)
  @MainActor
  struct InPlaceUpdateTests {
    @Test func aRowWhoseKeysDidNotChangeIsUpdatedWhereItIs() throws {
      var generator = SplitMix64(seed: 5)
      let memos = (0..<500).map { randomMemo(id: $0, using: &generator) }
      let model = Model(Desk(memos: EntityTable(memos)))
      let lens = ListLens(
        model: model, table: \.memos, row: { $0 }, order: MemoOrder.title.order,
        filter: .all, chunkCapacity: 8)
      var last: ListUpdate<Int>?
      let observation = lens.updates.observe { last = $0 }
      for id in stride(from: 0, to: 500, by: 37) {
        let index = try #require(lens.index(of: id))
        try model.write(origin: .background("test")) {
          try $0.update(id, in: \.memos) { $0.modified += 1 }
        }
        let update = try #require(last)
        #expect(update.revision == model.revision)
        #expect(update.kind == .changed && update.count == 500)
        #expect(update.updated == [ListRowChange(id: id, from: index, to: index)])
        #expect(update.changedRowCount == 1)
        #expect(lens.row(at: index) == model.state.memos[id])
        #expect(lens.row(for: id) == model.state.memos[id])
      }
      #expect(lens.rows == recomputed(model, order: .title, filter: .all))
      #expect(lens.storageIsValid)
      observation.cancel()
    }

    @Test func replacingARowKeepsItsPositionAndStoresTheNewRow() {
      typealias Entry = (key: Int, id: Int, label: String)
      func compare(_ first: Entry, _ second: Entry) -> Int {
        if first.key != second.key { return first.key < second.key ? -1 : 1 }
        return first.id < second.id ? -1 : (first.id == second.id ? 0 : 1)
      }
      let sorted = (0..<100).map { (key: $0 / 3, id: $0, label: "old") }
      var rows = SortedRows(sorted: sorted, chunkCapacity: 4, compare: compare)
      #expect(rows.replace(sorted[16], with: (key: 5, id: 16, label: "new")) == 16)
      #expect(rows.row(at: 16) == (key: 5, id: 16, label: "new"))
      #expect(rows.replace((key: 6, id: 16, label: "old"), with: sorted[16]) == nil)
      #expect(rows.count == 100)
      #expect(rows.checkInvariants())
    }
  }
}
