// The sync driver's decisions as a value: each row of the state table, and a random walk
// that checks the machine's guarantees over long sequences of events.

import AirframeTesting
import NotesCore
import Testing

struct SyncMachineTests {
  typealias Machine = SyncMachine

  /// A machine taken through `events`, ignoring what they return.
  func machine(after events: [Machine.Event]) -> Machine {
    var machine = Machine()
    for event in events { _ = machine.handle(event) }
    return machine
  }

  @Test func idleStartsASyncForAnyRequest() {
    for trigger in SyncTrigger.allCases {
      var machine = Machine()
      #expect(machine.handle(.requested(trigger)) == [.startSync])
      #expect(machine.phase == .running(again: false))
    }
  }

  @Test func whileRunningTheUserIsRefusedAndEveryOtherTriggerIsOwedOneMoreSync() {
    var machine = machine(after: [.requested(.user)])
    #expect(machine.handle(.requested(.user)) == [.refuse("A sync is running.")])
    #expect(machine.phase == .running(again: false))
    for trigger in SyncTrigger.allCases where trigger != .user {
      #expect(machine.handle(.requested(trigger)) == [])
      #expect(machine.phase == .running(again: true))
    }
    #expect(machine.handle(.finished(.succeeded)) == [.catchUp, .startSync])
    #expect(machine.phase == .running(again: false))
    #expect(machine.handle(.finished(.succeeded)) == [.catchUp])
    #expect(machine.phase == .idle)
  }

  @Test func commitsAskForOneTurnAndTheTurnIsAnEditsRequest() {
    var machine = Machine()
    #expect(machine.handle(.committed) == [.askOnNextTurn])
    #expect(machine.handle(.committed) == [])
    #expect(machine.isTurnAsked)
    #expect(machine.handle(.turnCame) == [.startSync])
    #expect(!machine.isTurnAsked)
    #expect(machine.handle(.committed) == [.askOnNextTurn])
  }

  @Test func aFailureOfALiveLibraryWaitsToRetryAndAnyReasonEndsTheWait() {
    var live = machine(after: [.startLive])
    #expect(
      live.handle(.finished(.failed(retryAfter: .seconds(2)))) == [
        .catchUp, .setRetryTimer(.seconds(2)),
      ])
    #expect(live.phase == .waitingToRetry)
    #expect(live.handle(.finished(.succeeded)) == [], "no sync runs to finish")
    #expect(live.handle(.requested(.edit)) == [.cancelRetryTimer, .startSync])
    #expect(
      live.handle(.finished(.failed(retryAfter: .seconds(4)))) == [
        .catchUp, .setRetryTimer(.seconds(4)),
      ])
    #expect(live.handle(.retryTimerFired) == [.startSync])
    #expect(live.handle(.retryTimerFired) == [], "a late timer starts nothing")
    // A failure with no delay waits for the next reason.
    #expect(live.handle(.finished(.failed(retryAfter: nil))) == [.catchUp])
    #expect(live.phase == .idle)

    // Not live: the user tries again.
    var manual = machine(after: [.requested(.user)])
    #expect(manual.handle(.finished(.failed(retryAfter: .seconds(2)))) == [.catchUp])
    #expect(manual.phase == .idle)
  }

  @Test func startingLiveFollowsListensAndSyncsOnce() {
    var machine = Machine()
    #expect(machine.handle(.startLive) == [.followCommits, .listen, .startSync])
    #expect(machine.handle(.startLive) == [])
    var running = self.machine(after: [.requested(.user)])
    #expect(running.handle(.startLive) == [.followCommits, .listen])
    #expect(running.phase == .running(again: true), "the start's sync is owed")
  }

  @Test func cancellingDropsTheOwedSync() {
    var machine = machine(after: [.startLive, .requested(.signal)])
    #expect(machine.handle(.cancelRequested) == [.cancelSync])
    #expect(machine.handle(.finished(.cancelled)) == [.catchUp])
    #expect(machine.phase == .idle)
    #expect(machine.handle(.cancelRequested) == [])
  }

  @Test func stopEndsWhatEachPhaseHasAndThenEverythingIsRefusedOrIgnored() {
    var idle = machine(after: [.startLive, .finished(.succeeded)])
    #expect(idle.handle(.stop) == [.stopFollowing])
    var running = machine(after: [.startLive])
    #expect(running.handle(.stop) == [.stopFollowing, .cancelSync])
    var waiting = machine(after: [.startLive, .finished(.failed(retryAfter: .seconds(1)))])
    #expect(waiting.handle(.stop) == [.stopFollowing, .cancelRetryTimer])
    var manual = machine(after: [.requested(.user)])
    #expect(manual.handle(.stop) == [.cancelSync])
    for var stopped in [idle, running, waiting, manual] {
      #expect(stopped.phase == .stopped)
      #expect(stopped.handle(.requested(.user)) == [.refuse("The library is closed.")])
      for event: Machine.Event in [
        .startLive, .committed, .turnCame, .finished(.succeeded), .retryTimerFired,
        .cancelRequested, .stop,
      ] {
        #expect(stopped.handle(event) == [])
      }
      #expect(stopped.phase == .stopped)
    }
  }

  /// A world around the machine: the syncs and the timer its actions start, and which
  /// events can happen next.
  struct World {
    var machine = Machine()
    var runningSyncs = 0
    var timers = 0
    var turnsAsked = 0

    mutating func send(_ event: Machine.Event) {
      let actions = machine.handle(event)
      for action in actions {
        switch action {
        case .startSync: runningSyncs += 1
        case .setRetryTimer: timers += 1
        case .cancelRetryTimer: timers -= 1
        case .askOnNextTurn: turnsAsked += 1
        default: break
        }
      }
    }
  }

  @Test func aRandomWalkNeverRunsTwoSyncsAndNeverLosesAnAutomaticTrigger() {
    var generator = SeededRandomNumberGenerator(seed: 0x5_1AC)
    for _ in 0..<200 {
      var world = World()
      for _ in 0..<200 {
        let before = world.machine.phase
        switch generator.next() % 9 {
        case 0: world.send(.startLive)
        case 1: world.send(.requested(.user))
        case 2: world.send(.requested(.signal))
        case 3: world.send(.committed)
        case 4 where world.turnsAsked > 0:
          world.turnsAsked -= 1
          world.send(.turnCame)
        case 5 where world.runningSyncs > 0:
          // An automatic trigger during a run is owed a sync when that run ends.
          let owed = world.machine.phase == .running(again: true)
          world.runningSyncs -= 1
          let endings: [SyncEnding] = [.succeeded, .failed(retryAfter: .seconds(1)), .cancelled]
          world.send(.finished(endings[Int(generator.next() % 3)]))
          if owed { #expect(world.runningSyncs == 1, "an owed sync was lost") }
        case 6 where world.timers > 0:
          world.timers -= 1
          world.send(.retryTimerFired)
        case 7: world.send(.cancelRequested)
        case 8 where generator.next() % 20 == 0: world.send(.stop)
        default: break
        }
        #expect(world.runningSyncs <= 1, "two syncs at once after \(before)")
        #expect(world.timers <= 1 && world.timers >= 0)
        #expect(
          world.machine.isSyncing == (world.runningSyncs == 1) || world.machine.phase == .stopped)
        if world.machine.phase == .waitingToRetry { #expect(world.timers == 1) }
      }
    }
  }
}
