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
    try model.write(origin: .background("test")) {
      try $0.insert(Note(id: 1, title: "a"), into: \.notes)
    }
    try model.write(origin: .background("test")) {
      try $0.update(1, in: \.notes) { $0.title = "b" }
    }
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
    try model.write(origin: .background("test")) {
      try $0.insert(Note(id: 1, title: "a"), into: \.notes)
    }
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
    try model.write(origin: .background("test")) { $0.set(\.syncStatus, to: "syncing") }
    try model.write(origin: .background("test")) {
      try $0.update(2, in: \.notes) { $0.title = "c" }
    }
    scheduler.drain()
    // Neither commit changed a listed row, so the published revision stayed; the lens
    // still reflects both commits.
    #expect(lens.revision == 0)
    #expect(lens.renderedRevision == 2)
    #expect(check.mismatches.isEmpty)
    #expect(check.checkedCommits == 2)
    // A cancelled lens stops following and is reported.
    lens.cancel()
    try model.write(origin: .background("test")) {
      try $0.update(1, in: \.notes) { $0.title = "z" }
    }
    scheduler.drain()
    #expect(check.mismatches.map(\.description) == ["list rendered revision 2, the model is at 3"])
    check.cancel()
  }

  /// A controller that keeps up with every revision but shows what it is told.
  @MainActor
  final class DriftingController: ViewStateController {
    private let model: Model<Library>
    var shownCount: Int
    private var lifetime: Lifetime?
    private(set) var renderedRevision = 0
    init(model: Model<Library>) {
      self.model = model
      shownCount = model.state.notes.count
      lifetime = model.observeCommits { [weak self] commit in
        self?.renderedRevision = commit.revision
      }
    }
    func differenceFromModel() -> String? {
      shownCount == model.state.notes.count
        ? nil : "shows \(shownCount) notes; the model has \(model.state.notes.count)"
    }
    func cancel() { lifetime?.cancel() }
  }

  @Test func aControllerAtTheRightRevisionWithWrongContentIsReported() throws {
    let model = Model(Library())
    let scheduler = TestScheduler()
    let check = ConsistencyCheck(model: model, scheduler: scheduler)
    let controller = DriftingController(model: model)
    check.register("counter", controller)
    try model.write(origin: .background("test")) {
      try $0.insert(Note(id: 1, title: "a"), into: \.notes)
    }
    scheduler.drain()
    #expect(
      check.mismatches.map(\.description) == [
        "counter at revision 1 differs from the model: shows 0 notes; the model has 1"
      ])
    #expect(check.mismatches.first?.problem == .differs("shows 0 notes; the model has 1"))
    controller.shownCount = 1
    #expect(check.verify().isEmpty)
    controller.cancel()
    check.cancel()
  }

  @Test func aListLensWhoseFilterChangedUnseenIsReported() throws {
    let model = Model(
      Library(notes: EntityTable([Note(id: 1, title: "a"), Note(id: 2, title: "b")])))
    let check = ConsistencyCheck(model: model, scheduler: TestScheduler())
    // A filter that reads state outside the row breaks the filter's contract; the lens
    // cannot know when it changes, and the content check is what finds it.
    final class Threshold { var value = 3 }
    let threshold = Threshold()
    let lens = ListLens(
      model: model, table: \.notes, order: .by(\.title),
      filter: ListFilter { $0.id < threshold.value })
    check.register("list", lens)
    #expect(check.verify().isEmpty)
    threshold.value = 2
    #expect(
      check.verify().map(\.description) == [
        "list at revision 0 differs from the model: lists 2 rows; the model gives 1"
      ])
    lens.reload()
    #expect(check.verify().isEmpty)
    lens.cancel()
  }

  @Test func aReleasedControllerIsReportedNotPassed() {
    let model = Model(Library())
    let check = ConsistencyCheck(model: model, scheduler: TestScheduler())
    var lens: ListLens<Library, Note, Note>? = ListLens(
      model: model, table: \.notes, order: .by(\.title))
    check.register("list", lens!)
    #expect(check.verify().isEmpty)
    lens?.cancel()
    lens = nil
    #expect(
      check.verify().map(\.description) == [
        "list was released while registered (the model is at 0)"
      ])
    check.unregister("list")
    #expect(check.verify().isEmpty)
  }
}
