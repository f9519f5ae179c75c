// PostgresConnection+Answers: a statement sent, and its answer awaited within the
// connection's bounds.

import CPostgres

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension PostgresConnection {
  /// Sends one statement with `send` (a `PQsend…` call) and returns its result, waiting
  /// for it within ``bounds``.
  ///
  /// ## Guarantees
  ///
  /// - A statement's answer is awaited on the socket with `poll`, never in a libpq call that
  ///   could wait for ever: when the server sends nothing for `bounds.answer`, the connection
  ///   is closed and the call fails `isUnavailable` (a network that went silent, with no
  ///   reset, is noticed that way; libpq alone would wait until TCP gives up, which on a
  ///   silent network may be never).
  /// - Silence is measured between bytes: a large answer that keeps arriving is never cut.
  /// - Notifications that arrive with an answer stay in libpq's queue for the next
  ///   `notifications(waitingUpTo:)`.
  ///
  /// - Parameters:
  ///   - send: Sends the statement on the handle; returns 1 when it was sent.
  ///   - handle: The open connection.
  ///   - whileWaiting: Work of the caller's, done once the statement is sent, while the
  ///     server runs it.
  /// - Returns: The statement's result (an error result included), or `nil` when libpq
  ///   has none (its message says why).
  /// - Throws: ``PostgresError`` (`isUnavailable`) when the statement cannot be sent, the
  ///   connection breaks, or the server stays silent past `bounds.answer`; the connection
  ///   is closed then.
  func answer(
    to send: (OpaquePointer) -> Int32, on handle: OpaquePointer, whileWaiting: () -> Void = {}
  ) throws(PostgresError) -> OpaquePointer? {
    guard send(handle) == 1 else { throw lost(Self.firstLine(PQerrorMessage(handle))) }
    whileWaiting()
    return try result(on: handle)
  }

  /// The result of the next statement whose answer is awaited, within the bounds: its
  /// results are read until libpq has none more for it (an error kept over anything after
  /// it).
  ///
  /// - Returns: The result, or `nil` when libpq has none (its message says why).
  /// - Throws: ``PostgresError`` (`isUnavailable`) when the connection breaks or the server
  ///   stays silent past `bounds.answer`; the connection is closed then.
  func result(on handle: OpaquePointer) throws(PostgresError) -> OpaquePointer? {
    var kept: OpaquePointer?
    while true {
      try awaitResult(on: handle)
      guard let next = PQgetResult(handle) else { break }
      // One statement gives one result; an error one is kept over anything after it.
      if let kept, PQresultStatus(kept) == PGRES_FATAL_ERROR {
        PQclear(next)
      } else {
        if let kept { PQclear(kept) }
        kept = next
      }
    }
    return kept
  }

  /// Waits until libpq holds a whole result (or knows there is none), reading the socket
  /// as bytes arrive; never longer than `bounds.answer` of silence.
  func awaitResult(on handle: OpaquePointer) throws(PostgresError) {
    guard let bound = bounds.answer else { return }  // PQgetResult waits, unbounded.
    let socket = PQsocket(handle)
    while PQisBusy(handle) == 1 {
      guard socket >= 0 else { throw lost(Self.firstLine(PQerrorMessage(handle))) }
      var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, NetworkBounds.milliseconds(bound).clampedToInt32)
      if ready < 0 {
        let failure = errno
        if failure == EINTR { continue }
        throw lost("cannot wait for the server: \(String(cString: strerror(failure)))")
      }
      if ready == 0 {
        throw lost(
          "the server sent nothing for \(NetworkBounds.text(bound)): the connection is taken"
            + " as lost")
      }
      guard PQconsumeInput(handle) == 1 else {
        throw lost(Self.firstLine(PQerrorMessage(handle)))
      }
    }
  }

  /// Closes the connection and returns the error that says it was lost.
  func lost(_ message: String) -> PostgresError {
    close()
    return PostgresError(message, isUnavailable: true)
  }
}

extension Int {
  /// The value, or the nearest `Int32`.
  fileprivate var clampedToInt32: Int32 { Int32(clamping: self) }
}
