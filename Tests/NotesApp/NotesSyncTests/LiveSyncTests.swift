// LiveSync's timing, on a virtual clock: an edit is pushed at once, a burst costs one more
// sync, a failure is tried again after the service's delay, a sync the user started is
// asked about again shortly, and nothing runs after stop().

import Airframe
import AirframeTesting
import Foundation
import NotesCore
import Testing

@testable import NotesSync

/// Syncs a test controls: each is counted, and one can be held until the test opens it.
@MainActor
final class ScriptedSyncs {
  /// How many syncs were started.
  private(set) var started = 0
  /// Whether a sync the driver did not start is running (startSync then returns nil).
  var userSyncRunning = false
  /// The gate the next sync will wait at, if it is to be held.
  private var gate: Gate<Void>?
  /// The gate the held sync waits at.
  private var held: Gate<Void>?
  /// What a sync does when it runs (such as recording a failure).
  var body: @MainActor () -> Void = {}

  /// Holds the next sync started until ``release()``.
  func holdNext() { gate = Gate() }

  /// Lets the held sync finish.
  func release() async { await held?.open(returning: ()) }

  func start() -> Task<Void, Never>? {
    guard !userSyncRunning else { return nil }
    started += 1
    let held = gate
    self.held = held ?? self.held
    gate = nil
    let body = body
    return Task { @MainActor in
      if let held { _ = try? await held.wait() }
      body()
    }
  }
}

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct LiveSyncTests {
  let now = Date(timeIntervalSinceReferenceDate: 1_000)

  func makeDriver(
    _ model: Model<NotesState>, _ syncs: ScriptedSyncs, _ scheduler: TestScheduler,
    retryDelay: Duration? = .seconds(1)
  ) -> LiveSync {
    LiveSync(
      model: model, retryDelay: { retryDelay }, serverURL: nil, deviceID: "device",
      sender: "sender",
      startSync: { syncs.start() }, caughtUp: {}, scheduler: scheduler)
  }

  @Test func anEditIsPushedAtOnceAndABurstCostsOneMoreSync() async throws {
    let model = Model(NotesState())
    let dispatcher = ActionDispatcher(model: model)
    let syncs = ScriptedSyncs()
    let scheduler = TestScheduler()
    let live = makeDriver(model, syncs, scheduler)
    live.start()
    defer { live.stop() }
    await scheduler.runUntilIdle()
    #expect(syncs.started == 1, "a sync on start")

    // One edit: a sync on the next turn, with no time passing.
    #expect(dispatcher.dispatch(CreateNotebook(title: "A", now: now)).isCommitted)
    #expect(syncs.started == 1, "the sync started inside the commit's delivery")
    syncs.holdNext()
    scheduler.drain()
    #expect(syncs.started == 2)
    #expect(scheduler.now == .zero)

    // A burst while that sync is in flight: nothing more until it ends, then exactly one.
    for index in 0..<5 {
      #expect(dispatcher.dispatch(CreateNotebook(title: "B\(index)", now: now)).isCommitted)
      scheduler.drain()
    }
    #expect(syncs.started == 2)
    await syncs.release()
    await scheduler.runUntilIdle()
    #expect(syncs.started == 3)
    #expect(live.syncCount == 3)
    await scheduler.runUntilIdle()
    #expect(syncs.started == 3, "a burst costs one more sync, not one per edit")
  }

  @Test func commitsOfOtherWritersStartNothing() async throws {
    let model = Model(NotesState())
    let syncs = ScriptedSyncs()
    let scheduler = TestScheduler()
    let live = makeDriver(model, syncs, scheduler)
    live.start()
    defer { live.stop() }
    await scheduler.runUntilIdle()
    try model.write(origin: .background("sync")) {
      $0.set(\.sync, to: .syncing(progress: 0.5, lastSynced: nil))
    }
    try model.write(origin: .external("another process")) {
      $0.set(\.sync, to: .idle(lastSynced: now))
    }
    await scheduler.runUntilIdle()
    #expect(syncs.started == 1)
  }

  @Test func aFailedSyncIsTriedAgainAfterTheServicesDelay() async throws {
    let model = Model(NotesState())
    let syncs = ScriptedSyncs()
    syncs.body = {
      try? model.write(origin: .background("sync")) {
        $0.set(\.sync, to: .failed(message: "offline", lastSynced: nil))
      }
    }
    let scheduler = TestScheduler()
    let live = makeDriver(model, syncs, scheduler, retryDelay: .seconds(2))
    live.start()
    defer { live.stop() }
    await scheduler.runUntilIdle()
    #expect(syncs.started == 1)
    await scheduler.advance(by: .milliseconds(1_999))
    #expect(syncs.started == 1, "tried again before the delay")
    await scheduler.advance(by: .milliseconds(1))
    #expect(syncs.started == 2)
  }

  @Test func aSyncTheUserStartedIsAskedAboutAgainShortly() async throws {
    let model = Model(NotesState())
    let syncs = ScriptedSyncs()
    syncs.userSyncRunning = true
    let scheduler = TestScheduler()
    let live = makeDriver(model, syncs, scheduler)
    live.start()
    defer { live.stop() }
    await scheduler.advance(by: LiveSync.busyDelay - .milliseconds(1))
    #expect(syncs.started == 0)
    syncs.userSyncRunning = false
    await scheduler.advance(by: .milliseconds(1))
    #expect(syncs.started == 1)
  }

  @Test func nothingRunsAfterStop() async throws {
    let model = Model(NotesState())
    let dispatcher = ActionDispatcher(model: model)
    let syncs = ScriptedSyncs()
    syncs.body = {
      try? model.write(origin: .background("sync")) {
        $0.set(\.sync, to: .failed(message: "offline", lastSynced: nil))
      }
    }
    let scheduler = TestScheduler()
    let live = makeDriver(model, syncs, scheduler)
    live.start()
    await scheduler.runUntilIdle()
    live.stop()
    #expect(dispatcher.dispatch(CreateNotebook(title: "A", now: now)).isCommitted)
    live.request()
    await scheduler.advance(by: .seconds(60))
    #expect(syncs.started == 1)
    #expect(scheduler.sleeperCount == 0)
  }
}
