import AirframeTesting
import Testing

@testable import Airframe

extension ViewStateTests {
  /// The reuse rule of `ListLens`: keyed filters, narrowing filters, integer sort keys.
  @Suite(.noLiveBindings)
  @MainActor
  struct ListLensReuseTests {
    /// A filter keeping memos whose title contains `text`, keyed by `text`.
    func titleFilter(_ text: String) -> ListFilter<Memo> {
      ListFilter(key: text) { $0.title.contains(text) }
    }

    @Test func aKeyedFilterShowsTheRowsKeptForItUntilACommitChangesTheTable() throws {
      let model = Model(Desk(memos: EntityTable([memo(1, "alpha"), memo(2, "beta")])))
      let lens = ListLens(model: model, table: \.memos, order: .by({ $0.title }))
      var calls = 0
      lens.filter = ListFilter(key: "a") {
        calls += 1
        return $0.title.contains("a")
      }
      lens.filter = titleFilter("b")
      calls = 0
      lens.filter = ListFilter(key: "a") {
        calls += 1
        return $0.title.contains("a")
      }
      #expect(calls == 0)  // the rows kept for "a" are shown again, no row is checked
      #expect(lens.rows.map(\.id) == [1, 2])
      // A commit to the table ends the reuse: "a" is checked again and sees the new row.
      lens.filter = titleFilter("b")
      try model.write(origin: .background("test")) {
        try $0.insert(memo(3, "gamma"), into: \.memos)
      }
      calls = 0
      lens.filter = ListFilter(key: "a") {
        calls += 1
        return $0.title.contains("a")
      }
      #expect(calls == 3)
      #expect(lens.rows.map(\.id) == [1, 2, 3])
      #expect(lens.storageIsValid)
      lens.cancel()
    }

    @Test func aNarrowingFilterChecksOnlyTheListedAndTheReconsideredRows() {
      let memos = [memo(1, "ab"), memo(2, "abc"), memo(3, "xyz"), memo(4, "ABC")]
      let model = Model(Desk(memos: EntityTable(memos)))
      let lens = ListLens(model: model, table: \.memos, order: .by({ $0.id }))
      lens.filter = titleFilter("ab")
      var checked: [Int] = []
      lens.filter = ListFilter(key: "abc") {
        checked.append($0.id)
        return $0.title.contains("abc")
      }
      .narrowing("ab")
      #expect(checked.sorted() == [1, 2])  // the rows "ab" listed
      #expect(lens.rows.map(\.id) == [2])
      // A reconsidered row the shown filter left out is checked too, and can come back.
      lens.filter = titleFilter("ab")
      checked = []
      lens.filter = ListFilter(key: "bc") {
        checked.append($0.id)
        return $0.title.lowercased().contains("bc")
      }.narrowing("ab", reconsidering: [4, 99])  // 99 is no row
      #expect(Set(checked) == [1, 2, 4])
      #expect(lens.rows.map(\.id) == [2, 4])
      #expect(lens.storageIsValid)
      lens.cancel()
    }

    @Test func changingTheOrderSortsTheListedRowsWithoutCallingTheFilter() throws {
      let memos = [memo(1, "cab"), memo(2, "abc"), memo(3, "xyz"), memo(4, "bca")]
      let model = Model(Desk(memos: EntityTable(memos)))
      let lens = ListLens(model: model, table: \.memos, order: .by({ $0.id }))
      var calls = 0
      lens.filter = ListFilter {
        calls += 1
        return $0.title.contains("a")
      }
      // A commit while the filter is shown, so the kept rows are out of date at the toggle.
      try model.write(origin: .background("test")) {
        try $0.update(3, in: \.memos) { $0.title = "xa" }
      }
      calls = 0
      lens.order = .by({ $0.title })
      #expect(calls == 0)
      #expect(lens.rows.map(\.title) == ["abc", "bca", "cab", "xa"])
      #expect(lens.storageIsValid)
      lens.cancel()
    }

    @Test func aNarrowingMarkForAnotherFilterIsIgnored() {
      let model = Model(Desk(memos: EntityTable([memo(1, "ab"), memo(2, "b")])))
      let lens = ListLens(model: model, table: \.memos, order: .by({ $0.id }))
      lens.filter = titleFilter("a")
      // Marked as narrowing "zz", which is not the filter shown: every row is checked.
      lens.filter = titleFilter("b").narrowing("zz")
      #expect(lens.rows.map(\.id) == [1, 2])
      lens.cancel()
    }

    @Test(arguments: MemoOrder.allCases)
    func integerKeysSortAsTheKeysTheyStandFor(order: MemoOrder) throws {
      var generator = SplitMix64(seed: 77)
      let memos = (0..<3_000).map { randomMemo(id: $0, using: &generator) }
      let model = Model(Desk(memos: EntityTable(memos)))
      // The same orders, led by coarse integer keys (a few values, so many ties).
      let keyed: ListOrder<Memo> =
        switch order {
        case .pinnedThenNewest:
          .by(integerKey: { $0.isPinned ? 0 : 1 }).then({ $0.modified }, .descending)
        case .title:
          .by(integerKey: { UInt64($0.title.utf8.first ?? 0) }).then({ $0.title })
        case .notebookThenTitle:
          .by(integerKey: { UInt64($0.notebook) }).then(integerKey: { _ in 7 })
            .then({ $0.title }, .descending)
        }
      let lens = ListLens(model: model, table: \.memos, order: .by({ $0.id }))
      lens.order = keyed
      let expected = model.state.memos.elements.sorted(by: order.precedes).map(\.id)
      #expect(lens.rows.map(\.id) == expected)
      let fresh = ListLens(model: model, table: \.memos, order: keyed)
      #expect(fresh.rows.map(\.id) == expected)
      #expect(lens.storageIsValid && fresh.storageIsValid)
      lens.cancel()
      fresh.cancel()
    }

    /// Commits while a filter is shown leave the kept rows stale until the next filter or
    /// order change; after every step the list is what a recomputation lists.
    @Test func commitsBetweenFilterAndOrderChangesMatchARecomputation() throws {
      var generator = SplitMix64(seed: 78)
      let memos = (0..<600).map { randomMemo(id: $0, using: &generator) }
      let model = Model(Desk(memos: EntityTable(memos)))
      let filters: [(String?, ListFilter<Memo>)] = [
        (nil, .all), ("an", titleFilter("an")), ("a", titleFilter("a")),
        ("not 2", ListFilter(key: "not 2") { $0.notebook != 2 }),
      ]
      var order = MemoOrder.title
      var filter = filters[0].1
      let lens = ListLens(model: model, table: \.memos, order: order.order)
      let lists = ListLensTests()
      var nextID = 600
      for step in 0..<300 {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:
          filter = filters.randomElement(using: &generator)!.1
          lens.filter = filter
        case 1:
          order = MemoOrder.allCases.randomElement(using: &generator)!
          lens.order = order.order
        default:
          try lists.randomBatch(
            model, nextID: &nextID, size: Int.random(in: 1...5, using: &generator),
            using: &generator)
        }
        let expected = recomputed(model, order: order, filter: filter).map(\.id)
        #expect(lens.rows.map(\.id) == expected, "step \(step)")
      }
      #expect(lens.storageIsValid)
      lens.cancel()
    }

    func memo(_ id: Int, _ title: String) -> Memo {
      Memo(id: id, title: title, notebook: 1, modified: id, isPinned: false)
    }
  }
}
