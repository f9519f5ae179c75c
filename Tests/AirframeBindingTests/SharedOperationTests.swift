import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings, .timeLimit(.minutes(1)))
@MainActor
struct SharedOperationTests {
  @Test func concurrentConsumersShareOneRun() async throws {
    let gate = Gate<Int>()
    let shared = SharedOperation { try await gate.wait() }
    async let first = shared.value()
    async let second = shared.value()
    #expect(await gate.waitForWaiters(1))
    #expect(await eventually { shared.waiterCount == 2 })
    await gate.open(returning: 42)
    let results = try await [first, second]
    #expect(results == [42, 42])
    #expect(shared.startCount == 1)
    #expect(await gate.arrivals == 1)
    #expect(!shared.isRunning)
  }

  @Test func aFinishedRunIsNotReused() async throws {
    let counter = CancellationProbe()
    let shared = SharedOperation {
      await counter.record(false)
      return await counter.sawCancellation.count
    }
    #expect(try await shared.value() == 1)
    #expect(try await shared.value() == 2)
    #expect(shared.startCount == 2)
  }

  @Test func oneConsumerCancellingLeavesTheRunToTheOthers() async throws {
    let gate = Gate<Int>()
    let probe = CancellationProbe()
    let shared = SharedOperation {
      let value = try await gate.wait()
      await probe.record(Task.isCancelled)
      return value
    }
    let leaving = Task { try await shared.value() }
    let staying = Task { try await shared.value() }
    #expect(await eventually { shared.waiterCount == 2 })
    leaving.cancel()
    await #expect(throws: CancellationError.self) { try await leaving.value }
    #expect(shared.waiterCount == 1)
    #expect(shared.isRunning)
    await gate.open(returning: 5)
    #expect(try await staying.value == 5)
    #expect(await probe.sawCancellation == [false])
  }

  @Test func theRunIsCancelledWhenItsLastConsumerLeaves() async throws {
    let gate = Gate<Int>()
    let probe = CancellationProbe()
    let shared = SharedOperation {
      let value = try await gate.wait()
      await probe.record(Task.isCancelled)
      return value
    }
    let only = Task { try await shared.value() }
    #expect(await eventually { shared.waiterCount == 1 })
    only.cancel()
    await #expect(throws: CancellationError.self) { try await only.value }
    #expect(!shared.isRunning)
    await gate.open(returning: 1)
    #expect(await eventuallyAsync { await probe.sawCancellation == [true] })
  }

  @Test func errorsReachEveryConsumer() async {
    let gate = Gate<Int>()
    let shared = SharedOperation { try await gate.wait() }
    let first = Task { try await shared.value() }
    let second = Task { try await shared.value() }
    #expect(await eventually { shared.waiterCount == 2 })
    await gate.open(with: .failure(TestFailure(message: "boom")))
    await #expect(throws: TestFailure(message: "boom")) { try await first.value }
    await #expect(throws: TestFailure(message: "boom")) { try await second.value }
  }
}
