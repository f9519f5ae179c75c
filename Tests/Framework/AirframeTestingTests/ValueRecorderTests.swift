import AirframeBinding
import AirframeTesting
import Testing

struct Alert: Identifiable, Equatable {
  let id: Int
}

@Suite(.noLiveBindings)
@MainActor
struct ValueRecorderTests {
  @Test func recordsReplayThenEveryValue() {
    let source = StateSource("a")
    let recorder = ValueRecorder(source)
    source.set("b")
    #expect(recorder.values == ["a", "b"])
    #expect(recorder.last == "b")
    recorder.removeAll()
    source.set("c")
    #expect(recorder.values == ["c"])
  }

  @Test func stopsRecordingWhenCancelled() {
    let source = StateSource(1)
    let recorder = ValueRecorder(source)
    recorder.cancel()
    source.set(2)
    #expect(!recorder.isRecording)
    #expect(recorder.values == [1])
    #expect(source.observerCount == 0)
  }

  @Test func stopsRecordingWhenReleased() {
    let source = StateSource(1)
    var recorder: ValueRecorder<Int>? = ValueRecorder(source)
    _ = recorder
    recorder = nil
    #expect(source.observerCount == 0)
  }

  @Test func recordsEventsAndOutcomes() {
    let events = EventChannel<Int>()
    let outcomes = DurableOutcomes<Alert>()
    outcomes.post(Alert(id: 1))
    let eventRecorder = ValueRecorder(events)
    let outcomeRecorder = ValueRecorder(outcomes)
    events.send(9)
    outcomes.post(Alert(id: 2))
    #expect(eventRecorder.values == [9])
    #expect(outcomeRecorder.values == [Alert(id: 1), Alert(id: 2)])
  }
}
