import Airframe
import AirframeTesting
import Testing

struct Note: Identifiable, Equatable, Sendable {
  let id: Int
  var title: String
}

struct Library: Equatable, Sendable {
  var notes = EntityTable<Note>()
  var syncStatus = "idle"
}

/// Records what the funnel persisted; can be told to fail.
@MainActor
final class RecordingStorage: ModelStorage {
  struct Failure: Error, CustomStringConvertible {
    var description: String { "disk full" }
  }

  var persisted: [Commit<Library>] = []
  var fails = false
  var stateSeenWhilePersisting: [Library] = []
  var revisionSeenWhilePersisting: [Int] = []
  weak var model: Model<Library>?
  var writeAttemptWhilePersisting: (any Error)?

  func persist(_ commit: Commit<Library>) throws {
    if let model {
      stateSeenWhilePersisting.append(model.state)
      revisionSeenWhilePersisting.append(model.revision)
      do {
        try model.write(origin: .background("test")) { $0.set(\.syncStatus, to: "nested") }
      } catch {
        writeAttemptWhilePersisting = error
      }
    }
    if fails { throw Failure() }
    persisted.append(commit)
  }
}

@Suite(.noLiveBindings)
@MainActor
struct ModelTests {
  @Test func aCommitChangesStateAndPostsOneNotificationWithItsChanges() throws {
    let model = Model(Library())
    let commits = ValueRecorder(subscribe: model.observeCommits)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(Note(id: 1, title: "Groceries"), into: \.notes)
      try transaction.insert(Note(id: 2, title: "Books"), into: \.notes)
      transaction.set(\.syncStatus, to: "dirty")
    }
    #expect(model.revision == 1)
    #expect(model.state.notes.count == 2)
    #expect(commits.values.count == 1)
    let commit = try #require(commits.values.first)
    #expect(commit.revision == 1)
    #expect(commit.changes.changes(in: \.notes) == EntityChanges(inserted: [1, 2]))
    #expect(commit.changes.changed(\.syncStatus))
    #expect(commit.state == model.state)
  }

  @Test func theWriterLearnsOfItsChangeTheSameWayAsEveryObserver() throws {
    let model = Model(Library())
    var order: [String] = []
    let first = model.observeCommits { _ in order.append("list") }
    let second = model.observeCommits { _ in order.append("editor (the writer)") }
    try model.write(origin: .background("test")) {
      try $0.insert(Note(id: 1, title: "a"), into: \.notes)
    }
    order.append("write returned")
    #expect(order == ["list", "editor (the writer)", "write returned"])
    first.cancel()
    second.cancel()
  }

  @Test func aWriteThatChangesNothingIsNotACommit() throws {
    let storage = RecordingStorage()
    let model = Model(Library(notes: EntityTable([Note(id: 1, title: "a")])), storage: storage)
    let commits = ValueRecorder(subscribe: model.observeCommits)
    try model.write(origin: .background("test")) { transaction in
      try transaction.update(1, in: \.notes) { $0.title = "a" }
      transaction.set(\.syncStatus, to: "idle")
    }
    #expect(model.revision == 0)
    #expect(commits.values.isEmpty)
    #expect(storage.persisted.isEmpty)
  }

  @Test func aThrowingBodyChangesNothing() {
    let storage = RecordingStorage()
    let model = Model(Library(), storage: storage)
    let commits = ValueRecorder(subscribe: model.observeCommits)
    #expect(throws: ModelError.duplicateID(table: "notes", id: "1")) {
      try model.write(origin: .background("test")) { transaction in
        try transaction.insert(Note(id: 1, title: "a"), into: \.notes)
        try transaction.insert(Note(id: 1, title: "again"), into: \.notes)
      }
    }
    #expect(model.state == Library())
    #expect(model.revision == 0)
    #expect(commits.values.isEmpty)
    #expect(storage.persisted.isEmpty)
  }

  @Test func aStorageFailureLeavesTheStateExactlyAsBefore() throws {
    let storage = RecordingStorage()
    let model = Model(Library(), storage: storage)
    try model.write(origin: .background("test")) {
      try $0.insert(Note(id: 1, title: "kept"), into: \.notes)
    }
    let before = model.state
    let commits = ValueRecorder(subscribe: model.observeCommits)
    storage.fails = true
    #expect(throws: ModelError.storageFailed("disk full")) {
      try model.write(origin: .background("test")) {
        try $0.update(1, in: \.notes) { $0.title = "lost" }
      }
    }
    #expect(model.state == before)
    #expect(model.revision == 1)
    #expect(commits.values.isEmpty)
    #expect(storage.persisted.map(\.revision) == [1])
  }

  @Test func storageRunsInsideTheFunnelBeforeTheCommitIsPosted() throws {
    let storage = RecordingStorage()
    let model = Model(Library(), storage: storage)
    storage.model = model
    var postedWhilePersisting = false
    let observer = model.observeCommits { _ in
      postedWhilePersisting = storage.persisted.isEmpty
    }
    try model.write(origin: .background("test")) {
      try $0.insert(Note(id: 1, title: "a"), into: \.notes)
    }
    // Inside the funnel the state reads its own writes; the revision and the notification
    // come only after storage succeeded.
    #expect(storage.stateSeenWhilePersisting == [model.state])
    #expect(storage.revisionSeenWhilePersisting == [0])
    #expect(!postedWhilePersisting)
    #expect(storage.writeAttemptWhilePersisting as? ModelError == .reentrantWrite)
    #expect(storage.persisted.first?.state == model.state)
    #expect(model.state.syncStatus == "idle")
    observer.cancel()
  }

  @Test func aFailedWriteRevertsEveryKindOfChangeInPlace() throws {
    let start = Library(
      notes: EntityTable([Note(id: 1, title: "one"), Note(id: 2, title: "two")]),
      syncStatus: "idle")
    let storage = RecordingStorage()
    let model = Model(start, storage: storage)
    storage.fails = true
    #expect(throws: ModelError.storageFailed("disk full")) {
      try model.write(origin: .background("test")) { transaction in
        try transaction.update(1, in: \.notes) { $0.title = "changed" }
        try transaction.remove(2, from: \.notes)
        try transaction.insert(Note(id: 3, title: "three"), into: \.notes)
        try transaction.insert(Note(id: 2, title: "two again"), into: \.notes)
        transaction.set(\.syncStatus, to: "dirty")
        transaction.set(\.syncStatus, to: "dirtier")
      }
    }
    #expect(model.state == start)
    #expect(model.revision == 0)
    storage.fails = false
    try model.write(origin: .background("test")) {
      try $0.update(1, in: \.notes) { $0.title = "after" }
    }
    #expect(model.state.notes[1]?.title == "after")
    #expect(model.state.notes.count == 2)
  }

  @Test func aWriteFromACommitObserverIsRejectedAndChangesNothing() throws {
    let model = Model(Library())
    var rejection: (any Error)?
    let observer = model.observeCommits { _ in
      do {
        try model.write(origin: .background("test")) { $0.set(\.syncStatus, to: "from observer") }
      } catch {
        rejection = error
      }
    }
    try model.write(origin: .background("test")) {
      try $0.insert(Note(id: 1, title: "a"), into: \.notes)
    }
    #expect(rejection as? ModelError == .reentrantWrite)
    #expect(model.state.syncStatus == "idle")
    #expect(model.revision == 1)
    observer.cancel()
  }

  @Test func aWriteInsideAWriteIsRejected() throws {
    let model = Model(Library())
    var inner: (any Error)?
    try model.write(origin: .background("test")) { transaction in
      do {
        try model.write(origin: .background("test")) { $0.set(\.syncStatus, to: "inner") }
      } catch { inner = error }
      transaction.set(\.syncStatus, to: "outer")
    }
    #expect(inner as? ModelError == .reentrantWrite)
    #expect(model.state.syncStatus == "outer")
    #expect(!model.isBusy)
  }

  @Test func anObserverSchedulesItsFollowUpWriteOnTheMainActor() async throws {
    let model = Model(Library())
    let scheduler = TestScheduler()  // in the app: `.mainActor`, one main-actor task a job
    let observer = model.observeCommits { commit in
      guard commit.changes.changes(in: \.notes).inserted.contains(1) else { return }
      #expect(throws: ModelError.reentrantWrite) {
        try model.write(origin: .background("test")) { $0.set(\.syncStatus, to: "x") }
      }
      scheduler.schedule {
        try? model.write(origin: .background("test")) { $0.set(\.syncStatus, to: "dirty") }
      }
    }
    try model.write(origin: .background("test")) {
      try $0.insert(Note(id: 1, title: "a"), into: \.notes)
    }
    #expect(model.revision == 1)
    #expect(scheduler.drain() == 1)
    #expect(model.revision == 2)
    #expect(model.state.syncStatus == "dirty")
    observer.cancel()
  }

  @Test func backgroundWorkReachesTheModelByReturningToTheMainActor() async throws {
    let model = Model(Library())
    var commits: [(revision: Int, origin: CommitOrigin)] = []
    let observation = model.observeCommits { commits.append(($0.revision, $0.origin)) }
    // The work runs off the main actor and cannot touch the model there (the compiler
    // refuses); it hands its result back, and the write happens after the `await`.
    let title = await Task.detached { "computed off the main actor".uppercased() }.value
    try model.write(origin: .background("title import")) {
      try $0.insert(Note(id: 9, title: title), into: \.notes)
    }
    #expect(model.state.notes[9]?.title == "COMPUTED OFF THE MAIN ACTOR")
    // One commit, one notification, carrying where it came from.
    #expect(commits.map(\.revision) == [1])
    #expect(commits.map(\.origin) == [.background("title import")])
    observation.cancel()
  }

  @Test func missingIdsAreRejected() {
    let model = Model(Library())
    #expect(throws: ModelError.missingID(table: "notes", id: "4")) {
      try model.write(origin: .background("test")) {
        try $0.update(4, in: \.notes) { $0.title = "x" }
      }
    }
    #expect(throws: ModelError.missingID(table: "notes", id: "4")) {
      try model.write(origin: .background("test")) { try $0.remove(4, from: \.notes) }
    }
    #expect(
      ModelError.missingID(table: "notes", id: "4").description == "notes has no item with id 4.")
  }
}

@Suite(.noLiveBindings)
@MainActor
struct ChangeSetTests {
  func changes(
    startingWith notes: [Note],
    _ body: (inout Transaction<Library>) throws -> Void
  ) throws -> EntityChanges<Int> {
    let model = Model(Library(notes: EntityTable(notes)))
    var captured = EntityChanges<Int>()
    let observer = model.observeCommits { captured = $0.changes.changes(in: \.notes) }
    try model.write(origin: .background("test"), body)
    observer.cancel()
    return captured
  }

  @Test func insertThenUpdateIsAnInsert() throws {
    let result = try changes(startingWith: []) {
      try $0.insert(Note(id: 1, title: "a"), into: \.notes)
      try $0.update(1, in: \.notes) { $0.title = "b" }
    }
    #expect(result == EntityChanges(inserted: [1]))
  }

  @Test func insertThenRemoveIsNothing() throws {
    let model = Model(Library())
    try model.write(origin: .background("test")) {
      try $0.insert(Note(id: 1, title: "a"), into: \.notes)
      try $0.remove(1, from: \.notes)
    }
    #expect(model.revision == 0)
  }

  @Test func updateThenRemoveIsARemoval() throws {
    let result = try changes(startingWith: [Note(id: 1, title: "a")]) {
      try $0.update(1, in: \.notes) { $0.title = "b" }
      try $0.remove(1, from: \.notes)
    }
    #expect(result == EntityChanges(removed: [1]))
  }

  @Test func removeThenInsertIsAnUpdate() throws {
    let result = try changes(startingWith: [Note(id: 1, title: "a")]) {
      try $0.remove(1, from: \.notes)
      try $0.insert(Note(id: 1, title: "b"), into: \.notes)
    }
    #expect(result == EntityChanges(updated: [1]))
  }

  @Test func untouchedTablesReportNoChanges() throws {
    let model = Model(Library())
    var touched: [AnyKeyPath] = []
    let observer = model.observeCommits { touched = $0.changes.changedTables }
    try model.write(origin: .background("test")) { $0.set(\.syncStatus, to: "syncing") }
    #expect(touched.isEmpty)
    observer.cancel()
  }
}
