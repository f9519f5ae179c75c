import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct AsyncProjectionTests {
  let scheduler = TestScheduler()

  func describe(_ phase: AsyncPhase<Int>) -> String {
    switch phase {
    case .idle: "idle"
    case .loading(let previous): "loading(\(previous.map(String.init) ?? "nil"))"
    case .loaded(let value): "loaded(\(value))"
    case .failed(let error, let previous):
      "failed(\((error as? TestFailure)?.message ?? "?"), \(previous.map(String.init) ?? "nil"))"
    }
  }

  @Test func phasesOfASuccessfulThenAFailedRequest() async {
    let projection = AsyncProjection<Int>(scheduler: scheduler)
    let recorder = ValueRecorder(projection)
    let gate = Gate<Int>()
    projection.load { try await gate.wait() }
    #expect(await gate.waitForWaiters(1))
    await gate.open(returning: 1)
    await scheduler.runUntilIdle()
    #expect(projection.currentRequest == nil)
    projection.load { try await gate.wait() }
    #expect(await gate.waitForWaiters(1))
    await gate.open(with: .failure(TestFailure(message: "down")))
    await scheduler.runUntilIdle()
    #expect(projection.currentRequest == nil)
    #expect(
      recorder.values.map(describe) == [
        "idle", "loading(nil)", "loaded(1)", "loading(1)", "failed(down, 1)",
      ])
  }

  @Test func aCancelledRequestNeverPublishesAndThePhaseIsRestored() async {
    let projection = AsyncProjection<Int>(scheduler: scheduler)
    let gate = Gate<Int>()
    projection.load { 7 }
    await scheduler.runUntilIdle()
    #expect(projection.value.latestValue == 7)
    let recorder = ValueRecorder(projection)
    projection.load { try await gate.wait() }
    #expect(await gate.waitForWaiters(1))
    projection.cancel()
    #expect(projection.currentRequest == nil)
    await gate.open(returning: 99)
    await scheduler.runUntilIdle()
    #expect(projection.droppedCompletionCount == 1)
    #expect(recorder.values.map(describe) == ["loaded(7)", "loading(7)", "loaded(7)"])
  }

  @Test func cancelWithNothingRunningDoesNothing() {
    let projection = AsyncProjection<Int>(scheduler: scheduler)
    let recorder = ValueRecorder(projection)
    projection.cancel()
    #expect(recorder.values.map(describe) == ["idle"])
  }

  @Test func aSupersededRequestIsCancelledAndItsResultDropped() async {
    let projection = AsyncProjection<Int>(scheduler: scheduler)
    let sawCancellation = CancellationProbe()
    let gate = Gate<Int>()
    projection.load {
      let value = try await gate.wait()
      await sawCancellation.record(Task.isCancelled)
      return value
    }
    #expect(await gate.waitForWaiters(1))
    projection.load { 2 }
    await gate.open(returning: 1)
    await scheduler.runUntilIdle()
    #expect(projection.value.latestValue == 2)
    #expect(projection.droppedCompletionCount == 1)
    #expect(await sawCancellation.sawCancellation == [true])
    #expect(projection.value.latestValue == 2)
  }

  @Test func releasingTheProjectionCancelsItsWork() async {
    var projection: AsyncProjection<Int>? = AsyncProjection<Int>(scheduler: scheduler)
    let probe = CancellationProbe()
    let gate = Gate<Int>()
    projection?.load {
      let value = try await gate.wait()
      await probe.record(Task.isCancelled)
      return value
    }
    #expect(await gate.waitForWaiters(1))
    projection = nil
    await gate.open(returning: 1)
    await scheduler.runUntilIdle()
    #expect(await probe.sawCancellation == [true])
  }

  @Test func eachRequestHasItsOwnIdentity() {
    let projection = AsyncProjection<Int>(scheduler: scheduler)
    let first = projection.load { 1 }
    let second = projection.load { 2 }
    #expect(first != second)
    #expect(projection.currentRequest == second)
    #expect(second.description.hasPrefix("request#"))
    projection.cancel()
  }

  @Test func phasesCompareByCaseAndValueWithObviousAccessors() {
    typealias Phase = AsyncPhase<Int>
    #expect(Phase.idle == .idle)
    #expect(Phase.loading(previous: 1) == .loading(previous: 1))
    #expect(Phase.loading(previous: 1) != .loading(previous: nil))
    #expect(Phase.loaded(2) != .loaded(3))
    #expect(Phase.loaded(2) != .loading(previous: 2))
    let down = TestFailure(message: "down")
    #expect(Phase.failed(down, previous: 1) == .failed(down, previous: 1))
    #expect(Phase.failed(down, previous: 1) != .failed(TestFailure(message: "up"), previous: 1))
    #expect(Phase.failed(down, previous: 1) != .failed(CancellationError(), previous: 1))
    #expect(Phase.loaded(2).value == 2)
    #expect(Phase.loading(previous: 2).value == nil)
    #expect(Phase.loading(previous: 2).latestValue == 2)
    #expect(Phase.loading(previous: 2).isLoading)
    #expect(Phase.idle.isIdle)
    #expect((Phase.failed(down, previous: nil).error as? TestFailure) == down)
    #expect(Phase.loaded(1).error == nil)
  }
}
