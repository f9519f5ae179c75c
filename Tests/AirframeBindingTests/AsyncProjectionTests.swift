import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings, .timeLimit(.minutes(1)))
@MainActor
struct AsyncProjectionTests {
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
    let projection = AsyncProjection<Int>()
    let recorder = ValueRecorder(projection)
    let gate = Gate<Int>()
    projection.load { try await gate.wait() }
    #expect(await gate.waitForWaiters(1))
    await gate.open(returning: 1)
    #expect(await eventually { projection.currentRequest == nil })
    projection.load { try await gate.wait() }
    #expect(await gate.waitForWaiters(1))
    await gate.open(with: .failure(TestFailure(message: "down")))
    #expect(await eventually { projection.currentRequest == nil })
    #expect(
      recorder.values.map(describe) == [
        "idle", "loading(nil)", "loaded(1)", "loading(1)", "failed(down, 1)",
      ])
  }

  @Test func aCancelledRequestNeverPublishesAndThePhaseIsRestored() async {
    let projection = AsyncProjection<Int>()
    let gate = Gate<Int>()
    projection.load { 7 }
    #expect(await eventually { projection.value.latestValue == 7 })
    let recorder = ValueRecorder(projection)
    projection.load { try await gate.wait() }
    #expect(await gate.waitForWaiters(1))
    projection.cancel()
    #expect(projection.currentRequest == nil)
    await gate.open(returning: 99)
    #expect(await eventually { projection.droppedCompletionCount == 1 })
    #expect(recorder.values.map(describe) == ["loaded(7)", "loading(7)", "loaded(7)"])
  }

  @Test func cancelWithNothingRunningDoesNothing() {
    let projection = AsyncProjection<Int>()
    let recorder = ValueRecorder(projection)
    projection.cancel()
    #expect(recorder.values.map(describe) == ["idle"])
  }

  @Test func aSupersededRequestIsCancelledAndItsResultDropped() async {
    let projection = AsyncProjection<Int>()
    let sawCancellation = CancellationProbe()
    let gate = Gate<Int>()
    projection.load {
      let value = try await gate.wait()
      await sawCancellation.record(Task.isCancelled)
      return value
    }
    #expect(await gate.waitForWaiters(1))
    projection.load { 2 }
    #expect(await eventually { projection.value.latestValue == 2 })
    await gate.open(returning: 1)
    #expect(await eventually { projection.droppedCompletionCount == 1 })
    #expect(await sawCancellation.sawCancellation == [true])
    #expect(projection.value.latestValue == 2)
  }

  @Test func releasingTheProjectionCancelsItsWork() async {
    var projection: AsyncProjection<Int>? = AsyncProjection<Int>()
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
    #expect(await eventuallyAsync { await probe.sawCancellation == [true] })
  }

  @Test func eachRequestHasItsOwnIdentity() {
    let projection = AsyncProjection<Int>()
    let first = projection.load { 1 }
    let second = projection.load { 2 }
    #expect(first != second)
    #expect(projection.currentRequest == second)
    #expect(second.description.hasPrefix("request#"))
    projection.cancel()
  }
}
