// A push of more than a batch: its changes are collected on a second connection, in one
// SQLite transaction, while the batches before are sent; the server commits only after
// the collection did, in transactions of a few batches whose acceptances are recorded
// while the next runs. The library and the server end as a push of everything collected
// first left them.

import Foundation
import NotesCore
import NotesServer
import NotesStorage
import NotesTestSupport
import Testing

@testable import NotesSync

@MainActor
@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(10)))
struct CollectingPushTests {
  /// A push in batches of 3, server transactions of 2 batches or more, and the progress it
  /// reports; stopped by an error from the report numbered `limit` (from 1) if given.
  ///
  /// With `library` given, the first report (the first batch collected) waits until the
  /// collection committed, so the first transaction holds exactly 2 batches.
  nonisolated static func push(
    _ engine: UncheckedEngine, stoppingAt limit: Int? = nil, collectingFirst library: String? = nil
  ) async throws -> [SyncEngine.Progress] {
    try await onThreadOfItsOwn { () throws -> [SyncEngine.Progress] in
      engine.engine.changesPerBatch = 3
      engine.engine.batchesPerTransaction = 2
      var seen: [SyncEngine.Progress] = []
      do {
        try engine.engine.push { progress in
          seen.append(progress)
          if seen.count == 1, let library { try waitForTheCollection(library) }
          if let limit, seen.count == limit { throw CancellationError() }
        }
      } catch is CancellationError {}
      return seen
    }
  }

  /// Returns once the push's collection of the library at `path` committed: it holds the
  /// library's write lock until then, and an empty `discardRefused` takes that lock (within
  /// the connection's busy timeout) and lets it go.
  nonisolated static func waitForTheCollection(_ path: String) throws {
    let store = try LibrarySyncStore(path: path)
    defer { store.close() }
    try store.discardRefused([])
  }

  /// How many entities are pending in the library at `path`.
  nonisolated static func pending(_ path: String) throws -> Int {
    let store = try LibrarySyncStore(path: path)
    defer { store.close() }
    return try store.pendingCount()
  }

  /// The kinds of the changes the server accepted for the account, in sequence order.
  static func acceptedKinds(_ fixture: SyncFixture) async throws -> [String] {
    let url = fixture.adminURL
    return try await onThreadOfItsOwn {
      let connection = try PostgresConnection(url: url)
      defer { connection.close() }
      return try connection.execute(
        "SELECT entity FROM notes_changes WHERE account = $1 ORDER BY seq", [SyncFixture.account]
      ).rows.compactMap { $0[0] }
    }
  }

  /// Two notebooks and `notes` notes on `device`.
  static func fill(_ device: SyncDevice, notes: Int) throws {
    _ = try device.createNotebook("Work")
    _ = try device.createNotebook("Home")
    for index in 0..<notes {
      _ = try device.createNote(
        "Note \(index)", body: "body \(index)", in: index.isMultiple(of: 2) ? "Work" : "Home")
    }
  }

  @Test func batchesGoAsTheyAreCollectedAndTheLibrariesAgree() async throws {
    try await withDevices(["A", "B"]) { devices, fixture in
      let (a, b) = (devices[0], devices[1])
      try Self.fill(a, notes: 10)
      let total = try Self.pending(a.path)
      #expect(total > 6, "several batches")
      let seen = try await Self.push(UncheckedEngine(engine: a.engine))
      // The total is the pending entities, known before the first batch; each batch is
      // reported once the server answered it.
      #expect(seen.map(\.done) == Array(stride(from: 0, to: total, by: 3)) + [total])
      #expect(seen.allSatisfy { $0.total == total })
      #expect(try Self.pending(a.path) == 0)
      // Every notebook before every note, each change once.
      let kinds = try await Self.acceptedKinds(fixture)
      #expect(kinds.count == total)
      #expect(kinds == kinds.sorted { $0 == "notebook" && $1 == "note" })
      try await b.sync()
      let expected = try await a.content()
      #expect(try await b.content() == expected)
    }
  }

  @Test func aPushStoppedAfterABatchCommitsNothingAndTheNextSendsEachChangeOnce() async throws {
    try await withDevices(["A", "B"]) { devices, fixture in
      let (a, b) = (devices[0], devices[1])
      try Self.fill(a, notes: 7)
      let total = try Self.pending(a.path)
      let engine = UncheckedEngine(engine: a.engine)
      // Stopped by the report after the first batch: the server rolls the push back, and
      // the collection stops too (what it stored, it keeps).
      let stopped = try await Self.push(engine, stoppingAt: 2)
      #expect(stopped.map(\.done) == [0, 3])
      #expect(try await NetworkFaultTests.changeCount(fixture) == 0)
      #expect(try Self.pending(a.path) == total)
      // The next push sends everything, each change once.
      let seen = try await Self.push(engine)
      #expect(seen.last?.done == total)
      #expect(try await NetworkFaultTests.changeCount(fixture) == total)
      #expect(try Self.pending(a.path) == 0)
      try await b.sync()
      let expected = try await a.content()
      #expect(try await b.content() == expected)
    }
  }

  @Test func aPushStoppedInItsSecondTransactionKeepsTheFirstAndTheNextSendsTheRest()
    async throws
  {
    try await withDevices(["A", "B"]) { devices, fixture in
      let (a, b) = (devices[0], devices[1])
      try Self.fill(a, notes: 10)
      let total = try Self.pending(a.path)
      let engine = UncheckedEngine(engine: a.engine)
      // Reports: before the first batch, after each of the first transaction's two, after
      // the second transaction's first, which stops it.
      let stopped = try await Self.push(engine, stoppingAt: 4, collectingFirst: a.path)
      #expect(stopped.map(\.done) == [0, 3, 6, 9])
      // The first transaction's six changes are on the server and no longer pending here.
      #expect(try await NetworkFaultTests.changeCount(fixture) == 6)
      #expect(try Self.pending(a.path) == total - 6)
      // A device pulling now sees the notebooks (pushed first) with the notes pushed so far.
      try await b.sync()
      let notebooks = total - 10
      #expect(try await b.content().notes.count == 6 - notebooks)
      let seen = try await Self.push(engine)
      #expect(seen.last?.done == total - 6)
      #expect(try await NetworkFaultTests.changeCount(fixture) == total)
      #expect(try Self.pending(a.path) == 0)
      try await b.sync()
      let expected = try await a.content()
      #expect(try await b.content() == expected)
    }
  }

  @Test func changesCollectedInChunksAreThoseCollectedAtOnceInTheSameOrder() async throws {
    try await withDevices(["A"]) { devices, _ in
      let a = devices[0]
      try Self.fill(a, notes: 9)
      let path = a.path
      try await onThreadOfItsOwn {
        let store = try LibrarySyncStore(path: path)
        defer { store.close() }
        // Stopped after its first chunk: that chunk's changes are stored, and collected
        // again under the same ids.
        var first: [OutgoingChange] = []
        try store.outgoingChanges(inChunksOf: 4) { chunk in
          first = chunk
          return false
        }
        #expect(first.count == 4)
        var chunks: [[OutgoingChange]] = []
        try store.outgoingChanges(inChunksOf: 4) { chunk in
          chunks.append(chunk)
          return true
        }
        #expect(chunks.dropLast().allSatisfy { $0.count == 4 })
        #expect(Array(chunks[0]) == first)
        // The same changes as collecting them all at once, in the same order: notebooks
        // first.
        let all = try store.outgoingChanges()
        #expect(chunks.flatMap { $0 } == all)
        let notebooks = all.prefix { $0.record.kind == .notebook }.count
        #expect(notebooks >= 2)
        #expect(all.dropFirst(notebooks).allSatisfy { $0.record.kind == .note })
      }
    }
  }
}
