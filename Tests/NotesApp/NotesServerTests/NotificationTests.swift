import Foundation
import NotesServer
import NotesTestSupport
import Testing

/// LISTEN and the notifications a connection receives, against a real PostgreSQL the test
/// starts (and stops) itself.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct NotificationTests {
  /// Runs `body` with a throwaway server and two connections to it, one to listen and one
  /// to send; the server is stopped afterwards whatever happens.
  private func withNotifyingServer(
    _ body: (TemporaryPostgres, PostgresConnection, PostgresConnection) throws -> Void
  ) async throws {
    let server = try await TemporaryPostgres.started()
    do {
      let listener = try PostgresConnection(url: server.url)
      defer { listener.close() }
      let sender = try PostgresConnection(url: server.url)
      defer { sender.close() }
      try body(server, listener, sender)
    } catch {
      await server.stopped()
      throw error
    }
    await server.stopped()
  }

  /// Runs `work` on a thread of its own, so a blocking libpq call holds none of the
  /// threads Swift's concurrency (and so every other test) runs on.
  ///
  /// - Returns: What to wait on for `work` to end.
  private func startThreadOfItsOwn(_ work: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      work()
      finished.signal()
    }
    return finished
  }

  /// The process id of `connection`'s server process, which its notifications carry.
  private func processID(of connection: PostgresConnection) throws -> Int32 {
    try #require(connection.execute("SELECT pg_backend_pid()").singleValue.flatMap { Int32($0) })
  }

  @Test func aNotificationFromAnotherConnectionArrivesWithItsChannelAndPayload() async throws {
    try await withNotifyingServer { _, listener, sender in
      try listener.listen("c")
      try sender.execute("SELECT pg_notify('c', 'p')")
      let senderID = try processID(of: sender)
      let received = try listener.notifications(waitingUpTo: .seconds(5))
      #expect(received == [PostgresNotification(channel: "c", payload: "p", processID: senderID)])
    }
  }

  @Test func aWaitThatBeganBeforeTheSendEndsWithWhatArrives() async throws {
    try await withNotifyingServer { server, listener, _ in
      try listener.listen("c")
      let url = server.url
      let sent = startThreadOfItsOwn {
        Thread.sleep(forTimeInterval: 0.2)
        let late = try? PostgresConnection(url: url)
        _ = try? late?.execute("SELECT pg_notify('c', 'late')")
        late?.close()
      }
      let received = try listener.notifications(waitingUpTo: .seconds(10))
      try #require(
        sent.wait(timeout: .now() + 60) == .success,
        "timed out waiting until the thread that sends the late notification ends")
      #expect(received.map(\.channel) == ["c"])
      #expect(received.map(\.payload) == ["late"])
    }
  }

  @Test func aTransactionsNotificationsArriveTogetherWhenItCommits() async throws {
    try await withNotifyingServer { _, listener, sender in
      try listener.listen("c")
      let senderID = try processID(of: sender)
      try sender.execute("BEGIN")
      for payload in ["one", "two", "three"] {
        try sender.execute("SELECT pg_notify('c', $1)", [payload])
      }
      #expect(try listener.notifications(waitingUpTo: .milliseconds(50)) == [])
      try sender.execute("COMMIT")
      let received = try listener.notifications(waitingUpTo: .seconds(5))
      #expect(
        received
          == ["one", "two", "three"].map {
            PostgresNotification(channel: "c", payload: $0, processID: senderID)
          })
      #expect(try listener.notifications(waitingUpTo: .zero) == [])
    }
  }

  @Test func aWaitWithNothingSentEndsEmpty() async throws {
    try await withNotifyingServer { _, listener, sender in
      try listener.listen("c")
      try sender.execute("SELECT pg_notify('other', 'p')")
      #expect(try listener.notifications(waitingUpTo: .milliseconds(50)) == [])
      #expect(try listener.notifications(waitingUpTo: .zero) == [])
    }
  }

  @Test func aNotificationReceivedDuringAStatementIsReturnedWithoutWaiting() async throws {
    try await withNotifyingServer { _, listener, _ in
      try listener.listen("c")
      let ownID = try processID(of: listener)
      // A connection's own notification arrives with the statement's result.
      try listener.execute("SELECT pg_notify('c', 'self')")
      #expect(
        try listener.notifications(waitingUpTo: .zero)
          == [PostgresNotification(channel: "c", payload: "self", processID: ownID)])
    }
  }

  @Test func aChannelNameThatNeedsQuotingIsTakenAsItIs() async throws {
    try await withNotifyingServer { _, listener, sender in
      let channel = "Notes \"Changes\"; LISTEN x; Straße"
      try listener.listen(channel)
      try sender.execute("SELECT pg_notify($1, 'quoted')", [channel])
      try sender.execute("SELECT pg_notify('notes \"changes\"; listen x; straße', 'folded')")
      let received = try listener.notifications(waitingUpTo: .seconds(5))
      #expect(received.map(\.channel) == [channel])
      #expect(received.map(\.payload) == ["quoted"])
    }
  }

  @Test func anEmptyChannelIsRefused() async throws {
    try await withNotifyingServer { _, listener, _ throws in
      let error = #expect(throws: PostgresError.self) { try listener.listen("") }
      #expect(error?.message == "a channel name cannot be empty")
      #expect(try listener.execute("SELECT 1").singleValue == "1")
    }
  }

  @Test func waitingOnAConnectionWhoseServerStoppedThrows() async throws {
    try await withNotifyingServer { server, listener, _ in
      try listener.listen("c")
      server.stop()
      let error = #expect(throws: PostgresError.self) {
        try listener.notifications(waitingUpTo: .seconds(5))
      }
      #expect(error?.message.isEmpty == false)
      #expect(throws: PostgresError.self) { try listener.notifications(waitingUpTo: .zero) }
    }
  }

  @Test func aServerThatStopsDuringTheWaitEndsItWithAnError() async throws {
    try await withNotifyingServer { server, listener, _ in
      try listener.listen("c")
      let stopped = startThreadOfItsOwn {
        Thread.sleep(forTimeInterval: 0.2)
        server.stop()
      }
      let error = #expect(throws: PostgresError.self) {
        try listener.notifications(waitingUpTo: .seconds(10))
      }
      try #require(
        stopped.wait(timeout: .now() + 120) == .success,
        "timed out waiting until the thread that stops the server ends")
      #expect(error?.message.isEmpty == false)
    }
  }
}
