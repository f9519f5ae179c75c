import AirframeBinding
import Testing

@testable import AirframeTesting

/// The bounded waits themselves: none of them can hang a test.
///
/// A wait for what never comes fails within its deadline, naming what it waited for and
/// the last value it saw, and a wait whose task is cancelled (a test at its time limit)
/// ends at once. Each wait under test runs behind an outer
/// ``withDeadline(_:within:isolation:sourceLocation:_:)``, which returns whatever the inner wait
/// does: a wait that hangs fails this suite instead of hanging it.
@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct WaitTests {
  /// How long the outer guard lets a wait run that should have ended long before.
  static let guardLimit = Duration.seconds(120)

  @Test func eventuallyGivesUpAtItsDeadlineWithWhatItWaitedForAndTheLastValue() async throws {
    let counter = Counter()
    let failure = try await outcome {
      _ = try await eventually("the counter is back at zero", within: .milliseconds(50)) {
        counter.value += 1
        return counter.value
      } satisfies: {
        $0 == 0
      }
    }
    let timedOut = try #require(failure as? WaitTimedOut, "\(String(describing: failure))")
    #expect(timedOut.awaited == "the counter is back at zero")
    // The value read by the last check, however many checks there were.
    #expect(timedOut.lastValue == "\(counter.value)")
    #expect(!timedOut.wasCancelled)
    #expect(timedOut.sourceLocation.fileName == "WaitTests.swift")
    #expect(timedOut.description.hasPrefix("Timed out after "))
    #expect(
      timedOut.description.contains("waiting until the counter is back at zero (WaitTests.swift:"))
    #expect(timedOut.description.hasSuffix("; the last value seen: \(counter.value)"))
  }

  @Test func eventuallyReturnsTheFirstValueThatSatisfiesIt() async throws {
    var counter = 0
    let value = try await eventually("the counter reaches 3", within: .seconds(60)) {
      counter += 1
      return counter
    } satisfies: {
      $0 >= 3
    }
    #expect(value == 3)
  }

  @Test func aCancelledEventuallyEndsAtOnceAndSaysSo() async throws {
    let waiting = Task { @MainActor in
      try await eventually("a value that never comes", within: .seconds(3_600)) {
        0
      } satisfies: {
        $0 == 1
      }
    }
    waiting.cancel()
    let failure = try await withDeadline("the cancelled wait ends", within: Self.guardLimit) {
      await waiting.result
    }
    guard case .failure(let error as WaitTimedOut) = failure else {
      Issue.record("the cancelled wait did not say so: \(failure)")
      return
    }
    #expect(error.wasCancelled)
    #expect(error.lastValue == "0")
    #expect(error.description.hasPrefix("Cancelled after "))
  }

  @Test func theBooleanEventuallyReturnsFalseAtItsDeadlineAndOnCancellation() async throws {
    #expect(await eventually(timeout: .milliseconds(50)) { false } == false)
    let waiting = Task { @MainActor in await eventually(timeout: .seconds(3_600)) { false } }
    waiting.cancel()
    let held = try await withDeadline("the cancelled wait ends", within: Self.guardLimit) {
      await waiting.value
    }
    #expect(held == false)
  }

  /// A wait on a task asleep on a virtual clock nobody advances ends at its deadline.
  ///
  /// That is the wait that once hung a whole run; behind a deadline the test ends, with
  /// what it waited for.
  @Test func aDeadlineEndsAWaitOnATaskThatCanNeverFinish() async throws {
    let clock = TestScheduler()
    let asleep = Task { @MainActor in try? await clock.sleep(for: .seconds(1)) }
    let failure = try await outcome {
      _ = try await withDeadline("the sleeper wakes", within: .milliseconds(50)) {
        await asleep.value
      }
    }
    let timedOut = try #require(failure as? WaitTimedOut, "\(String(describing: failure))")
    #expect(timedOut.awaited == "the sleeper wakes")
    #expect(timedOut.lastValue == nil)
    #expect(timedOut.description.contains("waiting until the sleeper wakes (WaitTests.swift:"))
    // The deadline cancelled the waiting, not the task awaited; it still sleeps.
    asleep.cancel()
    await asleep.value
  }

  @Test func aDeadlineEndsAWaitOnAContinuationNeverResumed() async throws {
    let gate = Gate<Int>()
    let failure = try await outcome {
      _ = try await withDeadline("the gate opens", within: .milliseconds(50)) {
        try await gate.wait()
      }
    }
    #expect((failure as? WaitTimedOut)?.awaited == "the gate opens")
    await gate.open(returning: 1)
  }

  @Test func aDeadlineReturnsTheWorksValueAndPassesOnItsError() async throws {
    #expect(try await withDeadline("the work returns", within: .seconds(60)) { 42 } == 42)
    struct Refused: Error {}
    await #expect(throws: Refused.self) {
      try await withDeadline("the work fails", within: .seconds(60)) { () async throws -> Int in
        throw Refused()
      }
    }
  }

  @Test func aCancelledDeadlineEndsAtOnceAndSaysSo() async throws {
    let gate = Gate<Int>()
    let waiting = Task { @MainActor in
      try await withDeadline("the gate opens", within: .seconds(3_600)) { try await gate.wait() }
    }
    waiting.cancel()
    let failure = try await withDeadline("the cancelled wait ends", within: Self.guardLimit) {
      await waiting.result
    }
    guard case .failure(let error as WaitTimedOut) = failure else {
      Issue.record("the cancelled wait did not say so: \(failure)")
      return
    }
    #expect(error.wasCancelled)
    await gate.open(returning: 1)
  }

  @Test func waitingForSleepersReturnsOnceTheyAreAsleepWhoeverStartedThem() async throws {
    let clock = TestScheduler()
    let sleepers = (0..<2).map { _ in Task { try? await clock.sleep(for: .seconds(1)) } }
    try await clock.waitForSleepers(2, within: .seconds(60))
    #expect(clock.sleeperCount == 2)
    await clock.advance(by: .seconds(1))
    for sleeper in sleepers { await sleeper.value }
  }

  @Test func waitingForSleepersThatNeverComeFailsWithTheNumberAsleep() async throws {
    let clock = TestScheduler()
    let sleeper = Task { try? await clock.sleep(for: .seconds(1)) }
    try await clock.waitForSleepers(1, within: .seconds(60))
    let failure = try await outcome {
      try await clock.waitForSleepers(2, within: .milliseconds(50))
    }
    let timedOut = try #require(failure as? WaitTimedOut, "\(String(describing: failure))")
    #expect(timedOut.awaited == "2 task(s) sleep on the test scheduler's clock")
    #expect(timedOut.lastValue == "1 asleep")
    await clock.advance(by: .seconds(1))
    await sleeper.value
  }

  /// A stretch in which the waiting test's actor is held by another (a parallel run's
  /// busy main actor) counts as a second towards a deadline; every other stretch counts
  /// in full.
  @Test func aDeadlineCountsAStretchWithoutATurnAsASecond() {
    let start = ContinuousClock.now
    var time = OwnTime(start: start)
    time.tick(at: start.advanced(by: .milliseconds(300)))
    #expect(time.counted == .milliseconds(300))
    time.tick(at: start.advanced(by: .milliseconds(60_300)))
    #expect(time.counted == .milliseconds(1_300))
    time.tick(at: start.advanced(by: .milliseconds(61_000)))
    #expect(time.counted == .milliseconds(2_000))
  }

  @Test func runningUntilIdleReturnsWhenTheTestIsCancelled() async throws {
    let scheduler = TestScheduler()
    let gate = Gate<Int>()
    _ = scheduler.startTask { _ = try? await gate.wait() }
    let waiting = Task { @MainActor in await scheduler.runUntilIdle() }
    #expect(await gate.waitForWaiters(1))
    waiting.cancel()
    try await withDeadline("the cancelled run until idle returns", within: Self.guardLimit) {
      await waiting.value
    }
    #expect(scheduler.runningCount == 1)
    await gate.open(returning: 1)
    await scheduler.runUntilIdle()
    #expect(scheduler.runningCount == 0)
  }

  @Test func waitingForGateWaitersReturnsFalseWhenTheTestIsCancelled() async throws {
    let gate = Gate<Int>()
    let waiting = Task { await gate.waitForWaiters(1) }
    waiting.cancel()
    let arrived = try await withDeadline("the cancelled wait returns", within: Self.guardLimit) {
      await waiting.value
    }
    #expect(!arrived)
    #expect(await gate.waiterCount == 0)
  }

  @Test func aRecordersWaitThatNeverComesTrueNamesTheValuesRecorded() async throws {
    let source = StateSource(1)
    let recorder = ValueRecorder(source)
    source.set(2)
    let failure = try await outcome {
      try await recorder.waitUntil("the source reaches 3", within: .milliseconds(50)) {
        $0.last == 3
      }
    }
    let timedOut = try #require(failure as? WaitTimedOut, "\(String(describing: failure))")
    #expect(timedOut.lastValue == "[1, 2]")
    #expect(
      try await recorder.waitUntil("the source reached 2", within: .seconds(60)) {
        $0.last == 2
      } == [1, 2])
    recorder.cancel()
  }

  /// What `wait` threw, if anything, once it ended; the outer guard fails the test if it
  /// does not end.
  private func outcome(
    _ wait: @escaping @Sendable @MainActor () async throws -> Void
  ) async throws -> (any Error)? {
    let waiting = Task { @MainActor in try await wait() }
    let result = try await withDeadline("the wait under test ends", within: Self.guardLimit) {
      await waiting.result
    }
    guard case .failure(let error) = result else { return nil }
    return error
  }
}

/// A count a wait reads on the main actor.
@MainActor
private final class Counter {
  var value = 0
}
