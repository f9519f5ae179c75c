// ServerSignals' timing on a virtual clock: a refused connection is tried again exactly
// `reconnectDelay` later, and again and again, never sooner; a connection the server ends
// is made again after the same delay and then says so once (the sync it starts pulls what
// was missed); the heartbeat checks the connection on the scheduler's clock; nothing runs
// after stop(). No test here sleeps: the clock moves only when the test advances it.

import Airframe
import AirframeTesting
import Foundation
import NotesServer
import NotesTestSupport
import Testing

@testable import NotesSync

@Suite(.serialized, .sharedPostgres, .noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct ServerSignalsTests {
  static let timing = ServerSignals.Timing(reconnectDelay: .seconds(2), heartbeat: .seconds(15))

  static func attempts(_ statuses: ValueRecorder<ServerSignals.Status>) -> Int {
    statuses.values.filter { $0 == .connecting }.count
  }

  @Test func aRefusedConnectionIsTriedAgainAfterTheDelayAndNeverSooner() async throws {
    let folder = try TemporaryFolder(prefix: "signals")
    defer { folder.remove() }
    // A socket folder where no server listens: every attempt is refused at once.
    let url = "postgresql:///postgres?host=\(folder.path)&user=nobody"
    let scheduler = TestScheduler()
    var heard = 0
    let signals = ServerSignals(
      url: url, device: "device", sender: "sender", timing: Self.timing, scheduler: scheduler
    ) { heard += 1 }
    let statuses = ValueRecorder(signals.status)
    defer { statuses.cancel() }
    signals.start()
    await scheduler.runUntilIdle()
    #expect(Self.attempts(statuses) == 1)
    guard case .waitingToReconnect(let reason) = statuses.last else {
      Issue.record("not waiting to reconnect: \(statuses.values)")
      return
    }
    #expect(!reason.isEmpty)

    for attempt in 2...4 {
      await scheduler.advance(by: .milliseconds(1_999))
      #expect(Self.attempts(statuses) == attempt - 1, "not before the delay")
      await scheduler.advance(by: .milliseconds(1))
      #expect(Self.attempts(statuses) == attempt, "exactly at the delay")
      if case .waitingToReconnect = statuses.last {
      } else {
        Issue.record("attempt \(attempt) did not fail: \(statuses.values)")
      }
    }
    #expect(scheduler.now == .seconds(6))

    signals.stop()
    #expect(statuses.last == .stopped)
    await scheduler.advance(by: .seconds(60))
    #expect(Self.attempts(statuses) == 4, "nothing after stop()")
    #expect(scheduler.sleeperCount == 0)
    #expect(heard == 0)
    #expect(signals.connectionCount == 0)
  }

  @Test func aConnectionTheServerEndsIsMadeAgainAfterTheDelayAndSaysSoOnce() async throws {
    let fixture = try await SyncFixture.make()
    do {
      try await reconnect(to: fixture)
    } catch {
      await fixture.database.drop()
      throw error
    }
    await fixture.database.drop()
  }

  func reconnect(to fixture: SyncFixture) async throws {
    let scheduler = TestScheduler()
    let heard = Recorded<Void>()
    let signals = ServerSignals(
      url: fixture.accountURL, device: "device", sender: "sender", timing: Self.timing,
      scheduler: scheduler
    ) { heard.record(()) }
    let statuses = Recorded<ServerSignals.Status>()
    let observing = signals.status.observe { statuses.record($0) }
    defer {
      signals.stop()
      observing.cancel()
    }
    signals.start()
    await scheduler.runUntilIdle()
    #expect(statuses.values.last == .listening)
    #expect(signals.connectionCount == 1)

    // The heartbeat runs on the scheduler's clock: a check that succeeds changes nothing.
    await scheduler.advance(by: .seconds(15))
    #expect(statuses.values.last == .listening)
    #expect(heard.values.isEmpty)

    // The server ends the listening connection: noticed at once, made again only after the
    // delay, then the listener says so once.
    try await Self.endListeningConnections(fixture)
    #expect(
      await statuses.reach("the listener waits to reconnect") { values in
        if case .waitingToReconnect = values.last { true } else { false }
      })
    await scheduler.advance(by: .milliseconds(1_999))
    #expect(signals.connectionCount == 1)
    await scheduler.advance(by: .milliseconds(1))
    #expect(statuses.values.last == .listening)
    #expect(signals.connectionCount == 2)
    #expect(heard.values.count == 1)
  }

  /// Ends every session of the account on the server, as an operator or a restart would.
  static func endListeningConnections(_ fixture: SyncFixture) async throws {
    let url = fixture.adminURL
    try await onThreadOfItsOwn {
      let connection = try PostgresConnection(url: url)
      defer { connection.close() }
      try connection.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1",
        [SyncFixture.account])
    }
  }
}
