import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct ValuesSequenceTests {
  @Test func theSequenceStartsWithTheCurrentValueThenEveryLaterOne() async {
    let source = StateSource(1)
    var values = source.values(bufferingPolicy: .unbounded).makeAsyncIterator()
    source.set(2)
    source.set(3)
    #expect(await values.next() == 1)
    #expect(await values.next() == 2)
    #expect(await values.next() == 3)
  }

  @Test func bufferingTheNewestGivesASlowConsumerTheLatestValue() async {
    let source = StateSource(1)
    var values = source.values().makeAsyncIterator()
    source.set(2)
    source.set(3)
    #expect(await values.next() == 3)
    source.set(4)
    #expect(await values.next() == 4)
  }

  @Test func endingTheLoopEndsTheObservation() async {
    let source = StateSource(0)
    var seen: [Int] = []
    for await value in source.values(bufferingPolicy: .unbounded) {
      seen.append(value)
      if value == 2 { break }
      source.set(value + 1)
    }
    #expect(seen == [0, 1, 2])
    #expect(source.observerCount == 0)
  }

  @Test func cancellingTheConsumerEndsTheObservation() async {
    let source = StateSource("a")
    let stream = source.values()
    let consumer = Task { @MainActor in
      var count = 0
      for await _ in stream { count += 1 }
      return count
    }
    #expect(source.observerCount == 1)
    consumer.cancel()
    _ = await consumer.value
    #expect(source.observerCount == 0)
  }

  @Test func derivedAndAsyncProjectionsOfferTheirValuesToo() async {
    let count = StateSource(2)
    let label = count.map { "\($0) notes" }
    var labels = label.values(bufferingPolicy: .unbounded).makeAsyncIterator()
    count.set(3)
    #expect(await labels.next() == "2 notes")
    #expect(await labels.next() == "3 notes")
    let scheduler = TestScheduler()
    let loads = AsyncProjection<Int>(scheduler: scheduler)
    var phases = loads.values(bufferingPolicy: .unbounded).makeAsyncIterator()
    loads.load { 7 }
    await scheduler.runUntilIdle()
    #expect(await phases.next() == .idle)
    #expect(await phases.next() == .loading(previous: nil))
    #expect(await phases.next() == .loaded(7))
  }
}
