import Airframe
import AirframeTesting

/// The view-state suites, grouped so that `swift test --filter ViewState` selects them.
enum ViewStateTests {}

/// A note as the view-state tests list it.
struct Memo: Identifiable, Equatable, Sendable {
  let id: Int
  var title: String
  var notebook: Int
  var modified: Int
  var isPinned: Bool
}

/// The model state of the view-state tests.
struct Desk: Sendable {
  var memos = EntityTable<Memo>()
  var status = "idle"
}

/// The seeded generator the randomized tests share (SplitMix64).
typealias SplitMix64 = SeededRandomNumberGenerator

/// Titles drawn from a small vocabulary, so searches and title sorts have many ties.
let memoWords = ["apple", "Banana", "cherry", "Date", "elder", "fig", "grape", "Honey"]

func randomMemo(id: Int, using generator: inout SplitMix64) -> Memo {
  Memo(
    id: id,
    title: memoWords.randomElement(using: &generator)! + " "
      + memoWords.randomElement(using: &generator)!,
    notebook: Int.random(in: 0..<5, using: &generator),
    modified: Int.random(in: 0..<1_000, using: &generator),
    isPinned: Int.random(in: 0..<10, using: &generator) == 0)
}

/// The sort orders the tests use, each with a hand-written "sorts before" predicate
/// (ties broken by id) that the recomputation uses as an independent oracle.
///
/// Keys are closures rather than key paths: a key path applied as a function is slow in
/// debug builds, and the big tests sort 100,000 rows.
enum MemoOrder: CaseIterable {
  case pinnedThenNewest
  case title
  case notebookThenTitle

  var order: ListOrder<Memo> {
    switch self {
    case .pinnedThenNewest:
      .by({ $0.isPinned ? 1 : 0 }, .descending).then({ $0.modified }, .descending)
    case .title: .by({ $0.title })
    case .notebookThenTitle: .by({ $0.notebook }).then({ $0.title }, .descending)
    }
  }

  func precedes(_ first: Memo, _ second: Memo) -> Bool {
    switch self {
    case .pinnedThenNewest:
      if first.isPinned != second.isPinned { return first.isPinned }
      if first.modified != second.modified { return first.modified > second.modified }
    case .title:
      if first.title != second.title { return first.title < second.title }
    case .notebookThenTitle:
      if first.notebook != second.notebook { return first.notebook < second.notebook }
      if first.title != second.title { return first.title > second.title }
    }
    return first.id < second.id
  }
}

/// The list computed from scratch: filter, then sort by the oracle.
@MainActor
func recomputed(_ model: Model<Desk>, order: MemoOrder, filter: ListFilter<Memo>) -> [Memo] {
  model.state.memos.elements.filter { filter.includes($0) }.sorted(by: order.precedes)
}

/// `old` with `update` applied the way a table view applies it: deletions at old indices,
/// then insertions at new indices in ascending order.
func applying(_ update: ListUpdate<Int>, to old: [Int], newIDs: [Int]) -> [Int] {
  var deletions = update.removed.map { $0.from! } + update.moved.map { $0.from! }
  deletions.sort(by: >)
  var ids = old
  for index in deletions { ids.remove(at: index) }
  let insertions = (update.inserted + update.moved).sorted { $0.to! < $1.to! }
  for change in insertions { ids.insert(change.id, at: change.to!) }
  return ids
}
