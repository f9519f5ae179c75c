// The watcher that keeps a model live with other processes' commits: woken by writes to
// the library's files (no timer at all), or polling on a scheduler's clock where it must.

import Airframe
import AirframeTesting
import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct LibraryWatcherTests {
  let now = Date(timeIntervalSinceReferenceDate: 1_000)

  /// Runs `body` with two connections ("processes") on a new library.
  func withTwoProcesses(
    _ body: (LibraryProcess, LibraryProcess) async throws -> Void
  ) async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let a = try LibraryProcess(path: path)
    let b = try LibraryProcess(path: path)
    defer {
      a.close()
      b.close()
    }
    try await body(a, b)
  }

  /// Waits for the watcher's next catch-up, or records an issue after `timeout` (a safety
  /// net: the wake-up is a file event, which no clock of the test's drives).
  func nextCatchUp(
    of watcher: LibraryWatcher, timeout: Duration = .seconds(10),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> Bool {
    let caught = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      var resumed = false
      watcher.caughtUp = {
        guard !resumed else { return }
        resumed = true
        continuation.resume(returning: true)
      }
      Task { @MainActor in
        try? await Task.sleep(for: timeout)
        guard !resumed else { return }
        resumed = true
        continuation.resume(returning: false)
      }
    }
    watcher.caughtUp = nil
    if !caught { Issue.record("no catch-up within \(timeout)", sourceLocation: sourceLocation) }
    return caught
  }

  @Test func aWatcherWokenByTheFileNeverWaitsOnAClock() async throws {
    try await withTwoProcesses { _, b in
      let scheduler = TestScheduler()
      let watcher = LibraryWatcher(database: b.database, model: b.model, scheduler: scheduler)
      watcher.start()
      defer { watcher.cancel() }
      #expect(watcher.wake == .fileEvents)
      await scheduler.runUntilIdle()
      #expect(scheduler.sleeperCount == 0, "a watcher woken by the file must not also poll")
      #expect(scheduler.runningCount == 0)
    }
  }

  @Test func anotherProcesssCommitWakesTheWatcher() async throws {
    try await withTwoProcesses { a, b in
      let watcher = LibraryWatcher(database: b.database, model: b.model)
      watcher.start()
      defer { watcher.cancel() }
      let before = b.model.revision
      #expect(a.dispatcher.dispatch(CreateNotebook(title: "Home", now: now)).isCommitted)
      #expect(await nextCatchUp(of: watcher))
      #expect(watcher.catchUpCount == 1)
      #expect(b.model.state.notebooks.elements.map(\.title) == ["Home"])
      #expect(b.model.revision == before + 1)
    }
  }

  @Test func itsOwnWritesWakeItAndFindNothingToApply() async throws {
    try await withTwoProcesses { a, b in
      let watcher = LibraryWatcher(database: b.database, model: b.model)
      watcher.start()
      defer { watcher.cancel() }
      // Its own commit wakes it too; then another process's: only that one is applied.
      #expect(b.dispatcher.dispatch(CreateNotebook(title: "Mine", now: now)).isCommitted)
      #expect(a.dispatcher.dispatch(CreateNotebook(title: "Theirs", now: now)).isCommitted)
      #expect(await nextCatchUp(of: watcher))
      #expect(watcher.catchUpCount == 1)
      #expect(Set(b.model.state.notebooks.elements.map(\.title)) == ["Mine", "Theirs"])
    }
  }

  @Test func aCommitMadeBeforeItStartedIsFoundAtOnce() async throws {
    try await withTwoProcesses { a, b in
      #expect(a.dispatcher.dispatch(CreateNotebook(title: "Early", now: now)).isCommitted)
      let scheduler = TestScheduler()
      let watcher = LibraryWatcher(database: b.database, model: b.model, scheduler: scheduler)
      watcher.start()
      defer { watcher.cancel() }
      #expect(watcher.catchUpCount == 1)
      #expect(b.model.state.notebooks.count == 1)
    }
  }

  @Test func aWakeUpBeforeTheCommitIsVisibleIsFollowedUp() async throws {
    try await withTwoProcesses { a, b in
      // A watch the test fires by hand: the event comes before the commit is visible (as
      // when SQLite has written the log but not yet its index in shared memory).
      let watch = HandFiredWatch()
      let scheduler = TestScheduler()
      let watcher = LibraryWatcher(
        database: b.database, model: b.model, interval: .milliseconds(100), wake: .fileEvents,
        scheduler: scheduler, onError: { _ in }, watchFiles: watch.start)
      watcher.start()
      defer { watcher.cancel() }
      watch.fire()
      scheduler.drain()
      #expect(watcher.catchUpCount == 0)
      // The commit becomes visible with no event of its own.
      #expect(a.dispatcher.dispatch(CreateNotebook(title: "Home", now: now)).isCommitted)
      await scheduler.advance(by: .milliseconds(1))
      #expect(watcher.catchUpCount == 0)
      await scheduler.advance(by: .milliseconds(1))
      #expect(watcher.catchUpCount == 1, "a commit was left waiting for the next write")
      #expect(b.model.state.notebooks.count == 1)
      // Found: no more looks.
      await scheduler.advance(by: .seconds(1))
      #expect(scheduler.sleeperCount == 0)
    }
  }

  @Test func aPollingWatcherAsksOnItsSchedulersClock() async throws {
    try await withTwoProcesses { a, b in
      let scheduler = TestScheduler()
      let watcher = LibraryWatcher(
        database: b.database, model: b.model, wake: .polling(every: .milliseconds(100)),
        scheduler: scheduler)
      watcher.start()
      defer { watcher.cancel() }
      #expect(watcher.wake == .polling(every: .milliseconds(100)))
      await scheduler.runUntilIdle()
      #expect(a.dispatcher.dispatch(CreateNotebook(title: "Home", now: now)).isCommitted)
      await scheduler.advance(by: .milliseconds(99))
      #expect(watcher.catchUpCount == 0, "it asked before its period was over")
      await scheduler.advance(by: .milliseconds(1))
      #expect(watcher.catchUpCount == 1)
      #expect(b.model.state.notebooks.count == 1)
      // Nothing new: the next period finds nothing.
      await scheduler.advance(by: .milliseconds(100))
      #expect(watcher.catchUpCount == 1)
      watcher.cancel()
      await scheduler.runUntilIdle()
      #expect(scheduler.sleeperCount == 0, "a cancelled watcher still waits on the clock")
    }
  }
}

/// A file watch that fires only when the test says so.
@MainActor
final class HandFiredWatch: FileWatch {
  private var changed: (@MainActor () -> Void)?

  func start(path: String, changed: @escaping @MainActor () -> Void) -> (any FileWatch)? {
    self.changed = changed
    return self
  }

  func fire() { changed?() }

  func cancel() { changed = nil }
}
