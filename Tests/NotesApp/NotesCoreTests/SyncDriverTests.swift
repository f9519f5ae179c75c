import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

/// A sync service whose every step waits at a gate the test opens.
final class ScriptedSync: SyncService {
  let steps: [Gate<Double>]
  let finished = Date(timeIntervalSince1970: 5_000)
  init(steps: Int) { self.steps = (0..<steps).map { _ in Gate<Double>() } }

  func sync(progress: @escaping @Sendable (Double) async -> Void) async throws -> Date {
    for gate in steps {
      let value = try await gate.wait()
      try Task.checkCancellation()
      await progress(value)
    }
    return finished
  }
}

/// A sync service that succeeds at once, and after each sync reports the next count of
/// versions kept aside.
final class KeptAsideSync: SyncService, @unchecked Sendable {
  private var counts: [Int]
  init(counts: [Int]) { self.counts = counts }

  func sync(progress: @escaping @Sendable (Double) async -> Void) async throws -> Date {
    Date(timeIntervalSince1970: 10)
  }

  @MainActor func keptAsideCount() async -> Int { counts.removeFirst() }
}

extension SyncDriver {
  /// The user's Sync Now, as a task to await; `nil` if it was refused.
  @discardableResult
  func syncNow() -> Task<Void, Never>? {
    if case .started(let sync) = request(.user) { sync } else { nil }
  }
}

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct SyncDriverTests {
  func statuses(of model: Model<NotesState>) -> ValueRecorder<SyncStatus> {
    ValueRecorder { observer in
      model.observeCommits { commit in
        if commit.changes.changed(\.sync) { observer(commit.state.sync) }
      }
    }
  }

  @Test func progressThenSuccessDriveTheModelsSyncStatus() async {
    let model = Model(NotesState())
    let service = ScriptedSync(steps: 2)
    let driver = SyncDriver(model: model, service: service)
    let recorder = statuses(of: model)
    let run = driver.syncNow()
    #expect(driver.syncNow() == nil)
    await service.steps[0].open(returning: 0.5)
    await service.steps[1].open(returning: 1)
    await run?.value
    #expect(
      recorder.values == [
        .syncing(progress: 0, lastSynced: nil), .syncing(progress: 0.5, lastSynced: nil),
        .syncing(progress: 1, lastSynced: nil), .idle(lastSynced: service.finished),
      ])
    #expect(!driver.isSyncing)
    #expect(model.revision == 4)
  }

  @Test func versionsKeptAsideBySyncShowInTheStatusBarUntilNoneAreLeft() async {
    let model = Model(NotesState())
    let service = KeptAsideSync(counts: [2, 1, 0])
    let driver = SyncDriver(model: model, service: service)
    let statusBar = StatusBarController(model: model)
    defer { statusBar.cancel() }
    var shown: [String] = []
    for _ in 0..<3 {
      await driver.syncNow()?.value
      shown.append(statusBar.status.value.sync)
    }
    #expect(
      shown == ["Synced, 2 bad versions kept aside", "Synced, 1 bad version kept aside", "Synced"])
    #expect(model.state.syncKeptAside == 0)
    #expect(statusBar.differenceFromModel() == nil)
  }

  @Test func aFailureIsShownWithItsMessageAndARetrySucceeds() async {
    let model = Model(NotesState(sync: .idle(lastSynced: Date(timeIntervalSince1970: 1))))
    let failing = SyncDriver(
      model: model,
      service: SimulatedSyncService(
        steps: 3, stepDelay: .zero, failure: .atStep(2, "Server unavailable")))
    await failing.syncNow()?.value
    #expect(
      model.state.sync
        == .failed(message: "Server unavailable", lastSynced: Date(timeIntervalSince1970: 1)))
    let later = Date(timeIntervalSince1970: 9)
    let working = SyncDriver(
      model: model, service: SimulatedSyncService(steps: 3, stepDelay: .zero) { later })
    await working.syncNow()?.value
    #expect(model.state.sync == .idle(lastSynced: later))
  }

  @Test func cancellingReturnsToIdleWithThePreviousTime() async {
    let previous = Date(timeIntervalSince1970: 7)
    let model = Model(NotesState(sync: .idle(lastSynced: previous)))
    let service = ScriptedSync(steps: 1)
    let driver = SyncDriver(model: model, service: service)
    let run = driver.syncNow()
    #expect(await service.steps[0].waitForWaiters(1))
    driver.cancel()
    await service.steps[0].open(returning: 1)
    await run?.value
    #expect(model.state.sync == .idle(lastSynced: previous))
  }

  @Test func syncStatusChangesAreNotUndoSteps() async throws {
    let model = Model(NotesState())
    let dispatcher = ActionDispatcher(model: model)
    let driver = SyncDriver(
      model: model, service: SimulatedSyncService(steps: 1, stepDelay: .zero))
    let added = dispatcher.dispatch(
      CreateNotebook(title: "Home", now: Date(timeIntervalSince1970: 1)))
    #expect(added.isCommitted)
    let revision = model.revision
    await driver.syncNow()?.value
    // The sync committed (syncing, then idle) …
    #expect(model.revision == revision + 3)
    #expect(model.state.sync.lastSynced != nil)
    // … but the undo history still names the user's step, and undoing reverts it only.
    #expect(dispatcher.undoAvailability.value.undoName == "New Notebook")
    #expect(dispatcher.undo().isCommitted)
    #expect(model.state.notebooks.elements.isEmpty)
    #expect(model.state.sync.lastSynced != nil)
    #expect(dispatcher.undoAvailability.value.undoName == nil)
  }

  @Test func stepDelaysRunOnTheSchedulersClock() async {
    let scheduler = TestScheduler()
    let model = Model(NotesState())
    let driver = SyncDriver(
      model: model,
      service: SimulatedSyncService(steps: 2, stepDelay: .seconds(1), scheduler: scheduler),
      scheduler: scheduler)
    driver.syncNow()
    await scheduler.runUntilIdle()
    #expect(model.state.sync == .syncing(progress: 0, lastSynced: nil))
    await scheduler.advance(by: .seconds(1))
    #expect(model.state.sync == .syncing(progress: 0.5, lastSynced: nil))
    await scheduler.advance(by: .seconds(1))
    #expect(!driver.isSyncing)
    #expect(model.state.sync.lastSynced != nil)
  }

  /// A driver whose syncs take `steps` steps of 200 ms each on `scheduler`'s clock.
  func timedDriver(
    _ model: Model<NotesState>, steps: Int, scheduler: TestScheduler,
    failure: SimulatedSyncService.Failure? = nil
  ) -> SyncDriver {
    SyncDriver(
      model: model,
      service: SimulatedSyncService(
        steps: steps, stepDelay: .milliseconds(200), failure: failure, scheduler: scheduler),
      scheduler: scheduler)
  }

  /// The window title's and the status bar's controllers over `model`, with the delay and
  /// the clock given.
  func views(
    of model: Model<NotesState>, delay: Duration, scheduler: TestScheduler
  ) -> (title: WindowTitleController, status: StatusBarController) {
    (
      WindowTitleController(model: model, syncDelay: delay, scheduler: scheduler),
      StatusBarController(model: model, syncDelay: delay, scheduler: scheduler)
    )
  }

  @Test func theModelSaysSyncingAtOnceAndTheTitleAndStatusBarOnlyAfterTheirDelay() async {
    let scheduler = TestScheduler()
    let model = Model(NotesState())
    let driver = timedDriver(model, steps: 4, scheduler: scheduler)
    let (title, status) = views(of: model, delay: .milliseconds(500), scheduler: scheduler)
    defer {
      title.cancel()
      status.cancel()
    }
    driver.syncNow()
    // The model tells the truth from the first moment …
    #expect(model.state.sync == .syncing(progress: 0, lastSynced: nil))
    #expect(title.title.value == "Notes" && status.status.value.sync == "Not synced")
    await scheduler.advance(by: .milliseconds(400))
    #expect(model.state.sync == .syncing(progress: 0.5, lastSynced: nil))
    // … the views keep showing what they showed before, until the sync has lasted 500 ms.
    #expect(title.title.value == "Notes" && status.status.value.sync == "Not synced")
    #expect(title.differenceFromModel() == nil && status.differenceFromModel() == nil)
    await scheduler.advance(by: .milliseconds(100))
    #expect(title.title.value == "Notes — Syncing 50%")
    #expect(status.status.value.sync == "Syncing 50%")
    await scheduler.advance(by: .milliseconds(100))
    #expect(status.status.value.sync == "Syncing 75%")
    await scheduler.advance(by: .milliseconds(200))
    #expect(!driver.isSyncing)
    #expect(title.title.value == "Notes" && status.status.value.sync == "Synced")
    #expect(title.differenceFromModel() == nil && status.differenceFromModel() == nil)
    #expect(scheduler.sleeperCount == 0)
  }

  @Test func aSyncAlreadyRunningWhenTheViewsAreMadeShowsAtOnce() async {
    // A window opened while a sync runs (New Window, or a second presentation): the sync
    // has lasted an unknown time, so it shows from the views' first value.
    let scheduler = TestScheduler()
    let model = Model(NotesState())
    let driver = timedDriver(model, steps: 2, scheduler: scheduler)
    driver.syncNow()
    let (title, status) = views(of: model, delay: .milliseconds(500), scheduler: scheduler)
    defer {
      title.cancel()
      status.cancel()
    }
    #expect(title.title.value == "Notes — Syncing 0%")
    #expect(status.status.value.sync == "Syncing 0%")
    #expect(title.differenceFromModel() == nil && status.differenceFromModel() == nil)
    await scheduler.advance(by: .milliseconds(200))
    #expect(status.status.value.sync == "Syncing 50%")
    await scheduler.advance(by: .milliseconds(200))
    #expect(title.title.value == "Notes" && status.status.value.sync == "Synced")
    #expect(scheduler.sleeperCount == 0)
  }

  @Test func aSyncShorterThanTheDelayNeverShowsButItsEndDoes() async {
    let scheduler = TestScheduler()
    let model = Model(NotesState())
    let driver = timedDriver(model, steps: 2, scheduler: scheduler)
    let (title, status) = views(of: model, delay: .milliseconds(500), scheduler: scheduler)
    defer {
      title.cancel()
      status.cancel()
    }
    let titles = ValueRecorder { title.title.observe($0) }
    let bars = ValueRecorder { status.status.observe($0) }
    let modelStatuses = statuses(of: model)
    driver.syncNow()
    await scheduler.advance(by: .milliseconds(400))
    #expect(!driver.isSyncing)
    #expect(modelStatuses.values.first == .syncing(progress: 0, lastSynced: nil))
    #expect(titles.values == ["Notes"])
    #expect(bars.values.map(\.sync) == ["Not synced", "Synced"])
    // The delay's timer ended with the sync: nothing waits while no sync runs.
    #expect(scheduler.sleeperCount == 0)
    await scheduler.advance(by: .seconds(1))
    #expect(titles.values == ["Notes"])
  }

  @Test func aFailureShowsAtOnceAndACancelledSyncLeavesTheViewsAsTheyWere() async {
    let scheduler = TestScheduler()
    let previous = Date(timeIntervalSince1970: 7)
    let model = Model(NotesState(sync: .idle(lastSynced: previous)))
    let (title, status) = views(of: model, delay: .milliseconds(500), scheduler: scheduler)
    defer {
      title.cancel()
      status.cancel()
    }
    let failing = timedDriver(
      model, steps: 3, scheduler: scheduler, failure: .atStep(1, "Server unavailable"))
    failing.syncNow()
    await scheduler.advance(by: .milliseconds(200))
    #expect(model.state.sync == .failed(message: "Server unavailable", lastSynced: previous))
    #expect(status.status.value.sync == "Sync failed: Server unavailable")
    #expect(title.title.value == "Notes — Sync failed")

    let cancelled = Model(NotesState(sync: .idle(lastSynced: previous)))
    let (cancelledTitle, cancelledStatus) = views(
      of: cancelled, delay: .milliseconds(500), scheduler: scheduler)
    defer {
      cancelledTitle.cancel()
      cancelledStatus.cancel()
    }
    let bars = ValueRecorder { cancelledStatus.status.observe($0) }
    let driver = timedDriver(cancelled, steps: 3, scheduler: scheduler)
    driver.syncNow()
    await scheduler.runUntilIdle()
    driver.cancel()
    await scheduler.runUntilIdle()
    #expect(!driver.isSyncing)
    #expect(cancelled.state.sync == .idle(lastSynced: previous))
    #expect(bars.values.map(\.sync) == ["Synced"])
    #expect(scheduler.sleeperCount == 0)
  }

  @Test func withNoDelayEverySyncShowsFromItsFirstMoment() async {
    let scheduler = TestScheduler()
    let model = Model(NotesState())
    let driver = timedDriver(model, steps: 2, scheduler: scheduler)
    let (title, status) = views(of: model, delay: .zero, scheduler: scheduler)
    defer {
      title.cancel()
      status.cancel()
    }
    driver.syncNow()
    #expect(title.title.value == "Notes — Syncing 0%")
    #expect(status.status.value.sync == "Syncing 0%")
    await scheduler.advance(by: .milliseconds(400))
    #expect(status.status.value.sync == "Synced")
  }
}
