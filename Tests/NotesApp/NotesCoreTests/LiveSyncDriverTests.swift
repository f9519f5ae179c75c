// The sync driver's live timing, on a virtual clock: an edit is pushed at once, a burst
// costs one more sync, the user's Sync Now is refused while a sync runs, a failure is
// tried again after the service's delay unless a new reason comes first, the signal
// listener lives exactly as long as live sync, and nothing runs after stop().

import Airframe
import AirframeTesting
import Foundation
import NotesCore
import Testing

/// A sync service a test controls: it can hold the next sync at a gate, and fail.
@MainActor
final class HeldSyncs: SyncService {
  struct Offline: Error, CustomStringConvertible {
    var description: String { "offline" }
  }

  /// Whether each sync fails.
  var failing = false
  nonisolated let retryDelay: Duration?
  private var gate: Gate<Void>?
  private var held: Gate<Void>?

  init(retryDelay: Duration? = .seconds(1)) { self.retryDelay = retryDelay }

  /// Holds the next sync until ``release()``, which may come before that sync asks.
  func holdNext() {
    let gate = Gate<Void>()
    self.gate = gate
    held = gate
  }

  /// Lets the held sync finish.
  func release() async { await held?.open(returning: ()) }

  func sync(progress: @escaping @Sendable (Double) async -> Void) async throws -> Date {
    let held = gate
    gate = nil
    if let held { _ = try? await held.wait() }
    try Task.checkCancellation()
    if failing { throw Offline() }
    return Date(timeIntervalSince1970: 1)
  }
}

/// A signal listener that records whether it listens.
@MainActor
final class RecordedSignals: SyncSignalListener {
  private(set) var events: [String] = []
  func start() { events.append("start") }
  func stop() { events.append("stop") }
}

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct LiveSyncDriverTests {
  let now = Date(timeIntervalSinceReferenceDate: 1_000)

  @Test func anEditIsPushedAtOnceAndABurstCostsOneMoreSync() async throws {
    let model = Model(NotesState())
    let dispatcher = ActionDispatcher(model: model)
    let syncs = HeldSyncs()
    let scheduler = TestScheduler()
    // The model's status at each catch-up: every sync's end catches up before the sync
    // owed after it starts (which would say syncing).
    var statusesAtCatchUp: [SyncStatus] = []
    let driver = SyncDriver(model: model, service: syncs, scheduler: scheduler) {
      statusesAtCatchUp.append(model.state.sync)
    }
    driver.startLive(listeningTo: nil)
    defer { driver.stop() }
    await scheduler.runUntilIdle()
    #expect(driver.syncCount == 1, "a sync on start")
    #expect(driver.phase == .idle)

    // One edit: a sync on the next turn, with no time passing.
    #expect(dispatcher.dispatch(CreateNotebook(title: "A", now: now)).isCommitted)
    #expect(driver.syncCount == 1, "the sync started inside the commit's delivery")
    syncs.holdNext()
    scheduler.drain()
    #expect(driver.syncCount == 2)
    #expect(scheduler.now == .zero)

    // A burst while that sync is in flight: nothing more until it ends, then exactly one.
    for index in 0..<5 {
      #expect(dispatcher.dispatch(CreateNotebook(title: "B\(index)", now: now)).isCommitted)
      scheduler.drain()
    }
    #expect(driver.syncCount == 2)
    #expect(driver.phase == .running(again: true))
    await syncs.release()
    await scheduler.runUntilIdle()
    #expect(driver.syncCount == 3)
    await scheduler.runUntilIdle()
    #expect(driver.syncCount == 3, "a burst costs one more sync, not one per edit")
    #expect(driver.phase == .idle)
    let synced = SyncStatus.idle(lastSynced: Date(timeIntervalSince1970: 1))
    #expect(statusesAtCatchUp == [synced, synced, synced], "one catch-up after each sync")
    // Idle, the driver waits on nothing: no timer, no polling.
    #expect(scheduler.sleeperCount == 0)
    await scheduler.advance(by: .seconds(3_600))
    #expect(driver.syncCount == 3)
  }

  @Test func commitsOfOtherWritersStartNothing() async throws {
    let model = Model(NotesState())
    let scheduler = TestScheduler()
    let driver = SyncDriver(model: model, service: HeldSyncs(), scheduler: scheduler)
    driver.startLive(listeningTo: nil)
    defer { driver.stop() }
    await scheduler.runUntilIdle()
    try model.write(origin: .background("sync")) {
      $0.set(\.sync, to: .syncing(progress: 0.5, lastSynced: nil))
    }
    try model.write(origin: .external("another process")) {
      $0.set(\.sync, to: .idle(lastSynced: now))
    }
    await scheduler.runUntilIdle()
    #expect(driver.syncCount == 1)
  }

  @Test func theUsersSyncNowIsRefusedWhileAnAutomaticSyncRunsAndAnEditRunsOneMore() async {
    let model = Model(NotesState())
    let dispatcher = ActionDispatcher(model: model)
    let syncs = HeldSyncs()
    let scheduler = TestScheduler()
    let driver = SyncDriver(model: model, service: syncs, scheduler: scheduler)
    syncs.holdNext()
    driver.startLive(listeningTo: nil)
    defer { driver.stop() }
    // The policy each trigger declares: the user's is refused, the others coalesce.
    #expect(SyncTrigger.user.whileRunning == .rejectWhileRunning)
    #expect(SyncTrigger.allCases.filter { $0 != .user }.allSatisfy { $0.whileRunning == .coalesce })
    guard case .refused(let reason) = driver.request(.user) else {
      Issue.record("Sync Now started a second sync")
      return
    }
    #expect(reason == "A sync is running.")
    #expect(driver.phase == .running(again: false), "a refused request owes no sync")
    guard case .runsAfterTheCurrentOne = driver.request(.signal) else {
      Issue.record("a signal during a sync was not coalesced")
      return
    }
    #expect(dispatcher.dispatch(CreateNotebook(title: "A", now: now)).isCommitted)
    scheduler.drain()
    #expect(driver.syncCount == 1)
    await syncs.release()
    await scheduler.runUntilIdle()
    #expect(driver.syncCount == 2, "the signal and the edit cost one more sync")
    guard case .started(let sync) = driver.request(.user) else {
      Issue.record("Sync Now was refused with no sync running")
      return
    }
    await sync.value
    #expect(driver.syncCount == 3)
  }

  /// A live driver whose syncs fail until told otherwise, after its first sync failed.
  func failedLiveDriver(retryDelay: Duration) async -> (
    Model<NotesState>, HeldSyncs, TestScheduler, SyncDriver
  ) {
    let model = Model(NotesState())
    let syncs = HeldSyncs(retryDelay: retryDelay)
    syncs.failing = true
    let scheduler = TestScheduler()
    let driver = SyncDriver(model: model, service: syncs, scheduler: scheduler)
    driver.startLive(listeningTo: nil)
    await scheduler.runUntilIdle()
    return (model, syncs, scheduler, driver)
  }

  @Test func aFailedSyncIsTriedAgainAfterTheServicesDelay() async throws {
    let (model, _, scheduler, driver) = await failedLiveDriver(retryDelay: .seconds(2))
    defer { driver.stop() }
    #expect(driver.syncCount == 1)
    #expect(driver.phase == .waitingToRetry)
    #expect(model.state.sync == .failed(message: "offline", lastSynced: nil))
    await scheduler.advance(by: .milliseconds(1_999))
    #expect(driver.syncCount == 1, "tried again before the delay")
    await scheduler.advance(by: .milliseconds(1))
    #expect(driver.syncCount == 2)
  }

  @Test func aNewReasonDuringTheRetryWaitSyncsAtOnceAndEndsTheWait() async throws {
    let (model, syncs, scheduler, driver) = await failedLiveDriver(retryDelay: .seconds(30))
    defer { driver.stop() }
    #expect(scheduler.sleeperCount == 1, "the retry wait")
    syncs.failing = false
    driver.request(.signal)
    await scheduler.runUntilIdle()
    #expect(driver.syncCount == 2)
    #expect(model.state.sync == .idle(lastSynced: Date(timeIntervalSince1970: 1)))
    #expect(scheduler.sleeperCount == 0, "the wait was cancelled")
    await scheduler.advance(by: .seconds(60))
    #expect(driver.syncCount == 2)
  }

  @Test func withoutLiveSyncAFailureWaitsForTheUser() async {
    let model = Model(NotesState())
    let syncs = HeldSyncs(retryDelay: .seconds(1))
    syncs.failing = true
    let scheduler = TestScheduler()
    let driver = SyncDriver(model: model, service: syncs, scheduler: scheduler)
    driver.request(.user)
    await scheduler.runUntilIdle()
    #expect(driver.phase == .idle)
    #expect(scheduler.sleeperCount == 0)
    await scheduler.advance(by: .seconds(60))
    #expect(driver.syncCount == 1)
  }

  @Test func theSignalListenerLivesExactlyAsLongAsLiveSync() async {
    let model = Model(NotesState())
    let scheduler = TestScheduler()
    let driver = SyncDriver(model: model, service: HeldSyncs(), scheduler: scheduler)
    let signals = RecordedSignals()
    driver.startLive(listeningTo: signals)
    driver.startLive(listeningTo: signals)
    #expect(signals.events == ["start"])
    #expect(driver.isLive)
    await scheduler.runUntilIdle()
    driver.stop()
    driver.stop()
    #expect(signals.events == ["start", "stop"])
    #expect(!driver.isLive)
  }

  @Test func nothingRunsAfterStop() async throws {
    let model = Model(NotesState())
    let dispatcher = ActionDispatcher(model: model)
    let syncs = HeldSyncs()
    syncs.failing = true
    let scheduler = TestScheduler()
    let driver = SyncDriver(model: model, service: syncs, scheduler: scheduler)
    driver.startLive(listeningTo: nil)
    await scheduler.runUntilIdle()
    driver.stop()
    #expect(dispatcher.dispatch(CreateNotebook(title: "A", now: now)).isCommitted)
    guard case .refused(let reason) = driver.request(.signal) else {
      Issue.record("a stopped driver started a sync")
      return
    }
    #expect(reason == "The library is closed.")
    await scheduler.advance(by: .seconds(60))
    #expect(driver.syncCount == 1)
    #expect(scheduler.sleeperCount == 0)
  }

  @Test func stopCancelsTheRunningSyncAndItsEndStartsNothing() async {
    let previous = Date(timeIntervalSince1970: 7)
    let model = Model(NotesState(sync: .idle(lastSynced: previous)))
    let dispatcher = ActionDispatcher(model: model)
    let syncs = HeldSyncs()
    let scheduler = TestScheduler()
    var caughtUp = 0
    let driver = SyncDriver(model: model, service: syncs, scheduler: scheduler) {
      caughtUp += 1
    }
    syncs.holdNext()
    driver.startLive(listeningTo: nil)
    #expect(dispatcher.dispatch(CreateNotebook(title: "A", now: now)).isCommitted)
    scheduler.drain()
    #expect(driver.phase == .running(again: true))
    driver.stop()
    await syncs.release()
    await scheduler.runUntilIdle()
    #expect(driver.syncCount == 1)
    #expect(caughtUp == 0, "nothing runs for a sync that ended after stop")
    #expect(model.state.sync == .idle(lastSynced: previous))
  }
}
