// The network between a device and its server failing at exact places, through a `FaultProxy` the
// test steers: a connection that goes silent inside a push's transaction, one cut while a statement
// of the push is on its way, the signal connection lost while the data connection lives, and the
// network gone while both sides keep editing. After each: the device noticed within its bounds on
// its own (nothing waits for ever), it recovered on its own (the app's service connects afresh, the
// signals reconnect), and every device converges with the server with nothing applied twice and
// nothing lost.
//
// The devices behind the proxy use short bounds (seconds), so each fault costs a few
// seconds of real time; the tests wait on what they are told (a trigger fired, a sync
// returned, a signal heard), each wait with a deadline, and never sleep.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesServer
import NotesTestSupport
import Testing

@testable import NotesStorage
@testable import NotesSync

@Suite(.serialized, .sharedPostgresOverTCP, .timeLimit(.minutes(10)))
@MainActor
struct NetworkFaultTests {
  /// What a device behind the proxy waits: 2 s of silence on an answer, and the server
  /// ends its transaction after 1 s idle.
  static let bounds = NetworkBounds(
    connect: .seconds(2), answer: .seconds(2), statement: .milliseconds(1_500),
    idleInTransaction: .seconds(1), keepaliveIdle: .seconds(1), keepaliveInterval: .seconds(1),
    keepaliveCount: 2)

  /// The longest any one wait of these tests may take before the test fails.
  static let deadline = Duration.seconds(30)

  @Test func aConnectionSilentInsideAPushsTransactionIsNoticedAndTheDeviceRecovers()
    async throws
  {
    try await withProxy { proxy, fixture, a, b in
      let service = ServerSyncService(
        libraryPath: a.path, serverURL: a.serverURL, bounds: Self.bounds)
      try a.createNotebook("Inbox")
      try a.createNote("From A", body: "a", in: "Inbox")
      try b.createNotebook("Desk")
      try b.createNote("From B", body: "b", in: "Desk")

      // Every batch of A's push is on the server, inside its transaction, when the network
      // goes silent both ways, just before the push's signal: the server waits idle in the
      // transaction, holding the account's lock, and A waits for an answer.
      let silent = proxy.when(clientSends: "pg_notify", .before, then: .set(.drop, .both))
      let failing = Task { @MainActor in try await service.sync { _ in } }
      _ = try await within(Self.deadline, "the push goes silent") { await silent.fired() }

      // B pushes meanwhile: it waits for the account's lock, which the server frees when it
      // ends A's silent transaction.
      let pushedByB = try await within(Self.deadline, "B's sync returns") { try await b.sync() }
        .pushed
      #expect(pushedByB == 2)

      // A noticed the silence on its own, within its bound, and keeps every change pending.
      let outcome = try await within(Self.deadline, "A's silent sync ends") { await failing.result }
      guard case .failure(let error as ServerSyncService.Offline) = outcome else {
        Issue.record("A's sync did not fail offline: \(outcome)")
        return
      }
      #expect(error.reason.contains("the server sent nothing for 2 s"), "\(error)")
      #expect(error.pending == 2)
      #expect(service.retryDelay == .seconds(1))
      #expect(Self.titles(try await fixture.content()) == ["From B"], "A's push was rolled back")

      // The network heals; A's next sync connects afresh and pushes once.
      proxy.set(.pass)
      _ = try await within(Self.deadline, "A's sync ends") { try await service.sync { _ in } }
      #expect(service.report.pushed == 2)
      try a.catchUp()
      try await b.sync()
      try await Self.expectEverythingOnceEverywhere(
        [a, b], fixture, notes: ["From A", "From B"], notebooks: ["Desk", "Inbox"])
    }
  }

  /// Where the cut comes: after the push's batch statement reached the server (the push is
  /// rolled back), or after its COMMIT did (the server may have committed; the device never
  /// hears).
  @Test(arguments: ["notes_push_batch", "COMMIT"])
  func aConnectionCutMidStatementLosesNothingAndAppliesNothingTwice(after marker: String)
    async throws
  {
    try await withProxy { proxy, fixture, a, b in
      let service = ServerSyncService(
        libraryPath: a.path, serverURL: a.serverURL, bounds: Self.bounds)
      try a.createNotebook("Inbox")
      try a.createNote("First", body: "1", in: "Inbox")
      _ = try await within(Self.deadline, "A's sync ends") { try await service.sync { _ in } }
      try a.catchUp()
      try a.createNote("Second", body: "2", in: "Inbox")
      try a.edit("First") { $0.body = "1, edited" }

      // A pull before the push would reach the server first: the cut is placed at the
      // push's own statement, and resets both ends at once.
      let cut = proxy.when(clientSends: marker, then: .cut)
      let cutSync = await outcome(of: {
        try await within(Self.deadline, "A's sync ends") { try await service.sync { _ in } }
      })
      #expect(cut.connection != nil, "the cut was placed")
      guard case .failure(let error as ServerSyncService.Offline) = cutSync else {
        Issue.record("A's sync did not fail offline: \(cutSync)")
        return
      }
      #expect(error.pending == 2)

      // Nothing is in the way any more: A's next sync connects afresh, learns what the
      // server did with the cut push, and applies each change once.
      _ = try await within(Self.deadline, "A's sync ends") { try await service.sync { _ in } }
      try a.catchUp()
      try await b.sync()
      try await Self.expectEverythingOnceEverywhere(
        [a, b], fixture, notes: ["First", "Second"], notebooks: ["Inbox"])
      let server = try await fixture.content()
      #expect(server.notes.values.first { $0.title == "First" }?.body == "1, edited")
      #expect(try await Self.changeCount(fixture) == 4, "each change accepted exactly once")
    }
  }

  @Test func aLostSignalConnectionIsNoticedAndRemadeWhileTheDataConnectionLives() async throws {
    try await withProxy { proxy, fixture, a, b in
      let heard = Recorded<Void>()
      let listening = proxy.when(clientSends: "LISTEN", then: .none)
      let signals = ServerSignals(
        url: a.serverURL, device: a.engine.deviceID, sender: a.engine.sender, bounds: Self.bounds,
        timing: ServerSignals.Timing(
          reconnectDelay: .milliseconds(100), heartbeat: .milliseconds(200))
      ) { heard.record(()) }
      let statuses = Recorded<ServerSignals.Status>()
      let observing = signals.status.observe { statuses.record($0) }
      signals.start()
      defer {
        signals.stop()
        observing.cancel()
      }
      let first = try await within(Self.deadline, "A's listener sends LISTEN") {
        await listening.fired()
      }
      #expect(await statuses.reach("A's listener listens") { $0.last == .listening })

      // The signal connection goes silent (no reset); B's push signals into the silence.
      proxy.set(.drop, on: first)
      try b.createNotebook("Desk")
      try b.createNote("From B", in: "Desk")
      try await b.sync()

      // The data connection lives: A pushes through the same proxy meanwhile.
      try a.createNotebook("Inbox")
      try a.createNote("From A", in: "Inbox")
      try await within(Self.deadline, "A's push returns") { try await a.push() }

      // The heartbeat finds the silent connection within its bounds, a new one is made,
      // and A is told to sync for what it may have missed.
      #expect(
        await statuses.reach("A's listener reconnects and listens again") { values in
          values.contains { if case .waitingToReconnect = $0 { true } else { false } }
            && values.last == .listening
        })
      #expect(await heard.reach("A hears B's push") { $0.count >= 1 })
      #expect(signals.connectionCount == 2)
      try await a.sync()

      // The new connection hears B's next push.
      try b.createNote("From B, later", in: "Desk")
      try await b.sync()
      #expect(await heard.reach("A hears B's second push") { $0.count >= 2 })
      try await a.sync()
      try await Self.expectEverythingOnceEverywhere(
        [a, b], fixture, notes: ["From A", "From B", "From B, later"],
        notebooks: ["Desk", "Inbox"])
    }
  }

  @Test func aNetworkGoneWhileBothSidesKeepEditingLosesNothingWhenItComesBack() async throws {
    try await withProxy { proxy, fixture, a, b in
      let service = ServerSyncService(
        libraryPath: a.path, serverURL: a.serverURL, bounds: Self.bounds)
      try a.createNotebook("Shared")
      try a.createNote("Plan", body: "one\ntwo\nthree", in: "Shared")
      _ = try await within(Self.deadline, "A's sync ends") { try await service.sync { _ in } }
      try a.catchUp()
      try await b.sync()

      // The network goes, silently, for A's open connection and every new one. Both sides
      // keep editing; B syncs, A's syncs fail within its bounds, again and again.
      proxy.set(.drop)
      try a.edit("Plan") { $0.body = "one, by A\ntwo\nthree" }
      try a.createNote("A, offline", body: "first", in: "Shared")
      try b.edit("Plan") { $0.body = "one\ntwo\nthree, by B" }
      try b.createNote("B, meanwhile", in: "Shared")
      try await b.sync()
      for round in 1...2 {
        let attempt = await outcome(of: {
          try await within(Self.deadline, "A's sync ends") { try await service.sync { _ in } }
        })
        guard case .failure(let error as ServerSyncService.Offline) = attempt else {
          Issue.record("A's sync \(round) did not fail offline: \(attempt)")
          return
        }
        #expect(error.pending == 2, "round \(round)")
        try a.catchUp()
        try a.edit("A, offline") { $0.body += ", edited again" }
      }

      // The network comes back: A pushes everything once, merged with B's edits.
      proxy.set(.pass)
      _ = try await within(Self.deadline, "A's sync ends") { try await service.sync { _ in } }
      try a.catchUp()
      try await b.sync()
      try await Self.expectEverythingOnceEverywhere(
        [a, b], fixture, notes: ["A, offline", "B, meanwhile", "Plan"], notebooks: ["Shared"])
      let server = try await fixture.content()
      let bodies = Dictionary(
        server.notes.values.map { ($0.title, $0.body) }, uniquingKeysWith: { first, _ in first })
      #expect(bodies["Plan"] == "one, by A\ntwo\nthree, by B")
      #expect(bodies["A, offline"] == "first, edited again, edited again")
    }
  }

  // MARK: Support

  /// A fixture, a proxy in front of the suite's server, device A behind the proxy with the
  /// tests' short bounds and device B connected straight to the server; all gone
  /// afterwards.
  func withProxy(
    _ body: (FaultProxy, SyncFixture, SyncDevice, SyncDevice) async throws -> Void
  ) async throws {
    let fixture = try await SyncFixture.make()
    let proxy = try FaultProxy(to: fixture.database.server.port)
    do {
      let folder = try TemporaryFolder(prefix: "faults")
      defer { folder.remove() }
      let a = try await SyncDevice.make(
        name: "A", folder: folder, serverURL: Self.url(fixture, through: proxy),
        bounds: Self.bounds)
      defer { a.close() }
      let b = try await SyncDevice.make(name: "B", folder: folder, serverURL: fixture.accountURL)
      defer { b.close() }
      try await body(proxy, fixture, a, b)
    } catch {
      proxy.stop()
      await fixture.database.drop()
      throw error
    }
    proxy.stop()
    await fixture.database.drop()
  }

  /// The account's URL through the proxy, over TCP.
  static func url(_ fixture: SyncFixture, through proxy: FaultProxy) -> String {
    fixture.database.tcpURL(
      user: SyncFixture.account, password: SyncFixture.password, port: proxy.port)
  }

  static func titles(_ content: SyncedContent) -> [String] {
    content.notes.values.map(\.title).sorted()
  }

  /// Every device equals the server, which holds each of `notes` and `notebooks` exactly
  /// once, and nothing is pending anywhere.
  static func expectEverythingOnceEverywhere(
    _ devices: [SyncDevice], _ fixture: SyncFixture, notes: [String], notebooks: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await expectConverged(devices, fixture, sourceLocation: sourceLocation)
    let server = try await fixture.content()
    #expect(titles(server) == notes.sorted(), sourceLocation: sourceLocation)
    #expect(server.notebooks.values.sorted() == notebooks.sorted(), sourceLocation: sourceLocation)
    for device in devices {
      let pending = try LibrarySyncStore(path: device.path)
      defer { pending.close() }
      #expect(try pending.pendingCount() == 0, "\(device.name)", sourceLocation: sourceLocation)
    }
  }

  /// How many changes the server accepted for the account.
  static func changeCount(_ fixture: SyncFixture) async throws -> Int {
    let url = fixture.adminURL
    return try await onThreadOfItsOwn {
      let connection = try PostgresConnection(url: url)
      defer { connection.close() }
      let count = try connection.execute(
        "SELECT count(*) FROM notes_changes WHERE account = $1", [SyncFixture.account]
      ).singleValue
      return Int(count ?? "") ?? -1
    }
  }
}
