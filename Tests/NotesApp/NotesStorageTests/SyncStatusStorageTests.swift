// What a sync writes to the library: its running status and progress nothing, its end one
// time, written by the sync engine alone.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

/// A sync service that reports its progress 100 times, then records the sync's time in the
/// library as the sync engine does, once.
final class HundredReportsSync: SyncService {
  let path: String
  let finished = Date(timeIntervalSinceReferenceDate: 800_000_000)
  /// Asked before the time is recorded: whether another process has seen the file change.
  let othersSawAChange: @MainActor () throws -> Bool
  @MainActor var sawAChange: Bool?

  init(path: String, othersSawAChange: @escaping @MainActor () throws -> Bool) {
    self.path = path
    self.othersSawAChange = othersSawAChange
  }

  func sync(progress: @escaping @Sendable (Double) async -> Void) async throws -> Date {
    for report in 1...100 { await progress(Double(report) / 100) }
    let seen = try await othersSawAChange()
    await MainActor.run { sawAChange = seen }
    let store = try LibrarySyncStore(path: path)
    defer { store.close() }
    try store.recordSynced(at: finished)
    return finished
  }
}

@Suite(.noLiveBindings)
@MainActor
struct SyncStatusStorageTests {
  @Test func aSyncsProgressWritesNothingAndItsEndIsRecordedOnce() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    let model = Model(try database.loadState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(Fixtures.notebook(1, "Home"), into: \.notebooks)
      transaction.set(\.lastAssignedID, to: 1)
    }
    // Another process on the same library, opened now.
    let other = try NotesDatabase(path: path)
    defer { other.close() }
    _ = try other.loadState()
    #expect(try !other.hasExternalChanges())
    let head = try ChangeLog.head(on: database.connection)

    let service = HundredReportsSync(path: path) { try other.hasExternalChanges() }
    let driver = SyncDriver(model: model, service: service)
    let statuses = ValueRecorder<SyncStatus> { observer in
      model.observeCommits { commit in
        if commit.changes.changed(\.sync) { observer(commit.state.sync) }
      }
    }
    guard case .started(let sync) = driver.request(.user) else {
      Issue.record("the sync did not start")
      return
    }
    await sync.value

    // The model followed every step: syncing at 0, each of the 100 reports, then idle …
    #expect(statuses.values.count == 102)
    #expect(statuses.values.first == .syncing(progress: 0, lastSynced: nil))
    #expect(model.state.sync == .idle(lastSynced: service.finished))
    // … and none of it reached the file: no transaction, no change-log entry, nothing for
    // another process to wake up for.
    #expect(service.sawAChange == false)
    #expect(try ChangeLog.head(on: database.connection) == head)
    // The end is in the file once, with the time the model shows.
    let reopened = try NotesDatabase(path: path)
    defer { reopened.close() }
    #expect(try reopened.loadState().sync == .idle(lastSynced: service.finished))
  }
}
