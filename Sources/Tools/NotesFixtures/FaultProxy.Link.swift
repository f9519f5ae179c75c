import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension FaultProxy {
  /// A fault placed at the first message that contains a marker.
  ///
  /// ## Guarantees
  ///
  /// - A trigger fires once, on the first message that contains its marker, and everyone
  ///   waiting for it learns the connection's id.
  public final class Trigger: @unchecked Sendable {
    let marker: [UInt8]
    let moment: Moment
    let action: Action
    // Guarded by `lock`.
    private let lock = NSLock()
    private var firedOn: Int?
    private var waiting: [CheckedContinuation<Int, Never>] = []

    init(marker: [UInt8], moment: Moment, action: Action) {
      self.marker = marker
      self.moment = moment
      self.action = action
    }

    /// The connection it fired on, or `nil` while it has not fired.
    public var connection: Int? { lock.withLock { firedOn } }

    /// Waits until the trigger fires.
    ///
    /// - Returns: The connection it fired on.
    public func fired() async -> Int {
      await withCheckedContinuation { continuation in
        let now = lock.withLock { () -> Int? in
          if firedOn == nil { waiting.append(continuation) }
          return firedOn
        }
        if let now { continuation.resume(returning: now) }
      }
    }

    /// Marks it fired on `connection`, unless it already fired; returns whether it did now.
    func fire(on connection: Int) -> Bool {
      let waiters = lock.withLock { () -> [CheckedContinuation<Int, Never>]? in
        guard firedOn == nil else { return nil }
        firedOn = connection
        defer { waiting = [] }
        return waiting
      }
      guard let waiters else { return false }
      for waiter in waiters { waiter.resume(returning: connection) }
      return true
    }

    /// Whether `message` contains the marker.
    func matches(_ message: [UInt8]) -> Bool {
      guard !marker.isEmpty, message.count >= marker.count else { return false }
      return (0...(message.count - marker.count)).contains { start in
        message[start] == marker[0] && message[start..<start + marker.count].elementsEqual(marker)
      }
    }
  }

  /// One direction of a connection: its fault and the bytes on their way.
  struct Stream {
    var fault: Fault
    /// Bytes read and not yet sent, each piece with the time it was read.
    var pieces: [(read: ContinuousClock.Instant, bytes: [UInt8])] = []
    /// Bytes of the first piece already sent.
    var sent = 0
    var sourceEnded = false
    var sourceReset = false
    var endPassedOn = false

    /// When the first piece held may be sent.
    var firstDue: ContinuousClock.Instant? {
      guard let first = pieces.first else { return nil }
      switch fault {
      case .pass: return first.read
      case .delay(let delay): return first.read.advanced(by: delay)
      case .drop: return nil
      }
    }
  }

  /// One proxied connection.
  ///
  /// It holds the device's socket, the server's, and the bytes on their way each direction.
  ///
  /// ## Guarantees
  ///
  /// - Used only by the proxy's thread and its steering calls, under the proxy's lock.
  /// - Each direction keeps its bytes in order; what it holds is sent by `flush()` as its
  ///   fault allows, and a peer's end (FIN, or a reset) is passed on after the last byte
  ///   before it, under the same fault.
  final class Link {
    let id: Int
    private let client: Int32
    private let server: Int32
    private var toServer: Stream
    private var toClient: Stream
    private var messages = FrontendMessages()
    private(set) var isClosed = false

    init(id: Int, client: Int32, server: Int32, faults: (toServer: Fault, toClient: Fault)) {
      self.id = id
      self.client = client
      self.server = server
      toServer = Stream(fault: faults.toServer)
      toClient = Stream(fault: faults.toClient)
    }

    func set(_ fault: Fault, _ directions: Directions) {
      if directions.contains(.toServer) { toServer.fault = fault }
      if directions.contains(.toClient) { toClient.fault = fault }
    }

    /// What to poll: each side for reading until it ended, and for writing while bytes for
    /// it are due.
    func pollDescriptors() -> [pollfd] {
      guard !isClosed else { return [] }
      let now = ContinuousClock.now
      func events(reading: Stream, writing: Stream) -> Int16 {
        var events: Int16 = 0
        if !reading.sourceEnded { events |= Int16(POLLIN) }
        if let due = writing.firstDue, due <= now { events |= Int16(POLLOUT) }
        return events
      }
      // A side with nothing to wait for is left out (a negative descriptor), or its hang-up
      // would wake the poll at once, again and again.
      return [(client, toServer, toClient), (server, toClient, toServer)].map {
        socket, reading, writing in
        let wanted = events(reading: reading, writing: writing)
        return pollfd(fd: wanted == 0 ? -1 : socket, events: wanted, revents: 0)
      }
    }

    /// The earliest time a held byte becomes due, for the poll's timeout.
    func nextDue() -> ContinuousClock.Instant? {
      guard !isClosed else { return nil }
      return [toServer.firstDue, toClient.firstDue].compactMap { $0 }.min()
    }

    /// Reads what both sides sent; the client's bytes message by message, firing triggers.
    func readAll(firing triggers: [Trigger]) {
      guard !isClosed else { return }
      if let bytes = Self.readAvailable(server, into: &toClient) {
        toClient.pieces.append((ContinuousClock.now, bytes))
      }
      guard let bytes = Self.readAvailable(client, into: &toServer) else { return }
      for message in messages.add(bytes) {
        let matching = triggers.filter { $0.matches(message) }
        for trigger in matching where trigger.moment == .before {
          if trigger.fire(on: id) { apply(trigger.action) }
        }
        if isClosed { return }
        toServer.pieces.append((ContinuousClock.now, message))
        flush()
        for trigger in matching where trigger.moment == .after {
          if trigger.fire(on: id) { apply(trigger.action) }
        }
        if isClosed { return }
      }
    }

    private func apply(_ action: Action) {
      switch action {
      case .none: break
      case .set(let fault, let directions): set(fault, directions)
      case .cut: cut()
      }
    }

    /// Sends what each direction's fault lets through, and passes on a peer's end.
    func flush() {
      guard !isClosed else { return }
      if !Self.flush(&toServer, to: server) || !Self.flush(&toClient, to: client) {
        cut()
        return
      }
      // A reset passes on as a reset.
      if (toServer.sourceReset && toServer.endPassedOn)
        || (toClient.sourceReset && toClient.endPassedOn)
      {
        cut()
        return
      }
      if toServer.endPassedOn, toClient.endPassedOn {
        close(client)
        close(server)
        isClosed = true
      }
    }

    /// Resets both sides.
    func cut() {
      guard !isClosed else { return }
      Self.reset(client)
      Self.reset(server)
      isClosed = true
    }

    /// Closes `socket` with a reset rather than an orderly end.
    static func reset(_ socket: Int32) {
      var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
      _ = setsockopt(
        socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
      close(socket)
    }

    /// Everything `socket` has to read now, or `nil` when it has nothing; marks the
    /// stream's source ended (or reset) when the peer closed.
    private static func readAvailable(_ socket: Int32, into stream: inout Stream) -> [UInt8]? {
      guard !stream.sourceEnded else { return nil }
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count > 0 {
          bytes += buffer[..<count]
          continue
        }
        if count == 0 {
          stream.sourceEnded = true
        } else if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
          stream.sourceEnded = true
          stream.sourceReset = true
        }
        break
      }
      return bytes.isEmpty ? nil : bytes
    }

    /// Sends the pieces of `stream` that are due to `socket`, then its end when it is due.
    ///
    /// - Returns: `false` when the destination is gone.
    private static func flush(_ stream: inout Stream, to socket: Int32) -> Bool {
      let now = ContinuousClock.now
      while let due = stream.firstDue, due <= now {
        let piece = stream.pieces[0].bytes
        let count = piece[stream.sent...].withUnsafeBytes { remaining in
          send(socket, remaining.baseAddress, remaining.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        if count < 0 {
          return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
        }
        stream.sent += count
        if stream.sent == piece.count {
          stream.pieces.removeFirst()
          stream.sent = 0
        }
      }
      if stream.pieces.isEmpty, stream.sourceEnded, !stream.endPassedOn, stream.fault != .drop {
        stream.endPassedOn = true
        if !stream.sourceReset { _ = shutdown(socket, Int32(SHUT_WR)) }
      }
      return true
    }
  }
}
