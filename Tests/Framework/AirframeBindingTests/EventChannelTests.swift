import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct EventChannelTests {
  @Test func observingReplaysNothing() {
    let toasts = EventChannel<String>()
    toasts.send("before")
    let recorder = ValueRecorder(toasts)
    #expect(recorder.values.isEmpty)
    toasts.send("after")
    #expect(recorder.values == ["after"])
  }

  @Test func eventsSentWithNobodyListeningAreDroppedAndCounted() {
    let toasts = EventChannel<String>()
    toasts.send("one")
    toasts.send("two")
    #expect(toasts.droppedCount == 2)
    let recorder = ValueRecorder(toasts)
    toasts.send("three")
    recorder.cancel()
    toasts.send("four")
    #expect(recorder.values == ["three"])
    #expect(toasts.droppedCount == 3)
  }

  @Test func equalEventsAreAllDelivered() {
    let taps = EventChannel<Int>()
    let recorder = ValueRecorder(taps)
    taps.send(1)
    taps.send(1)
    #expect(recorder.values == [1, 1])
  }

  @Test func sendDuringDeliveryIsQueuedForEveryObserver() {
    let events = EventChannel<String>()
    var first: [String] = []
    let echoing = events.observe { event in
      first.append(event)
      if event == "save" { events.send("saved") }
    }
    let second = ValueRecorder(events)
    events.send("save")
    #expect(first == ["save", "saved"])
    #expect(second.values == ["save", "saved"])
    echoing.cancel()
  }

  @Test func observerAddedDuringAPassMissesTheEventBeingDelivered() {
    let events = EventChannel<Int>()
    var late: ValueRecorder<Int>?
    let adder = events.observe { _ in
      if late == nil { late = ValueRecorder(events) }
    }
    events.send(1)
    events.send(2)
    #expect(late?.values == [2])
    adder.cancel()
    late?.cancel()
  }

  @Test func observerCancelledDuringAPassIsNotCalled() {
    let events = EventChannel<Int>()
    var victim: Lifetime?
    var victimCalls = 0
    let canceller = events.observe { _ in victim?.cancel() }
    victim = events.observe { _ in victimCalls += 1 }
    events.send(1)
    #expect(victimCalls == 0)
    canceller.cancel()
  }
}
