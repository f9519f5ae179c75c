// A push in batches: each batch one set-based statement, the whole push one transaction.
// What a push promised when it was one statement per change still holds: order, one
// acceptance per change id, compare-and-set, nothing applied when anything fails; and the
// text survives its trip through PostgreSQL's array literals.

import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesServer

@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(10)))
struct PushBatchTests {
  static let device = "ca401000-0000-4000-8000-000000000001"

  struct Failure: Error {}

  /// A server database with the account carol; `body` gets a server connected as carol.
  func withServer(_ body: (SyncServer) throws -> Void) async throws {
    try await TestDatabase.with { database in
      let admin = try PostgresConnection(url: database.url)
      defer { admin.close() }
      try ServerSchema.prepare(admin)
      try ServerAccounts.add("carol", password: "carol pw", on: admin)
      let server = try SyncServer(url: database.url(user: "carol", password: "carol pw"))
      defer { server.close() }
      try body(server)
    }
  }

  static func uid() -> String { UUID().uuidString.lowercased() }

  static func change(_ kind: SyncEntityKind, _ fields: SyncFields?) -> OutgoingChange {
    change(kind, uid(), base: 0, fields)
  }

  static func change(
    _ kind: SyncEntityKind, _ uid: String, base: Int64 = 0, _ fields: SyncFields?
  ) -> OutgoingChange {
    OutgoingChange(
      changeID: Self.uid(), baseSeq: base, record: SyncRecord(kind: kind, uid: uid, fields: fields))
  }

  /// A notebook, then `count` notes in it.
  static func library(notes count: Int, body: String = "body") -> [OutgoingChange] {
    let notebook = uid()
    return [change(.notebook, notebook, SyncFields(title: "Work", created: 1))]
      + (0..<count).map { index in
        change(
          .note, SyncFields(title: "Note \(index)", body: body, notebook: notebook, created: 2))
      }
  }

  @Test func batchesKeepThePushsOrderAndTheirLimits() {
    let changes = Self.library(notes: 2_344)
    let batches = SyncServer.PushBatch.split(changes)
    #expect(batches.map(\.count) == [1_000, 1_000, 345])
    #expect(batches.flatMap(\.changes) == changes)

    // Bytes: a batch ends before the change that would take it past the limit; a change
    // larger than the limit goes alone.
    let big = String(repeating: "b", count: SyncServer.PushBatch.byteLimit / 2)
    let huge = String(repeating: "h", count: SyncServer.PushBatch.byteLimit + 1)
    let notebook = Self.uid()
    let sized = [big, big, "small", huge, "small"].map {
      Self.change(.note, SyncFields(title: "T", body: $0, notebook: notebook, created: 1))
    }
    #expect(SyncServer.PushBatch.split(sized).map(\.count) == [1, 2, 1, 1])
    #expect(SyncServer.PushBatch.split([]).isEmpty)
  }

  @Test func textSurvivesTheArrayLiteralsExactly() async throws {
    try await withServer { server in
      let notebook = Self.uid()
      let titles = [
        #"He said "hi" \ {a,b} ✓"#, "NULL", #"\"#, #"""#, "{}", "in {braces}, with, commas",
        "👩‍👩‍👧 e\u{301}",
      ]
      let bodies = ["", "NULL", "line \"one\"\nback\\slash\t{},NULL\r\n", "\\\\\"", "a,b}"]
      var changes = [Self.change(.notebook, notebook, SyncFields(title: "NULL", created: 0.5))]
      for (index, title) in titles.enumerated() {
        changes.append(
          Self.change(
            .note,
            SyncFields(
              title: title, body: bodies[index % bodies.count], notebook: notebook,
              isPinned: index.isMultiple(of: 2), created: 1_700_000_000.125 + Double(index),
              modified: 1_700_000_100.5)))
      }
      let outcomes = try server.push(changes, device: Self.device)
      #expect(outcomes.allSatisfy { if case .accepted = $0 { true } else { false } })
      for kind in SyncEntityKind.allCases {
        let sent = changes.filter { $0.record.kind == kind }
        let stored = try server.versions(kind, of: sent.map(\.record.uid))
        let records = stored.compactMap { version -> SyncRecord? in
          if case .accepted(let pulled) = version { pulled.record } else { nil }
        }
        #expect(records.count == sent.count)
        for change in sent {
          #expect(records.first { $0.uid == change.record.uid } == change.record)
        }
      }
    }
  }

  @Test func severalBatchesAreNumberedInOrderAcceptedOnceAndComparedAndSet() async throws {
    try await withServer { server in
      let changes = Self.library(notes: 2_345)
      var answered: [Int] = []
      let outcomes = try server.push(changes, device: Self.device) { answered.append($0) }
      #expect(answered == [1_000, 2_000, 2_346])
      let seqs = outcomes.compactMap { if case .accepted(let seq) = $0 { seq } else { nil } }
      #expect(seqs.count == changes.count)
      #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "numbered in the push's order")
      #expect(try server.head() == seqs.last)

      // The same push again (its acknowledgement lost): the same answers, nothing new.
      #expect(try server.push(changes, device: Self.device) == outcomes)
      #expect(try server.head() == seqs.last)

      // Compare-and-set, in one batch: a change made from the version now on the server is
      // accepted, one made from an older version (here: none) is refused, a new entity too.
      let first = changes[1].record
      let second = changes[2].record
      let edited = SyncFields(title: "Edited", notebook: first.fields?.notebook, created: 2)
      let next = try server.push(
        [
          Self.change(.note, first.uid, base: seqs[1], edited),
          Self.change(.note, second.uid, base: 0, edited),
          Self.change(.note, edited),
        ], device: Self.device)
      #expect(next.count == 3)
      #expect(next[1] == .refused)
      guard case .accepted(let editSeq) = next[0], case .accepted(let newSeq) = next[2] else {
        Issue.record("expected the first and last accepted: \(next)")
        return
      }
      #expect(seqs.last! < editSeq && editSeq < newSeq)
      let now = try server.versions(.note, of: [first.uid, second.uid])
      #expect(now.map(\.seq).sorted() == [seqs[2], editSeq])
    }
  }

  @Test func aPushNamingAnEntityOrAChangeTwiceIsRefusedBeforeAnythingIsSent() async throws {
    try await withServer { server in
      let changes = Self.library(notes: 3)
      var twice = changes
      twice.append(Self.change(.note, changes[2].record.uid, changes[2].record.fields))
      #expect {
        try server.push(twice, device: Self.device)
      } throws: { error in
        "\(error)".contains("twice") && "\(error)".contains(changes[2].record.uid)
      }
      var sameID = changes
      sameID[3].changeID = sameID[1].changeID
      #expect(throws: PostgresError.self) { try server.push(sameID, device: Self.device) }
      let head = try server.head()
      #expect(head == 0)
    }
  }

  @Test func aChangeTheServerRefusesFailsTheWholePushAndIsNamed() async throws {
    try await withServer { server in
      var changes = Self.library(notes: 1_500)
      // In the second batch: an id that is not a lower-case UUID.
      changes[1_200].record.uid = "NOT-A-UUID"
      #expect {
        try server.push(changes, device: Self.device)
      } throws: { error in
        guard let error = error as? PostgresError else { return false }
        return error.sqlState == "23514" && error.message.contains("NOT-A-UUID")
      }
      #expect(try server.head() == 0, "nothing of the push was applied")
      // The connection is usable afterwards, and the good changes go through.
      changes.remove(at: 1_200)
      let outcomes = try server.push(changes, device: Self.device)
      #expect(outcomes.count == changes.count)
    }
  }

  @Test func anErrorFromProgressIsThrownWithThePushCommittedAsAfterALostAcknowledgement()
    async throws
  {
    try await withServer { server in
      let changes = Self.library(notes: 1_500)
      #expect(throws: Failure.self) {
        try server.push(changes, device: Self.device) { answered in
          if answered >= 1_000 { throw Failure() }
        }
      }
      // Progress is reported once the server committed the push: the changes are there,
      // and a push again acknowledges each with the number it got.
      let accepted = try server.accepted(changes.map(\.changeID))
      #expect(accepted.count == changes.count)
      let outcomes = try server.push(changes, device: Self.device)
      #expect(outcomes == changes.map { .accepted(seq: accepted[$0.changeID]!) })
    }
  }

  /// A push holds its account's lock for no round trip to its device.
  ///
  /// While one device's push waits on the device (its progress stalls, as a device starved
  /// of CPU or far away answers late), another device of the account pushes. A lock held
  /// across that wait would keep the other push waiting until its statement's bound ended
  /// it.
  @Test func aPushHoldsItsAccountsLockForNoRoundTripToItsDevice() async throws {
    try await TestDatabase.with { database in
      let admin = try PostgresConnection(url: database.url)
      defer { admin.close() }
      try ServerSchema.prepare(admin)
      try ServerAccounts.add("carol", password: "carol pw", on: admin)
      let url = database.url(user: "carol", password: "carol pw")
      let stalled = DispatchSemaphore(value: 0)
      let resume = DispatchSemaphore(value: 0)
      async let slowPush = onThreadOfItsOwn {
        let server = try SyncServer(url: url)
        defer { server.close() }
        return try server.push(Self.library(notes: 1), device: Self.device) { _ in
          stalled.signal()
          _ = resume.wait(timeout: .now() + 60)
        }.count
      }
      let isStalled = try await onThreadOfItsOwn { stalled.wait(timeout: .now() + 60) == .success }
      #expect(isStalled, "the push never reported its progress")
      // The other device waits for a lock at most its statement's bound.
      var bounds = NetworkBounds.standard
      bounds.statement = .seconds(10)
      bounds.idleInTransaction = .seconds(8)
      let otherPush: Result<Int, any Error>
      do {
        otherPush = .success(
          try await onThreadOfItsOwn { [bounds] in
            let server = try SyncServer(url: url, bounds: bounds)
            defer { server.close() }
            return try server.push(
              Self.library(notes: 1), device: "ca401000-0000-4000-8000-000000000002"
            ).count
          })
      } catch {
        otherPush = .failure(error)
      }
      resume.signal()
      let slowCount = try await slowPush
      #expect(slowCount == 2)
      #expect(throws: Never.self, "the other device's push waited for the lock") {
        try otherPush.get()
      }
    }
  }

  @Test func batchesSentAsTheyComeAreOnePushAndALaterBatchRepeatingAChangeRollsItBack()
    async throws
  {
    try await withServer { server in
      let changes = Self.library(notes: 5)
      // Sent as they come: a batch of three, then one of the other three.
      let batches =
        SyncServer.PushBatch.split(Array(changes.prefix(3)))
        + SyncServer.PushBatch.split(Array(changes.dropFirst(3)))
      var answered: [Int] = []
      let outcomes = try server.push(device: Self.device) { send in
        var outcomes: [SyncServer.PushOutcome] = []
        for batch in batches {
          outcomes += try send(batch)
          answered.append(outcomes.count)
        }
        return outcomes
      }
      #expect(answered == [3, 6])
      let seqs = outcomes.compactMap { if case .accepted(let seq) = $0 { seq } else { nil } }
      #expect(seqs.count == changes.count)
      #expect(seqs == seqs.sorted(), "numbered in the push's order")
      let head = try server.head()
      #expect(head == seqs.last)

      // A later batch repeating an entity, or a change id, of an earlier batch of the same
      // push: the push fails at that batch and nothing of it is applied.
      let next = Self.library(notes: 2)
      var sameEntity = Self.change(.note, next[1].record.uid, next[1].record.fields)
      sameEntity.record.fields?.title = "Again"
      var sameID = Self.change(.note, next[2].record.fields)
      sameID.changeID = next[1].changeID
      for repeated in [sameEntity, sameID] {
        #expect {
          try server.push(device: Self.device) { send in
            _ = try send(SyncServer.PushBatch.split(next)[0])
            return try send(SyncServer.PushBatch.split([repeated])[0])
          }
        } throws: { error in
          "\(error)".contains("twice") && "\(error)".contains("nothing of it was applied")
        }
        #expect(try server.head() == head)
      }
      // The connection is usable afterwards.
      #expect(try server.push(next, device: Self.device).count == next.count)
    }
  }
}
