import AirframeBinding
import AirframeTesting
import Testing

/// A search box that waits for a pause in typing before it searches: the debounce a test
/// must check without sleeping.
@MainActor
final class DebouncedSearch {
  let results = StateSource<[String]>([])
  private let scheduler: any WorkScheduler
  private var pending: Task<Void, Never>?
  private(set) var searches = 0

  init(scheduler: any WorkScheduler) { self.scheduler = scheduler }

  func typed(_ query: String) {
    pending?.cancel()
    let scheduler = self.scheduler
    pending = scheduler.startTask { [weak self] in
      do {
        try await scheduler.sleep(for: .milliseconds(300))
      } catch {
        return
      }
      self?.searches += 1
      self?.results.set(["\(query) 1", "\(query) 2"])
    }
  }
}

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct TestSchedulerTests {
  let scheduler = TestScheduler()

  @Test func aDebounceRunsOnlyAfterThePauseHasPassed() async {
    let search = DebouncedSearch(scheduler: scheduler)
    search.typed("p")
    search.typed("pl")
    search.typed("plu")
    await scheduler.runUntilIdle()
    #expect(scheduler.sleeperCount == 1)
    await scheduler.advance(by: .milliseconds(299))
    #expect(search.searches == 0)
    await scheduler.advance(by: .milliseconds(1))
    #expect(search.searches == 1)
    #expect(search.results.value == ["plu 1", "plu 2"])
    #expect(scheduler.now == .milliseconds(300))
    #expect(scheduler.runningCount == 0)
  }

  @Test func sleepersWakeInDeadlineOrderAsTheClockPassesThem() async {
    var woke: [Int] = []
    for (order, delay) in [(1, 30), (2, 10), (3, 20)] {
      _ = scheduler.startTask { [scheduler] in
        try? await scheduler.sleep(for: .seconds(delay))
        woke.append(order)
      }
    }
    await scheduler.advance(by: .seconds(15))
    #expect(woke == [2])
    await scheduler.advance(by: .seconds(15))
    #expect(woke == [2, 3, 1])
  }

  @Test func aCancelledSleeperWakesAtOnceWithCancellation() async {
    var outcome: String?
    let task = scheduler.startTask { [scheduler] in
      do {
        try await scheduler.sleep(for: .seconds(60))
        outcome = "slept"
      } catch {
        outcome = "\(type(of: error))"
      }
    }
    await scheduler.runUntilIdle()
    task.cancel()
    await task.value
    #expect(outcome == "CancellationError")
    #expect(scheduler.sleeperCount == 0)
    #expect(scheduler.now == .zero)
  }

  @Test func runUntilIdleRunsJobsThatTasksScheduleAndWaitsForEveryTask() async {
    var log: [String] = []
    _ = scheduler.startTask { [scheduler] in
      log.append("task")
      scheduler.schedule { log.append("job from task") }
    }
    scheduler.schedule { log.append("job") }
    #expect(log.isEmpty)
    await scheduler.runUntilIdle()
    #expect(Set(log) == ["task", "job", "job from task"])
    #expect(scheduler.pendingCount == 0)
    #expect(scheduler.runningCount == 0)
  }

  @Test func aGateOpensOneWaiterAtATimeInArrivalOrder() async throws {
    let gate = Gate<Int>()
    let first = Task { try await gate.wait() }
    #expect(await gate.waitForWaiters(1))
    let second = Task { try await gate.wait() }
    #expect(await gate.waitForWaiters(2))
    await gate.openOne(returning: 1)
    #expect(try await first.value == 1)
    #expect(await gate.waiterCount == 1)
    await gate.openOne(returning: 2)
    #expect(try await second.value == 2)
  }
}
