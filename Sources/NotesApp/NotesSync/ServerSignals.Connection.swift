internal import Foundation
internal import NotesServer

extension ServerSignals {
  /// The listening connection, on a queue of its own.
  ///
  /// ## Guarantees
  ///
  /// - Every libpq call (connect, LISTEN, reading notifications, the heartbeat's SELECT 1,
  ///   closing) runs on the connection's queue, one at a time, within its `NetworkBounds`.
  /// - Nothing waits for notifications in a blocking call: a dispatch read source on the
  ///   socket wakes the queue when the server sent something, which is then read without
  ///   waiting. A socket that fails or a connection the server closed is reported once, as
  ///   `lost`, and the connection is closed.
  /// - Events go to `onEvent` (from the queue, in order); after `close()` none is reported.
  /// - Thread-safety: the connection and the read source are touched only on the queue, so
  ///   the class is `@unchecked Sendable` by that discipline.
  final class Connection: @unchecked Sendable {
    /// What the connection reports.
    enum Event: Sendable {
      /// Notifications received together: their payloads.
      case signals([String])
      /// The connection was lost, for this reason.
      case lost(String)
    }

    private let url: String
    private let bounds: NetworkBounds
    private let onEvent: @Sendable (Event) -> Void
    private let queue = DispatchQueue(label: "notes.sync.signals")
    // Touched only on `queue`.
    private var connection: PostgresConnection?
    private var source: (any DispatchSourceRead)?
    private var isClosed = false

    /// Creates the connection; nothing is sent until ``open()``.
    ///
    /// - Parameters:
    ///   - url: The server's connection string.
    ///   - bounds: How long to wait on the network.
    ///   - onEvent: Called from the queue with each event.
    init(url: String, bounds: NetworkBounds, onEvent: @escaping @Sendable (Event) -> Void) {
      self.url = url
      self.bounds = bounds
      self.onEvent = onEvent
    }

    /// Connects, listens on the account's channel, and starts reading signals.
    ///
    /// - Returns: Success, or why the connection could not be made.
    func open() async -> Result<Void, PostgresError> {
      await onQueue {
        guard !self.isClosed else { return .failure(PostgresError("closed")) }
        do {
          let connection = try PostgresConnection(url: self.url, bounds: self.bounds)
          self.connection = connection
          try connection.listen(try ServerAccount(checking: connection).channel)
          self.watch(connection)
          return .success(())
        } catch let error as PostgresError {
          self.tearDown()
          return .failure(error)
        } catch {
          self.tearDown()
          return .failure(PostgresError("\(error)"))
        }
      }
    }

    /// Asks the server a `SELECT 1`, within the bounds, then reads what arrived with it.
    ///
    /// - Returns: Success, or why the connection is lost (it is closed then).
    func ping() async -> Result<Void, PostgresError> {
      await onQueue {
        guard let connection = self.connection else {
          return .failure(PostgresError("the connection is closed", isUnavailable: true))
        }
        do throws(PostgresError) {
          try connection.execute("SELECT 1")
          self.deliver(from: connection)
          return .success(())
        } catch {
          self.tearDown()
          return .failure(error)
        }
      }
    }

    /// Closes the connection on its queue; no event is reported afterwards.
    func close() {
      queue.async {
        self.isClosed = true
        self.tearDown()
      }
    }

    /// Runs `work` on the queue and returns what it returns.
    private func onQueue<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
      await withCheckedContinuation { continuation in
        queue.async { continuation.resume(returning: work()) }
      }
    }

    /// Wakes the queue whenever the socket has something to read.
    private func watch(_ connection: PostgresConnection) {
      guard let socket = connection.socket else { return }
      let source = DispatchSource.makeReadSource(fileDescriptor: socket, queue: queue)
      source.setEventHandler { [weak self] in
        guard let self, let connection = self.connection else { return }
        self.deliver(from: connection)
      }
      source.resume()
      self.source = source
    }

    /// Reports what the connection received, or its loss.
    private func deliver(from connection: PostgresConnection) {
      do {
        // The read source may fire once for several arrivals (the server's last message
        // and its end of the connection, together): read until nothing is left, so an end
        // is never left unread with no wake-up to come.
        var received: [PostgresNotification] = []
        repeat {
          received += try connection.notifications(waitingUpTo: .zero)
        } while connection.hasUnreadInput
        if !received.isEmpty, !isClosed { onEvent(.signals(received.map(\.payload))) }
      } catch {
        tearDown()
        if !isClosed { onEvent(.lost(error.message)) }
      }
    }

    /// Stops reading and closes the connection; on the queue.
    private func tearDown() {
      if let source {
        // The socket is closed once the source has let go of it.
        let connection = self.connection
        source.setCancelHandler { connection?.close() }
        source.cancel()
      } else {
        connection?.close()
      }
      source = nil
      connection = nil
    }
  }
}
