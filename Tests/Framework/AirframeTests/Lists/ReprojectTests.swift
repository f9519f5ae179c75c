import AirframeTesting
import Testing

@testable import Airframe

extension ViewStateTests {
  /// `ListLens.reproject(_:)` projects the named rows again from the model's state, as a
  /// commit updating them would, and publishes that change at the revision shown.
  @Suite(.noLiveBindings)
  @MainActor
  struct ReprojectTests {
    /// What the projection adds to each title; the rows depend on it, not only on the
    /// entities.
    final class Suffix {
      var text = ""
    }

    func lens(
      _ model: Model<Desk>, suffix: Suffix, filter: ListFilter<Memo> = .all
    ) -> ListLens<Desk, Memo, Memo> {
      ListLens(
        model: model, table: \.memos,
        row: { memo in
          var row = memo
          row.title += suffix.text
          return row
        }, order: MemoOrder.title.order, filter: filter, chunkCapacity: 8)
    }

    @Test func namedRowsAreProjectedAgainAndMoveWhereTheirNewKeysSortThem() throws {
      var generator = SplitMix64(seed: 31)
      let memos = (0..<200).map { randomMemo(id: $0, using: &generator) }
      let model = Model(Desk(memos: EntityTable(memos)))
      let suffix = Suffix()
      let lens = lens(model, suffix: suffix)
      var updates: [ListUpdate<Int>] = []
      let observation = lens.updates.observe { updates.append($0) }
      updates = []
      let revision = lens.revision
      suffix.text = " zz"
      let ids = [3, 50, 51, 199]
      lens.reproject(ids)
      let update = try #require(updates.last)
      #expect(updates.count == 1)
      #expect(update.kind == .changed && update.revision == revision)
      #expect(lens.revision == revision && lens.renderedRevision == model.revision)
      // Exactly the named rows changed; every other row is as it was projected first.
      for memo in memos {
        let row = try #require(lens.row(for: memo.id))
        #expect(row.title == memo.title + (ids.contains(memo.id) ? " zz" : ""))
      }
      let titles = lens.rows.map(\.title)
      #expect(titles == titles.sorted())
      #expect(lens.storageIsValid)
      observation.cancel()
      lens.cancel()
    }

    @Test func anUnchangedRowUnderAFilterAndAnUnknownIdPublishNothing() {
      var generator = SplitMix64(seed: 32)
      let memos = (0..<50).map { randomMemo(id: $0, using: &generator) }
      let model = Model(Desk(memos: EntityTable(memos)))
      let lens = lens(model, suffix: Suffix(), filter: ListFilter { $0.notebook == 0 })
      var published = 0
      let observation = lens.updates.observe { _ in published += 1 }
      published = 0
      let unlisted = memos.first { $0.notebook != 0 }!.id
      lens.reproject([unlisted, 1_000])
      lens.reproject([])
      #expect(published == 0)
      #expect(
        lens.rows == recomputed(model, order: .title, filter: ListFilter { $0.notebook == 0 }))
      #expect(lens.storageIsValid)
      observation.cancel()
      lens.cancel()
    }

    @Test func aLensThatStoppedObservingIsLeftAsItIs() {
      let model = Model(
        Desk(
          memos: EntityTable([Memo(id: 1, title: "a", notebook: 0, modified: 0, isPinned: false)])))
      let suffix = Suffix()
      let lens = lens(model, suffix: suffix)
      lens.cancel()
      suffix.text = "!"
      lens.reproject([1])
      #expect(lens.row(at: 0).title == "a")
    }
  }
}
