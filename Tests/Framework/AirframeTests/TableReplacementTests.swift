import Airframe
import AirframeTesting
import Testing

/// `Transaction.set(_:to:)` with a whole entity table: the change set names every row.
@Suite(.noLiveBindings)
@MainActor
struct TableReplacementTests {
  @Test func settingAWholeTableRecordsEachRowAndNoValueChange() throws {
    let model = Model(
      Library(notes: EntityTable([Note(id: 1, title: "a"), Note(id: 2, title: "b")])))
    var commits: [Commit<Library>] = []
    let observer = model.observeCommits { commits.append($0) }
    let replacement = EntityTable([Note(id: 2, title: "B"), Note(id: 3, title: "c")])
    try model.write(origin: .background("test")) { $0.set(\.notes, to: replacement) }
    #expect(model.state.notes == replacement)
    let changes = try #require(commits.last).changes
    #expect(
      changes.changes(in: \.notes) == EntityChanges(inserted: [3], updated: [2], removed: [1]))
    #expect(!changes.changed(\.notes))
    #expect(changes.changedValues.isEmpty)
    observer.cancel()
  }

  @Test func aListLensFollowsAWholeTableReplacementRowByRow() throws {
    let model = Model(
      Library(notes: EntityTable([Note(id: 1, title: "a"), Note(id: 2, title: "b")])))
    let lens = ListLens(model: model, table: \.notes, order: .by(\.title))
    try model.write(origin: .background("test")) {
      $0.set(\.notes, to: EntityTable([Note(id: 2, title: "0"), Note(id: 3, title: "c")]))
    }
    #expect(lens.rows.map(\.id) == [2, 3])
    #expect(lens.rows.map(\.title) == ["0", "c"])
    lens.cancel()
  }

  @Test func aDiscardedReplacementRevertsEveryRow() {
    let original = EntityTable([Note(id: 1, title: "a")])
    let model = Model(Library(notes: original))
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try model.write(origin: .background("test")) { transaction in
        transaction.set(\.notes, to: EntityTable([Note(id: 5, title: "x")]))
        throw Stop()
      }
    }
    #expect(model.state.notes == original)
    #expect(model.revision == 0)
  }
}
