import AirframeBinding
import AirframeTesting
import Testing

// Consumers are plain tasks started from the main actor: each registers with the shared
// operation in its first, synchronous step, so by the time the run has reached its gate
// (which needs the main actor to have run every task queued before it) every consumer
// started earlier is registered. The bookkeeping after a cancellation runs as a
// scheduler job, which these tests run with `drain()`.
@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct SharedOperationTests {
  let scheduler = TestScheduler()

  /// A shared operation that waits at `gate` and records whether it saw cancellation.
  func gated(_ gate: Gate<Int>, _ probe: CancellationProbe) -> SharedOperation<Int> {
    SharedOperation(scheduler: scheduler) {
      let value = try await gate.wait()
      await probe.record(Task.isCancelled)
      return value
    }
  }

  @Test func concurrentConsumersShareOneRun() async throws {
    let gate = Gate<Int>()
    let shared = SharedOperation(scheduler: scheduler) { try await gate.wait() }
    let first = Task { try await shared.value() }
    let second = Task { try await shared.value() }
    #expect(await gate.waitForWaiters(1))
    #expect(shared.waiterCount == 2)
    await gate.open(returning: 42)
    #expect(try await [first.value, second.value] == [42, 42])
    await scheduler.runUntilIdle()
    #expect(shared.startCount == 1)
    #expect(await gate.arrivals == 1)
    #expect(!shared.isRunning)
  }

  @Test func aFinishedRunIsNotReused() async throws {
    let counter = CancellationProbe()
    let shared = SharedOperation(scheduler: scheduler) {
      await counter.record(false)
      return await counter.sawCancellation.count
    }
    #expect(try await shared.value() == 1)
    #expect(try await shared.value() == 2)
    #expect(shared.startCount == 2)
    await scheduler.runUntilIdle()
  }

  @Test func oneConsumerCancellingLeavesTheRunToTheOthers() async throws {
    let gate = Gate<Int>()
    let probe = CancellationProbe()
    let shared = gated(gate, probe)
    let leaving = Task { try await shared.value() }
    let staying = Task { try await shared.value() }
    #expect(await gate.waitForWaiters(1))
    leaving.cancel()
    await #expect(throws: CancellationError.self) { try await leaving.value }
    scheduler.drain()
    #expect(shared.waiterCount == 1)
    #expect(shared.isRunning)
    await gate.open(returning: 5)
    #expect(try await staying.value == 5)
    await scheduler.runUntilIdle()
    #expect(await probe.sawCancellation == [false])
  }

  @Test func aCancelledConsumerStopsWaitingBeforeAnyBookkeepingRuns() async throws {
    let gate = Gate<Int>()
    let shared = gated(gate, CancellationProbe())
    let leaving = Task { try await shared.value() }
    #expect(await gate.waitForWaiters(1))
    leaving.cancel()
    // No scheduler job has run: the consumer was resumed by its cancellation itself.
    await #expect(throws: CancellationError.self) { try await leaving.value }
    #expect(scheduler.pendingCount == 1)
    scheduler.drain()
    await gate.open(returning: 1)
    await scheduler.runUntilIdle()
  }

  @Test func theRunIsCancelledWhenItsLastConsumerLeaves() async throws {
    let gate = Gate<Int>()
    let probe = CancellationProbe()
    let shared = gated(gate, probe)
    let only = Task { try await shared.value() }
    #expect(await gate.waitForWaiters(1))
    only.cancel()
    await #expect(throws: CancellationError.self) { try await only.value }
    scheduler.drain()
    #expect(!shared.isRunning)
    await gate.open(returning: 1)
    await scheduler.runUntilIdle()
    #expect(await probe.sawCancellation == [true])
  }

  @Test func askingAndCancellingInOneTurnLeavesNoRunBehind() async throws {
    let gate = Gate<Int>()
    let probe = CancellationProbe()
    let shared = gated(gate, probe)
    let consumer = Task { try await shared.value() }
    consumer.cancel()
    await #expect(throws: CancellationError.self) { try await consumer.value }
    scheduler.drain()
    #expect(!shared.isRunning)
    #expect(shared.waiterCount == 0)
    // The run may or may not have reached its gate; either way it was cancelled.
    await gate.open(returning: 1)
    await scheduler.runUntilIdle()
    #expect(await probe.sawCancellation.allSatisfy { $0 })
  }

  @Test func aConsumerJoiningBeforeTheBookkeepingKeepsTheRunAlive() async throws {
    let gate = Gate<Int>()
    let probe = CancellationProbe()
    let shared = gated(gate, probe)
    let leaving = Task { try await shared.value() }
    #expect(await gate.waitForWaiters(1))
    leaving.cancel()
    await #expect(throws: CancellationError.self) { try await leaving.value }
    let joining = Task { try await shared.value() }
    await Task.yield()  // one main-actor turn: `joining` registers before the job runs
    scheduler.drain()
    #expect(shared.isRunning)
    #expect(shared.startCount == 1)
    await gate.open(returning: 9)
    #expect(try await joining.value == 9)
    await scheduler.runUntilIdle()
    #expect(await probe.sawCancellation == [false])
  }

  @Test func errorsReachEveryConsumer() async {
    let gate = Gate<Int>()
    let shared = SharedOperation(scheduler: scheduler) { try await gate.wait() }
    let first = Task { try await shared.value() }
    let second = Task { try await shared.value() }
    #expect(await gate.waitForWaiters(1))
    await gate.open(with: .failure(TestFailure(message: "boom")))
    await #expect(throws: TestFailure(message: "boom")) { try await first.value }
    await #expect(throws: TestFailure(message: "boom")) { try await second.value }
    await scheduler.runUntilIdle()
  }
}

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct KeyedSharedOperationTests {
  let scheduler = TestScheduler()

  @Test func oneRunPerKeySharedByThatKeysConsumers() async throws {
    let gate = Gate<String>()
    let loads = KeyedSharedOperation(scheduler: scheduler) { (key: Int) in
      "\(key):" + (try await gate.wait())
    }
    let a1 = Task { try await loads.value(for: 1) }
    let a2 = Task { try await loads.value(for: 1) }
    let b = Task { try await loads.value(for: 2) }
    #expect(await gate.waitForWaiters(2))
    #expect(loads.startCount == 2)
    #expect(loads.runningKeys == [1, 2])
    #expect(loads.waiterCount(for: 1) == 2)
    #expect(loads.waiterCount(for: 2) == 1)
    await gate.open(returning: "done")
    #expect(try await [a1.value, a2.value, b.value] == ["1:done", "1:done", "2:done"])
    await scheduler.runUntilIdle()
    #expect(loads.runningKeys.isEmpty)
  }

  @Test func theLastConsumerOfAKeyCancelsOnlyThatKeysRun() async throws {
    let gate = Gate<Int>()
    let probe = CancellationProbe()
    let loads = KeyedSharedOperation(scheduler: scheduler) { (key: Int) in
      let value = try await gate.wait()
      await probe.record(Task.isCancelled)
      return value + key
    }
    let leaving = Task { try await loads.value(for: 1) }
    let staying = Task { try await loads.value(for: 2) }
    #expect(await gate.waitForWaiters(2))
    leaving.cancel()
    await #expect(throws: CancellationError.self) { try await leaving.value }
    scheduler.drain()
    #expect(!loads.isRunning(for: 1))
    #expect(loads.isRunning(for: 2))
    await gate.open(returning: 10)
    #expect(try await staying.value == 12)
    await scheduler.runUntilIdle()
    #expect(await probe.sawCancellation.sorted { !$0 && $1 } == [false, true])
  }

  @Test func aKeyIsDroppedWhenItsRunFinishes() async throws {
    let loads = KeyedSharedOperation(scheduler: scheduler) { (key: Int) in key * 2 }
    #expect(try await loads.value(for: 3) == 6)
    #expect(try await loads.value(for: 3) == 6)
    #expect(loads.startCount == 2)
    await scheduler.runUntilIdle()
    #expect(loads.runningKeys.isEmpty)
  }
}
