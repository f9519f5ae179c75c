import Airframe
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct ConsistencyCheckTests {
  /// A presentation that renders every commit's revision, or (if lazy) misses some.
  @MainActor
  final class Pane {
    private(set) var renderedRevision = 0
    var isLazy = false
    private var lifetime: Lifetime?
    init(model: Model<Library>) {
      lifetime = model.observeCommits { [weak self] commit in
        guard let self, !isLazy else { return }
        renderedRevision = commit.revision
      }
    }
    func cancel() { lifetime?.cancel() }
  }

  @Test func presentationsThatRenderEveryCommitAgree() throws {
    let model = Model(Library())
    let scheduler = TestScheduler()
    let check = ConsistencyCheck(model: model, scheduler: scheduler)
    let sidebar = Pane(model: model)
    let list = Pane(model: model)
    check.register("sidebar") { sidebar.renderedRevision }
    check.register("list") { list.renderedRevision }
    try model.write { try $0.insert(Note(id: 1, title: "a"), into: \.notes) }
    try model.write { try $0.update(1, in: \.notes) { $0.title = "b" } }
    scheduler.drain()
    #expect(check.checkedCommits == 2)
    #expect(check.mismatches.isEmpty)
    check.cancel()
    sidebar.cancel()
    list.cancel()
  }

  @Test func aPresentationThatMissedACommitIsReported() throws {
    let model = Model(Library())
    let scheduler = TestScheduler()
    let check = ConsistencyCheck(model: model, scheduler: scheduler)
    let sidebar = Pane(model: model)
    let list = Pane(model: model)
    check.register("sidebar") { sidebar.renderedRevision }
    check.register("list") { list.renderedRevision }
    list.isLazy = true
    try model.write { try $0.insert(Note(id: 1, title: "a"), into: \.notes) }
    scheduler.drain()
    #expect(check.mismatches.map(\.description) == ["list rendered revision 0, the model is at 1"])
    #expect(check.verify().map(\.name) == ["list"])
    check.cancel()
    sidebar.cancel()
    list.cancel()
  }

  @Test func aListLensAgreesAfterCommitsThatChangeNoListedRow() throws {
    let model = Model(
      Library(notes: EntityTable([Note(id: 1, title: "a"), Note(id: 2, title: "b")])))
    let scheduler = TestScheduler()
    let check = ConsistencyCheck(model: model, scheduler: scheduler)
    let lens = ListLens(
      model: model, table: \.notes, order: .by(\.title), filter: ListFilter { $0.id == 1 })
    check.register("list", lens)
    try model.write { $0.set(\.syncStatus, to: "syncing") }
    try model.write { try $0.update(2, in: \.notes) { $0.title = "c" } }
    scheduler.drain()
    // Neither commit changed a listed row, so the published revision stayed; the lens
    // still reflects both commits.
    #expect(lens.revision == 0)
    #expect(lens.renderedRevision == 2)
    #expect(check.mismatches.isEmpty)
    #expect(check.checkedCommits == 2)
    // A cancelled lens stops following and is reported.
    lens.cancel()
    try model.write { try $0.update(1, in: \.notes) { $0.title = "z" } }
    scheduler.drain()
    #expect(check.mismatches.map(\.description) == ["list rendered revision 2, the model is at 3"])
    check.cancel()
  }
}
