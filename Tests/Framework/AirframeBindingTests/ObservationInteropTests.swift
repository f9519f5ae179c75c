import AirframeBinding
import AirframeTesting
import Observation
import Synchronization
import Testing

/// Counts Observation's onChange callbacks, which are `@Sendable`.
final class ChangeCounter: Sendable {
  private let count = Mutex(0)
  func record() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}

@Observable
@MainActor
final class CounterModel {
  var count = 0
  var unrelated = 0
}

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct ObservationInteropTests {
  @Test func readingAStateSourceInsideTrackingRegistersIt() {
    let source = StateSource(0)
    let changes = ChangeCounter()
    let seen = withObservationTracking {
      source.value
    } onChange: {
      changes.record()
    }
    #expect(seen == 0)
    source.set(1)
    #expect(changes.value == 1)
    // Tracking is one-shot, as for any @Observable property.
    source.set(2)
    #expect(changes.value == 1)
  }

  @Test func suppressedDuplicatesDoNotInvalidateTracking() {
    let source = StateSource(5)
    let changes = ChangeCounter()
    withObservationTracking {
      _ = source.value
    } onChange: {
      changes.record()
    }
    source.set(5)
    #expect(changes.value == 0)
    source.set(6)
    #expect(changes.value == 1)
  }

  @Test func trackingOnlyFiresForSourcesThatWereRead() {
    let read = StateSource("read")
    let unread = StateSource("unread")
    let changes = ChangeCounter()
    withObservationTracking {
      _ = read.value
    } onChange: {
      changes.record()
    }
    unread.set("changed")
    #expect(changes.value == 0)
    read.set("changed")
    #expect(changes.value == 1)
  }

  @Test func derivedValuesParticipateInTracking() {
    let source = StateSource(1)
    let doubled = source.map { $0 * 2 }
    let changes = ChangeCounter()
    withObservationTracking {
      _ = doubled.value
    } onChange: {
      changes.record()
    }
    source.set(2)
    #expect(changes.value == 1)
  }

  @Test func aDerivedRecomputeDoesNotRegisterItsInputsWithAnEnclosingScope() {
    let source = StateSource(1)
    let doubled = source.map { $0 * 2 }
    let changes = ChangeCounter()
    // The write makes `doubled` re-read `source` while this tracking scope is active.
    withObservationTracking {
      source.set(2)
    } onChange: {
      changes.record()
    }
    #expect(doubled.value == 4)
    source.set(3)
    #expect(changes.value == 0)
  }

  @Test func observationsSequenceSeesCommittedValues() async {
    let source = StateSource(0)
    let values = Observations { source.value }
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    source.set(1)
    #expect(await iterator.next() == 1)
    source.set(2)
    source.set(3)
    // Observations coalesces: the next element is the latest value.
    #expect(await iterator.next() == 3)
  }

  @Test func anObservablePropertyReplaysSynchronously() {
    let model = CounterModel()
    model.count = 4
    let count = ObservationProjection { model.count }
    let recorder = ValueRecorder(count)
    #expect(recorder.values == [4])
    #expect(count.value == 4)
  }

  @Test func changesAreDeliveredOnALaterMainActorTurnAfterTheyAreStored() async {
    let model = CounterModel()
    let scheduler = TestScheduler()
    let count = ObservationProjection(scheduler: scheduler) { model.count }
    var storedDuringDelivery: [Int] = []
    let lifetime = count.observe { _ in storedDuringDelivery.append(model.count) }
    let recorder = ValueRecorder(count)
    model.count = 1
    // willSet has fired; the re-read is scheduled, not run synchronously.
    #expect(recorder.values == [0])
    #expect(scheduler.pendingCount == 1)
    await scheduler.runUntilIdle()
    #expect(recorder.values == [0, 1])
    #expect(storedDuringDelivery == [0, 1])
    lifetime.cancel()
  }

  @Test func theDefaultSchedulerRereadsOnALaterMainActorTurn() async {
    let model = CounterModel()
    let count = ObservationProjection { model.count }
    var values = count.values(bufferingPolicy: .unbounded).makeAsyncIterator()
    #expect(await values.next() == 0)
    model.count = 1
    #expect(count.value == 0)
    // Waits for the delivery itself (a main-actor task), not for a condition.
    #expect(await values.next() == 1)
  }

  @Test func severalChangesBeforeTheRereadCoalesceIntoTheLatestValue() {
    let model = CounterModel()
    let scheduler = TestScheduler()
    let count = ObservationProjection(scheduler: scheduler) { model.count }
    let recorder = ValueRecorder(count)
    model.count = 1
    model.count = 2
    model.count = 3
    #expect(scheduler.drain() == 1)
    #expect(recorder.values == [0, 3])
    #expect(count.rereadCount == 1)
    // The loop re-tracked: a later change is seen too.
    model.count = 4
    #expect(scheduler.drain() == 1)
    #expect(recorder.values == [0, 3, 4])
  }

  @Test func withATestSchedulerRereadsRunOnlyWhenDrained() {
    let model = CounterModel()
    let scheduler = TestScheduler()
    let count = ObservationProjection(scheduler: scheduler) { model.count }
    let recorder = ValueRecorder(count)
    model.count = 1
    model.count = 2
    #expect(scheduler.pendingCount == 1)
    #expect(recorder.values == [0])
    #expect(scheduler.drain() == 1)
    #expect(recorder.values == [0, 2])
    model.count = 3
    #expect(scheduler.drain() == 1)
    #expect(scheduler.drain() == 0)
    #expect(recorder.values == [0, 2, 3])
  }

  @Test func unrelatedPropertiesDoNotTriggerAReread() {
    let model = CounterModel()
    let scheduler = TestScheduler()
    let count = ObservationProjection(scheduler: scheduler) { model.count }
    model.unrelated = 1
    #expect(scheduler.pendingCount == 0)
    #expect(scheduler.drain() == 0)
    #expect(count.rereadCount == 0)
    model.count = 1
    #expect(scheduler.drain() == 1)
    #expect(count.rereadCount == 1)
    #expect(count.value == 1)
  }

  @Test func equalRereadsAreNotDeliveredAgain() {
    let model = CounterModel()
    model.count = 1
    let scheduler = TestScheduler()
    let isPositive = ObservationProjection(scheduler: scheduler) { model.count > 0 }
    let recorder = ValueRecorder(isPositive)
    model.count = 2
    #expect(scheduler.drain() == 1)
    #expect(isPositive.rereadCount == 1)
    #expect(recorder.values == [true])
  }

  @Test func releasingTheProjectionStopsTheLoop() {
    let model = CounterModel()
    let scheduler = TestScheduler()
    var count: ObservationProjection<Int>? = ObservationProjection(scheduler: scheduler) {
      model.count
    }
    weak let weakCount = count
    _ = count
    count = nil
    #expect(weakCount == nil)
    // The change reported for the first read schedules one job; it finds no projection
    // and registers no tracking, so a later change schedules nothing.
    model.count = 1
    #expect(scheduler.drain() == 1)
    model.count = 2
    #expect(scheduler.pendingCount == 0)
  }
}
