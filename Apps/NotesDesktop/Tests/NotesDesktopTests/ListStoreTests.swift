// ListStore without a window: a GListStore kept in step with a lens by the positions its
// updates name. Every update shape (removals, insertions, moves, updates, all at once) ends
// in the new list, with one `items-changed` per row that came, went or moved, none for
// the others, and an updated row refreshed, not replaced.

import Airframe
import AirframeTesting
import CGtk
import Testing

@testable import NotesDesktopWindow

@Suite
@MainActor
struct ListStoreTests {
  /// The ids the store holds, in order.
  func ids(_ store: ListStore) -> [String] {
    (0..<store.count).compactMap { store.id(at: $0) }
  }

  /// A random update from `old`: some rows removed, some moved, some updated, some new.
  func randomUpdate(
    from old: [Int], revision: Int, using random: inout SeededRandomNumberGenerator
  ) -> (update: ListUpdate<Int>, new: [Int]) {
    var nextID = (old.max() ?? 0) + 1
    let removed = Set(old.filter { _ in Int.random(in: 0..<6, using: &random) == 0 })
    let moved = Set(
      old.filter { !removed.contains($0) && Int.random(in: 0..<6, using: &random) == 0 })
    var new = old.filter { !removed.contains($0) && !moved.contains($0) }
    var inserted: [Int] = []
    for _ in 0..<Int.random(in: 0..<4, using: &random) {
      inserted.append(nextID)
      nextID += 1
    }
    for id in Array(moved) + inserted {
      new.insert(id, at: Int.random(in: 0...new.count, using: &random))
    }
    let stayed = new.filter { old.contains($0) && !moved.contains($0) }
    let updated = stayed.filter { _ in Int.random(in: 0..<5, using: &random) == 0 }
    var update = ListUpdate<Int>(revision: revision, kind: .changed, count: new.count)
    update.removed = removed.map { .init(id: $0, from: old.firstIndex(of: $0), to: nil) }
    update.inserted = inserted.map { .init(id: $0, from: nil, to: new.firstIndex(of: $0)) }
    update.moved = moved.map {
      .init(id: $0, from: old.firstIndex(of: $0), to: new.firstIndex(of: $0))
    }
    update.updated = updated.map {
      .init(id: $0, from: old.firstIndex(of: $0), to: new.firstIndex(of: $0))
    }
    return (update, new)
  }

  @Test func everyUpdateShapeEndsInTheNewListRowByRow() {
    var random = SeededRandomNumberGenerator(seed: 23)
    let store = ListStore()
    var list = Array(0..<40)
    store.reload(list.map(String.init))
    var changes: [(position: UInt32, removed: UInt32, added: UInt32)] = []
    Signal.connectItemsChanged(GPointer(store.model)) { changes.append(($0, $1, $2)) }
    for revision in 1...300 {
      let (update, new) = randomUpdate(from: list, revision: revision, using: &random)
      changes.removeAll()
      var refreshed: [Int] = []
      store.apply(
        update, name: String.init, all: { new.map(String.init) },
        refresh: { id in
          // Refreshed once the rows are in place: the row is where the update says.
          let position = update.updated.first { $0.id == id }?.to
          #expect(self.ids(store).firstIndex(of: String(id)) == position)
          refreshed.append(id)
        })
      #expect(ids(store) == new.map(String.init), "update \(revision)")
      // One splice per row that came or went (a move is two), each of one row: never a
      // reload, and nothing for an updated row, which is refreshed instead.
      let expected = update.removed.count + update.inserted.count + 2 * update.moved.count
      #expect(changes.count == expected, "update \(revision)")
      #expect(changes.allSatisfy { $0.removed + $0.added == 1 }, "update \(revision)")
      #expect(refreshed.sorted() == update.updated.map(\.id).sorted(), "update \(revision)")
      list = new
    }
  }

  @Test func aReloadReplacesEveryRowInOneChange() {
    let store = ListStore()
    store.reload(["a", "b", "c"])
    var changes: [(UInt32, UInt32, UInt32)] = []
    Signal.connectItemsChanged(GPointer(store.model)) { changes.append(($0, $1, $2)) }
    store.apply(
      ListUpdate<Int>(revision: 2, kind: .reloaded, count: 2), name: String.init,
      all: { ["x", "y"] }, refresh: { _ in Issue.record("a reload refreshes nothing") })
    #expect(ids(store) == ["x", "y"])
    #expect(changes.count == 1 && changes[0] == (0, 3, 2))
  }
}
