import Airframe
import AirframeTesting
import Testing

/// `Transaction.set(_:to:)` with a value that holds an entity table: refused, nothing
/// changes, so no lens or storage can miss the rows.
@Suite(.noLiveBindings)
@MainActor
struct TableInsideValueTests {
  struct Shelf: Equatable, Sendable {
    var label = "shelf"
    var items = EntityTable<Note>()
  }

  enum Slot: Equatable, Sendable {
    case empty
    case filled(EntityTable<Note>)
  }

  struct Store: Equatable, Sendable {
    var shelf = Shelf()
    var spare: Shelf?
    var slot = Slot.empty
    var label = "store"
  }

  static let original = EntityTable([Note(id: 1, title: "a"), Note(id: 2, title: "b")])

  func makeStore() -> Store {
    Store(shelf: Shelf(items: Self.original), spare: nil, slot: .filled(Self.original))
  }

  @Test func settingAStructThatHoldsATableIsRefusedAndChangesNothing() {
    let model = Model(makeStore())
    let lens = ListLens(model: model, table: \.shelf.items, order: .by(\.title))
    var replacement = Shelf(items: EntityTable([Note(id: 1, title: "a"), Note(id: 3, title: "c")]))
    replacement.label = "new"
    #expect(throws: ModelError.tableInsideValue(path: "shelf")) {
      try model.write(origin: .background("test")) { $0.set(\.shelf, to: replacement) }
    }
    #expect(model.state == makeStore())
    #expect(model.revision == 0)
    #expect(lens.rows.map(\.id) == [1, 2])
    #expect(lens.differenceFromModel() == nil)
    lens.cancel()
  }

  @Test func theWholeStateOptionalsAndEnumCasesAreRefusedToo() {
    let model = Model(makeStore())
    var changed = makeStore()
    changed.label = "other"
    #expect(throws: ModelError.self) {
      try model.write(origin: .background("test")) { $0.set(\.self, to: changed) }
    }
    // An optional that gains a table, and an enum case that drops one.
    #expect(throws: ModelError.tableInsideValue(path: "spare")) {
      try model.write(origin: .background("test")) { $0.set(\.spare, to: Shelf()) }
    }
    #expect(throws: ModelError.tableInsideValue(path: "slot")) {
      try model.write(origin: .background("test")) { $0.set(\.slot, to: .empty) }
    }
    #expect(model.state == makeStore())
    #expect(model.revision == 0)
  }

  @Test func theRefusalDiscardsTheWholeWriteAndSaysWhatToDo() {
    let model = Model(makeStore())
    #expect(throws: ModelError.self) {
      try model.write(origin: .background("test")) { transaction in
        transaction.set(\.label, to: "renamed")
        try transaction.update(1, in: \.shelf.items) { $0.title = "A" }
        transaction.set(\.shelf, to: Shelf())
      }
    }
    #expect(model.state == makeStore())
    #expect(
      ModelError.tableInsideValue(path: "shelf").description
        == "shelf holds an entity table, so it cannot be set as one value;"
        + " set or change the table itself."
    )
  }

  @Test func valuesWithoutTablesAndTablesThemselvesStillSet() throws {
    let model = Model(makeStore())
    let lens = ListLens(model: model, table: \.shelf.items, order: .by(\.title))
    try model.write(origin: .background("test")) { transaction in
      transaction.set(\.label, to: "renamed")
      transaction.set(\.shelf.label, to: "top")
      transaction.set(\.shelf.items, to: EntityTable([Note(id: 3, title: "c")]))
    }
    #expect(model.state.label == "renamed")
    #expect(model.state.shelf.label == "top")
    #expect(lens.rows.map(\.id) == [3])
    lens.cancel()
  }
}
