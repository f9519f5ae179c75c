import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct StateSourceTests {
  @Test func observeReplaysTheCurrentValueBeforeReturning() {
    let source = StateSource("first")
    var seen: [String] = []
    let lifetime = source.observe { seen.append($0) }
    #expect(seen == ["first"])
    lifetime.cancel()
  }

  @Test func deliversEachCommittedValueSynchronously() {
    let source = StateSource(0)
    let recorder = ValueRecorder(source)
    source.set(1)
    #expect(recorder.values == [0, 1])
    source.set(2)
    #expect(recorder.values == [0, 1, 2])
  }

  @Test func valueIsStoredBeforeObserversAreCalled() {
    let source = StateSource(0)
    var storedDuringDelivery: [Int] = []
    let lifetime = source.observe { _ in storedDuringDelivery.append(source.value) }
    source.set(1)
    source.set(2)
    #expect(storedDuringDelivery == [0, 1, 2])
    lifetime.cancel()
  }

  @Test func deliversInRegistrationOrder() {
    let source = StateSource(0)
    var calls: [String] = []
    let bag = LifetimeBag()
    for name in ["a", "b", "c", "d"] {
      source.observe { calls.append("\(name)\($0)") }.store(in: bag)
    }
    calls.removeAll()
    source.set(1)
    #expect(calls == ["a1", "b1", "c1", "d1"])
    bag.cancelAll()
  }

  @Test func registrationOrderSurvivesCancellationsAndCompaction() {
    let source = StateSource(0)
    var calls: [Int] = []
    var lifetimes: [Lifetime] = []
    for index in 0..<200 {
      lifetimes.append(source.observe { _ in calls.append(index) })
    }
    // Cancel every index not divisible by 5: enough holes to force a compaction.
    for index in 0..<200 where index % 5 != 0 { lifetimes[index].cancel() }
    for index in 200..<210 {
      lifetimes.append(source.observe { _ in calls.append(index) })
    }
    calls.removeAll()
    source.set(1)
    let expected = Array(stride(from: 0, to: 200, by: 5)) + Array(200..<210)
    #expect(calls == expected)
    #expect(source.observerCount == expected.count)
    // Cancelling after compaction still removes exactly the right observers.
    lifetimes[5].cancel()
    lifetimes[205].cancel()
    calls.removeAll()
    source.set(2)
    #expect(calls == expected.filter { $0 != 5 && $0 != 205 })
    for lifetime in lifetimes { lifetime.cancel() }
    #expect(source.observerCount == 0)
  }

  @Test func massCancellationDuringAPassCompactsAfterThePassInOrder() {
    let source = StateSource(0)
    var calls: [Int] = []
    var lifetimes: [Lifetime] = []
    lifetimes.append(
      source.observe { value in
        guard value == 1 else { return }
        for index in 1..<100 where !index.isMultiple(of: 3) { lifetimes[index].cancel() }
      })
    for index in 1..<100 {
      lifetimes.append(source.observe { _ in calls.append(index) })
    }
    let survivors = Array(stride(from: 3, to: 100, by: 3))
    calls.removeAll()
    source.set(1)
    #expect(calls == survivors)
    calls.removeAll()
    source.set(2)
    #expect(calls == survivors)
    lifetimes[3].cancel()
    lifetimes[99].cancel()
    calls.removeAll()
    source.set(3)
    #expect(calls == survivors.filter { $0 != 3 && $0 != 99 })
    for lifetime in lifetimes { lifetime.cancel() }
    #expect(source.observerCount == 0)
  }

  @Test func equatableDuplicatesAreSuppressed() {
    let source = StateSource(1)
    let recorder = ValueRecorder(source)
    source.set(1)
    source.set(2)
    source.set(2)
    source.set(1)
    #expect(recorder.values == [1, 2, 1])
  }

  @Test func duplicatesAreDeliveredWhenTheSourceSaysSo() {
    let source = StateSource(1, deliversDuplicates: true)
    let recorder = ValueRecorder(source)
    source.set(1)
    source.set(1)
    #expect(recorder.values == [1, 1, 1])
  }

  @Test func customDuplicatePredicateDecides() {
    let source = StateSource("Notes", isDuplicate: { $0.lowercased() == $1.lowercased() })
    let recorder = ValueRecorder(source)
    source.set("NOTES")
    source.set("Notebook")
    #expect(recorder.values == ["Notes", "Notebook"])
    #expect(source.value == "Notebook")
  }

  @Test func nonEquatableValuesAlwaysDeliver() {
    struct Box { let number: Int }
    let source = StateSource(Box(number: 1))
    let recorder = ValueRecorder(source)
    source.set(Box(number: 1))
    #expect(recorder.values.map(\.number) == [1, 1])
  }

  @Test func writeDuringDeliveryIsQueuedSoAllObserversSeeTheSameOrder() {
    let source = StateSource(0)
    var first: [Int] = []
    var second: [Int] = []
    var valueSeenByWriterAfterWrite: Int?
    let writer = source.observe { value in
      first.append(value)
      if value == 1 {
        source.set(2)
        valueSeenByWriterAfterWrite = source.value
      }
    }
    let reader = source.observe { second.append($0) }
    source.set(1)
    #expect(first == [0, 1, 2])
    #expect(second == [0, 1, 2])
    // Inside the pass the write is queued: `value` still shows the value being delivered.
    #expect(valueSeenByWriterAfterWrite == 1)
    #expect(source.value == 2)
    writer.cancel()
    reader.cancel()
  }

  @Test func queuedWritesAreDeliveredInOrderAndDeduplicatedAgainstTheirPredecessor() {
    let source = StateSource(0)
    var seen: [Int] = []
    let lifetime = source.observe { value in
      seen.append(value)
      if value == 1 {
        source.set(2)
        source.set(2)
        source.set(3)
      }
    }
    source.set(1)
    #expect(seen == [0, 1, 2, 3])
    lifetime.cancel()
  }

  @Test func updateDuringDeliveryStartsFromTheLatestQueuedValue() {
    let source = StateSource(0)
    let lifetime = source.observe { value in
      if value == 1 {
        source.update { $0 += 10 }
        source.update { $0 += 10 }
      }
    }
    source.set(1)
    #expect(source.value == 21)
    lifetime.cancel()
  }

  @Test func observerCancelledDuringAPassIsNotCalledLaterInThatPass() {
    let source = StateSource(0)
    var later: Lifetime?
    var laterCalls: [Int] = []
    let canceller = source.observe { value in
      if value == 1 { later?.cancel() }
    }
    later = source.observe { laterCalls.append($0) }
    source.set(1)
    source.set(2)
    #expect(laterCalls == [0])
    canceller.cancel()
  }

  @Test func observerCancellingItselfDuringAPassIsNotCalledAgain() {
    let source = StateSource(0)
    var calls: [Int] = []
    var own: Lifetime?
    own = source.observe { value in
      calls.append(value)
      if value == 1 { own?.cancel() }
    }
    let other = ValueRecorder(source)
    source.set(1)
    source.set(2)
    #expect(calls == [0, 1])
    #expect(other.values == [0, 1, 2])
  }

  @Test func observerReleasedDuringAPassIsNotCalledAgain() {
    let source = StateSource(0)
    var later: Lifetime?
    var laterCalls: [Int] = []
    let releaser = source.observe { value in
      if value == 1 { later = nil }
    }
    later = source.observe { laterCalls.append($0) }
    #expect(later != nil)
    source.set(1)
    #expect(laterCalls == [0])
    #expect(source.observerCount == 1)
    releaser.cancel()
  }

  @Test func observerAddedDuringAPassGetsTheStoredValueOnceThenLaterValues() {
    let source = StateSource(0)
    var added: ValueRecorder<Int>?
    let adder = source.observe { value in
      if value == 1, added == nil { added = ValueRecorder(source) }
    }
    let after = ValueRecorder(source)
    source.set(1)
    #expect(added?.values == [1])
    source.set(2)
    #expect(added?.values == [1, 2])
    #expect(after.values == [0, 1, 2])
    adder.cancel()
    added?.cancel()
  }

  @Test func observerAddedDuringAPassThenAQueuedWriteSeesEachValueOnce() {
    let source = StateSource(0)
    var added: ValueRecorder<Int>?
    let adder = source.observe { value in
      if value == 1 {
        added = ValueRecorder(source)
        source.set(2)
      }
    }
    source.set(1)
    #expect(added?.values == [1, 2])
    adder.cancel()
    added?.cancel()
  }

  @Test func observingDoesNotKeepTheSourceAlive() {
    var source: StateSource<Int>? = StateSource(0)
    weak let weakSource = source
    let recorder = ValueRecorder(source!)
    source = nil
    #expect(weakSource == nil)
    #expect(recorder.isRecording)
    recorder.cancel()
    #expect(recorder.values == [0])
  }
}
