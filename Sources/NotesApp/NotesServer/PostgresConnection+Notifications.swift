// PostgresConnection+Notifications: LISTEN on a channel and receive what NOTIFY (or
// `pg_notify`) sends to it.

import CPostgres

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One notification a server delivered: NOTIFY's channel and payload.
public struct PostgresNotification: Equatable, Sendable {
  /// The channel it was sent on.
  public let channel: String
  /// The payload it carries (empty when none was given).
  public let payload: String
  /// The process id of the server process that sent it (that connection's
  /// `pg_backend_pid()`).
  public let processID: Int32

  /// Creates a notification, as the server would deliver it.
  ///
  /// - Parameters:
  ///   - channel: The channel.
  ///   - payload: The payload.
  ///   - processID: The sending server process's id.
  public init(channel: String, payload: String, processID: Int32) {
    self.channel = channel
    self.payload = payload
    self.processID = processID
  }
}

extension PostgresConnection {
  /// Starts listening on `channel`: from now on, what is sent to it is delivered to this
  /// connection.
  ///
  /// The name is quoted, so `Changes` and `changes` are two channels and any character
  /// but NUL may appear in it. PostgreSQL cuts a name down to 63 bytes. Listening inside
  /// a transaction begins when the transaction commits; listening twice on a channel is
  /// the same as listening once.
  ///
  /// ## Guarantees
  ///
  /// - A channel name is sent as a quoted identifier (its double quotes doubled), so it is
  ///   taken exactly as given (case, spaces, quotes) and can never end the identifier early.
  ///
  /// - Parameter channel: The channel's name, exactly as senders give it to `pg_notify`.
  /// - Throws: ``PostgresError`` for an empty name or one with a NUL character, and with
  ///   the server's message when the server refuses.
  public func listen(_ channel: String) throws(PostgresError) {
    guard !channel.isEmpty else { throw PostgresError("a channel name cannot be empty") }
    guard !channel.utf8.contains(0) else {
      throw PostgresError("a channel name cannot contain a NUL character")
    }
    try execute("LISTEN \"\(channel.replacing("\"", with: "\"\""))\"")
  }

  /// The notifications already received, or, if there are none, those that arrive first
  /// within `timeout`.
  ///
  /// The call blocks for up to `timeout` and returns as soon as a notification arrives, with
  /// everything that came together (the notifications of one committed transaction arrive
  /// together, in the order they were sent). A transaction's notifications are delivered
  /// only when it commits, and never while this connection is inside a transaction of its
  /// own. A timeout of zero (or less) only collects what has arrived, without waiting.
  ///
  /// ## Guarantees
  ///
  /// - One owner, as for every other call of the connection: this call and ``listen(_:)``
  ///   block (waiting for a notification waits on the socket with `poll`); run them on one
  ///   thread or serial queue, never on the main actor or the cooperative pool.
  /// - Nothing is lost between calls: a notification that arrives while another statement
  ///   runs is kept by libpq and returned by the next wait, which then does not block.
  /// - A wait ends when a notification arrives or its time is up, whichever comes first; a
  ///   signal (EINTR) does not end it early. A connection the server closed, or whose
  ///   socket failed, is a `PostgresError` with libpq's message as soon as the wait sees it
  ///   (a network that silently stops delivering is not noticed: the wait ends empty at its
  ///   timeout).
  ///
  /// - Parameter timeout: How long to wait when nothing has arrived yet.
  /// - Returns: The notifications, oldest first; empty if none came in time.
  /// - Throws: ``PostgresError`` with libpq's message when the connection is closed or
  ///   broken (the server went away): notifications that arrived before the break are
  ///   returned first, and the next call throws.
  public func notifications(waitingUpTo timeout: Duration) throws(PostgresError)
    -> [PostgresNotification]
  {
    guard let handle else {
      throw PostgresError("the connection is closed", isUnavailable: true)
    }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: max(timeout, .zero))
    // What libpq already read (during an earlier statement), then what the socket holds.
    var received = Self.queuedNotifications(handle)
    let consumed = PQconsumeInput(handle) == 1
    received += Self.queuedNotifications(handle)
    if !received.isEmpty { return received }
    guard consumed else { throw PostgresError(Self.libpqMessage(handle)) }
    let socket = PQsocket(handle)
    guard socket >= 0 else { throw PostgresError(Self.libpqMessage(handle)) }
    while clock.now < deadline {
      var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Self.pollMilliseconds(clock.now.duration(to: deadline)))
      if ready < 0 {
        let failure = errno
        if failure == EINTR { continue }
        throw PostgresError(
          "cannot wait for the server: \(String(cString: strerror(failure)))")
      }
      if ready == 0 { break }
      let hungUp = descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
      let read = PQconsumeInput(handle) == 1
      received = Self.queuedNotifications(handle)
      if !received.isEmpty { return received }
      guard read else { throw PostgresError(Self.libpqMessage(handle)) }
      guard !hungUp, PQstatus(handle) == CONNECTION_OK else {
        throw PostgresError("the server closed the connection")
      }
      // Something else arrived (a parameter status, a notice): wait on for the rest.
    }
    return []
  }

  /// Takes every notification libpq holds for `handle`, freeing each.
  private static func queuedNotifications(_ handle: OpaquePointer) -> [PostgresNotification] {
    var notifications: [PostgresNotification] = []
    while let notify = PQnotifies(handle) {
      defer { PQfreemem(notify) }
      notifications.append(
        PostgresNotification(
          channel: notify.pointee.relname.map { String(cString: $0) } ?? "",
          payload: notify.pointee.extra.map { String(cString: $0) } ?? "",
          processID: notify.pointee.be_pid))
    }
    return notifications
  }

  /// The first line of libpq's latest error message for `handle`.
  private static func libpqMessage(_ handle: OpaquePointer) -> String {
    let message = PQerrorMessage(handle).map { String(cString: $0) } ?? ""
    let line = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    return line.isEmpty ? "the connection to the server is broken" : line
  }

  /// `duration` in whole milliseconds for `poll`, rounded up so a wait never ends early.
  private static func pollMilliseconds(_ duration: Duration) -> Int32 {
    let milliseconds = (duration / .milliseconds(1)).rounded(.up)
    return Int32(min(max(milliseconds, 0), Double(Int32.max)))
  }
}
