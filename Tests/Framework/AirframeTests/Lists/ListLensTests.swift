import AirframeTesting
import Observation
import Testing

@testable import Airframe

extension ViewStateTests {
  @Suite(.noLiveBindings)
  @MainActor
  struct ListLensTests {
    /// A model holding `count` random memos (ids 0..<count), built as its initial state.
    func makeModel(count: Int, seed: UInt64) -> (Model<Desk>, SplitMix64) {
      var generator = SplitMix64(seed: seed)
      let memos = (0..<count).map { randomMemo(id: $0, using: &generator) }
      return (Model(Desk(memos: EntityTable(memos))), generator)
    }

    /// One random batch of inserts, updates (sort keys or not) and removals.
    func randomBatch(
      _ model: Model<Desk>, nextID: inout Int, size: Int, using generator: inout SplitMix64
    ) throws {
      try model.write(origin: .background("test")) { transaction in
        for _ in 0..<size {
          let ids = Array(transaction.state.memos.byID.keys)
          let choice = Int.random(in: 0..<10, using: &generator)
          if choice < 2 || ids.isEmpty {
            try transaction.insert(randomMemo(id: nextID, using: &generator), into: \.memos)
            nextID += 1
          } else if choice < 4 {
            try transaction.remove(ids.randomElement(using: &generator)!, from: \.memos)
          } else {
            let id = ids.randomElement(using: &generator)!
            let replacement = randomMemo(id: id, using: &generator)
            try transaction.update(id, in: \.memos) { memo in
              switch choice {
              case 4: memo.title = replacement.title
              case 5: memo.modified = replacement.modified
              case 6: memo.isPinned.toggle()
              case 7: memo.notebook = replacement.notebook
              default: memo = replacement
              }
            }
          }
        }
      }
    }

    @Test(arguments: [
      (0, 512), (1, 16), (2, 8),
    ])
    func randomCommitsMatchAFullRecomputation(configuration: Int, chunkCapacity: Int) throws {
      let (model, seeded) = makeModel(count: 2_000, seed: UInt64(41 + configuration))
      var generator = seeded
      let order = MemoOrder.allCases[configuration]
      let filter: ListFilter<Memo> = [
        .all, .search("an", in: \.title), ListFilter { $0.notebook != 2 },
      ][configuration]
      let lens = ListLens(
        model: model, table: \.memos, row: { $0 }, order: order.order, filter: filter,
        chunkCapacity: chunkCapacity)
      var published: [ListUpdate<Int>] = []
      let observation = lens.updates.observe { published.append($0) }
      var shown = lens.rows.map(\.id)
      #expect(shown == recomputed(model, order: order, filter: filter).map(\.id))
      var nextID = 2_000
      for commit in 0..<250 {
        published.removeAll()
        let size = commit.isMultiple(of: 5) ? Int.random(in: 1...40, using: &generator) : 1
        try randomBatch(model, nextID: &nextID, size: size, using: &generator)
        let expected = recomputed(model, order: order, filter: filter).map(\.id)
        #expect(lens.rows.map(\.id) == expected, "commit \(commit)")
        #expect(lens.count == expected.count)
        #expect(published.count <= 1)
        if let update = published.first {
          #expect(update.kind == .changed)
          #expect(update.revision == model.revision)
          #expect(update.count == expected.count)
          #expect(applying(update, to: shown, newIDs: expected) == expected, "commit \(commit)")
          for change in update.updated { #expect(shown[change.from!] == change.id) }
          for change in update.removed + update.moved { #expect(shown[change.from!] == change.id) }
        } else {
          #expect(shown == expected)
        }
        shown = expected
      }
      #expect(lens.storageIsValid)
      observation.cancel()
    }

    @Test func aHundredThousandRowsStayCorrectUnderSingleEntityCommits() throws {
      let (model, seeded) = makeModel(count: 100_000, seed: 7)
      var generator = seeded
      let lens = ListLens(model: model, table: \.memos, order: MemoOrder.pinnedThenNewest.order)
      var last: ListUpdate<Int>?
      let observation = lens.updates.observe { last = $0 }
      for step in 0..<200 {
        let id = Int.random(in: 0..<100_000, using: &generator)
        let before = lens.index(of: id)!
        try model.write(origin: .background("test")) { transaction in
          try transaction.update(id, in: \.memos) { memo in
            if step.isMultiple(of: 2) {
              memo.modified = (memo.modified + Int.random(in: 1..<1_000, using: &generator)) % 1_000
            } else {
              memo.title += "!"
            }
          }
        }
        let update = try #require(last)
        #expect(update.revision == model.revision)
        #expect(update.changedRowCount == 1)
        let change = try #require((update.updated + update.moved).first)
        #expect(change.id == id && change.from == before)
        let index = try #require(lens.index(of: id))
        #expect(change.to == index)
        #expect(lens.row(at: index).id == id)
        let row = lens.row(at: index)
        if index > 0 { #expect(precedes(lens.row(at: index - 1), row)) }
        if index < lens.count - 1 { #expect(precedes(row, lens.row(at: index + 1))) }
      }
      let expected = recomputed(model, order: MemoOrder.pinnedThenNewest, filter: .all)
      #expect(lens.rows == expected)
      #expect(lens.storageIsValid)
      observation.cancel()
    }

    @Test func aVeryLargeCommitIsAppliedAsAReload() throws {
      let model = Model(Desk())
      let lens = ListLens(model: model, table: \.memos, order: MemoOrder.title.order)
      var generator = SplitMix64(seed: 3)
      try model.write(origin: .background("test")) { transaction in
        for id in 0..<5_000 {
          try transaction.insert(randomMemo(id: id, using: &generator), into: \.memos)
        }
      }
      let update = lens.updates.value
      #expect(update == ListUpdate(revision: 1, kind: .reloaded, count: 5_000))
      #expect(lens.rows == recomputed(model, order: MemoOrder.title, filter: .all))
    }

    @Test func changingTheFilterOrTheOrderReloadsFromTheModel() throws {
      let (model, _) = makeModel(count: 500, seed: 11)
      let lens = ListLens(model: model, table: \.memos, order: MemoOrder.title.order)
      var published: [ListUpdate<Int>] = []
      let observation = lens.updates.observe { published.append($0) }

      lens.filter = .search("CHERRY", in: \.title)
      let searched = recomputed(
        model, order: MemoOrder.title, filter: .search("cherry", in: \.title))
      #expect(!searched.isEmpty && searched.count < 500)
      #expect(lens.rows == searched)
      lens.order = MemoOrder.pinnedThenNewest.order
      #expect(
        lens.rows
          == recomputed(
            model, order: MemoOrder.pinnedThenNewest, filter: .search("cherry", in: \.title)))
      lens.filter = .search("", in: \.title)
      #expect(lens.count == 500)

      let reload = ListUpdate<Int>(revision: 0, kind: .reloaded, count: 0)
      #expect(
        published.map(\.kind) == [.reloaded, .reloaded, .reloaded, .reloaded]
          && published.map(\.count) == [500, searched.count, searched.count, 500]
          && published.allSatisfy { $0.revision == reload.revision })
      #expect(model.revision == 0)
      observation.cancel()
    }

    @Test func theSelectionIsClearedAndPublishedWhenItsRowIsRemoved() throws {
      let (model, _) = makeModel(count: 20, seed: 5)
      let lens = ListLens(model: model, table: \.memos, order: MemoOrder.title.order)
      var selections: [Int?] = []
      let observation = lens.selection.observe { selections.append($0) }
      #expect(lens.select(4))
      #expect(!lens.select(99))
      try model.write(origin: .background("test")) {
        try $0.update(7, in: \.memos) { $0.title = "zzz" }
      }
      #expect(lens.selection.value == 4)
      try model.write(origin: .background("test")) { try $0.remove(4, from: \.memos) }
      #expect(lens.selection.value == nil)
      #expect(selections == [nil, 4, nil])
      observation.cancel()
    }

    @Test func theSelectionIsClearedWhenItsRowIsFilteredOut() throws {
      let (model, _) = makeModel(count: 20, seed: 5)
      let lens = ListLens(
        model: model, table: \.memos, order: MemoOrder.title.order,
        filter: ListFilter { $0.notebook != 9 })
      #expect(lens.select(3))
      try model.write(origin: .background("test")) {
        try $0.update(3, in: \.memos) { $0.notebook = 9 }
      }
      #expect(lens.selection.value == nil)
      #expect(lens.index(of: 3) == nil)

      #expect(lens.select(5))
      let notebook = model.state.memos[5]!.notebook
      lens.filter = ListFilter { $0.notebook != notebook }
      #expect(lens.selection.value == nil)
      #expect(!lens.select(5))
    }

    @Test func theLensNeverWritesTheModel() throws {
      let (model, _) = makeModel(count: 100, seed: 9)
      var commits = 0
      let commitObservation = model.observeCommits { _ in commits += 1 }
      let lens = ListLens(model: model, table: \.memos, order: MemoOrder.title.order)
      lens.select(1)
      lens.filter = .search("a", in: \.title)
      lens.order = MemoOrder.notebookThenTitle.order
      lens.reload()
      _ = lens.index(of: 2)
      lens.cancel()
      #expect(model.revision == 0)
      #expect(commits == 0)
      commitObservation.cancel()
    }

    @Test func commitsThatChangeNoListedRowPublishNothing() throws {
      let (model, _) = makeModel(count: 50, seed: 2)
      let lens = ListLens(
        model: model, table: \.memos, order: MemoOrder.title.order,
        filter: ListFilter { $0.notebook == 0 })
      var published = 0
      let observation = lens.updates.observe { _ in published += 1 }
      let hidden = model.state.memos.elements.first { $0.notebook != 0 }!.id
      try model.write(origin: .background("test")) { $0.set(\.status, to: "syncing") }
      try model.write(origin: .background("test")) {
        try $0.update(hidden, in: \.memos) { $0.notebook = $0.notebook == 1 ? 2 : 1 }
      }
      #expect(published == 1)
      #expect(model.revision == 2)
      #expect(lens.revision == 0)
      observation.cancel()
    }

    @Test func indexAccessAgreesWithTheRecomputedList() throws {
      let (model, _) = makeModel(count: 3_000, seed: 13)
      let filter = ListFilter<Memo> { $0.modified.isMultiple(of: 3) }
      let lens = ListLens(
        model: model, table: \.memos, row: { $0 }, order: MemoOrder.notebookThenTitle.order,
        filter: filter, chunkCapacity: 32)
      try model.write(origin: .background("test")) { transaction in
        for id in stride(from: 0, to: 3_000, by: 7) {
          try transaction.update(id, in: \.memos) { $0.modified += 1 }
        }
      }
      let expected = recomputed(model, order: MemoOrder.notebookThenTitle, filter: filter)
      #expect(lens.count == expected.count)
      for (index, memo) in expected.enumerated() {
        #expect(lens.row(at: index) == memo)
        #expect(lens.index(of: memo.id) == index)
        #expect(lens.row(for: memo.id) == memo)
      }
      for memo in model.state.memos.elements where !filter.includes(memo) {
        #expect(lens.index(of: memo.id) == nil)
      }
    }

    @Test func cancellingOrReleasingTheLensEndsItsObservation() throws {
      let (model, _) = makeModel(count: 10, seed: 1)
      let ledger = try #require(BindingLedger.current)
      let baseline = ledger.liveCount
      let lens = ListLens(model: model, table: \.memos, order: MemoOrder.title.order)
      #expect(ledger.liveCount == baseline + 1)
      lens.cancel()
      #expect(!lens.isObserving)
      #expect(ledger.liveCount == baseline)
      try model.write(origin: .background("test")) { try $0.remove(0, from: \.memos) }
      #expect(lens.count == 10)

      weak var released: ListLens<Desk, Memo, Memo>?
      do {
        let temporary = ListLens(model: model, table: \.memos, order: MemoOrder.title.order)
        released = temporary
        #expect(ledger.liveCount == baseline + 1)
      }
      #expect(released == nil)
      #expect(ledger.liveCount == baseline)
      try model.write(origin: .background("test")) { try $0.remove(1, from: \.memos) }
    }

    @Test func observationTrackingFiresOnEveryPublishedUpdate() throws {
      let (model, _) = makeModel(count: 10, seed: 1)
      let lens = ListLens(model: model, table: \.memos, order: MemoOrder.title.order)
      let fired = Counter()
      func track() {
        withObservationTracking {
          _ = lens.row(at: 0)
        } onChange: {
          fired.increment()
        }
      }
      track()
      try model.write(origin: .background("test")) {
        try $0.update(3, in: \.memos) { $0.title = "AAA" }
      }
      #expect(fired.value == 1)
      #expect(lens.row(at: 0).id == 3)
      track()
      lens.order = MemoOrder.pinnedThenNewest.order
      #expect(fired.value == 2)
    }

    @Test func updatesNameOldAndNewIndices() throws {
      let memos = (0..<5).map {
        Memo(id: $0, title: "t\($0)", notebook: 0, modified: 0, isPinned: false)
      }
      let model = Model(Desk(memos: EntityTable(memos)))
      let lens = ListLens(model: model, table: \.memos, order: .by(\.title))
      try model.write(origin: .background("test")) { transaction in
        try transaction.update(0, in: \.memos) { $0.title = "t9" }  // moves to the end
        try transaction.update(2, in: \.memos) { $0.notebook = 1 }  // changes in place
        try transaction.remove(3, from: \.memos)
        try transaction.insert(
          Memo(id: 7, title: "t15", notebook: 0, modified: 0, isPinned: false), into: \.memos)
      }
      // Before: t0 t1 t2 t3 t4 (ids 0 1 2 3 4). After: t1 t15 t2 t4 t9 (ids 1 7 2 4 0).
      var expected = ListUpdate<Int>(revision: 1, kind: .changed, count: 5)
      expected.removed = [ListRowChange(id: 3, from: 3, to: nil)]
      expected.inserted = [ListRowChange(id: 7, from: nil, to: 1)]
      expected.moved = [ListRowChange(id: 0, from: 0, to: 4)]
      expected.updated = [ListRowChange(id: 2, from: 2, to: 2)]
      #expect(lens.updates.value == expected)
      #expect(lens.rows.map(\.id) == [1, 7, 2, 4, 0])
    }
  }
}

/// Whether `first` sorts strictly before `second` by pinned-then-newest, ties by id.
private func precedes(_ first: Memo, _ second: Memo) -> Bool {
  MemoOrder.pinnedThenNewest.precedes(first, second)
}

/// A counter that an Observation onChange closure can bump.

extension ListLens {
  /// Whether the chunked storage satisfies its invariants.
  var storageIsValid: Bool { storageInvariantsHold() }
}
