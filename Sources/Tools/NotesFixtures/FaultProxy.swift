import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP proxy whose network faults a test places.
///
/// A TCP proxy of the tests' own between a device and the server, whose network faults a test
/// places exactly — pass, delay, drop (a silent network: nothing crosses, nothing is reset), cut (a
/// reset) — per direction and per connection, changed while the connections are open.
///
/// ```swift
/// let proxy = try FaultProxy(to: server.port)
/// defer { proxy.stop() }
/// let silent = proxy.when(clientSends: "pg_notify", then: .set(.drop, .both))
/// // … a device syncs through 127.0.0.1:\(proxy.port); its push goes silent mid-transaction
/// let connection = await silent.fired()
/// proxy.set(.pass)   // the partition heals
/// ```
///
/// ## Guarantees
///
/// - In-process, on one thread of its own, with Glibc sockets only: a test steers it with
///   method calls that take effect before they return (no control protocol, no process to
///   reap), and it runs under the sanitizers with the tests.
/// - Listens on 127.0.0.1 on a port the kernel picks; each connection accepted is
///   connected to the target port on 127.0.0.1 and forwarded both ways, byte for byte.
/// - Drop holds: bytes read while a direction drops are kept, in order, and cross when it
///   passes again, as TCP delivers them after a partition heals. A peer's end (FIN) or
///   reset is held the same way. Nothing is ever reset by a drop.
/// - Cut resets both sides at once (`SO_LINGER` 0): each peer reads ECONNRESET.
/// - Triggers place a fault at a message: the client's stream is read as PostgreSQL's
///   protocol messages, and a trigger fires on the first message that contains its marker
///   (`FaultProxy.Trigger`), applying its action to that connection just before the message
///   is forwarded, or just after.
/// - Once a direction passes, a byte is sent as soon as it is read (a delayed direction
///   sends each byte its delay after it was read, in order).
/// - `stop()` resets every connection, closes the listener and ends the thread; call it in
///   a `defer` right after making the proxy.
/// - Thread-safety: everything mutable is guarded by `lock`, which the thread holds while it
///   reads and writes (every socket is non-blocking), so a change made by a call is in force
///   for every byte the thread moves after the call returns.
public final class FaultProxy: @unchecked Sendable {
  /// What happens to the bytes of one direction of a connection.
  public enum Fault: Equatable, Sendable {
    /// Forwarded at once.
    case pass
    /// Forwarded this long after they were read, in order.
    case delay(Duration)
    /// Held: nothing crosses and nothing is reset; they cross when the direction passes
    /// again.
    case drop
  }

  /// Directions of a connection.
  public struct Directions: OptionSet, Sendable {
    /// Raw bits.
    public let rawValue: Int
    /// Creates directions from raw bits.
    ///
    /// - Parameter rawValue: The bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// From the device to the server.
    public static let toServer = Directions(rawValue: 1)
    /// From the server to the device.
    public static let toClient = Directions(rawValue: 2)
    /// Both ways.
    public static let both: Directions = [.toServer, .toClient]
  }

  /// What a trigger does to the connection it fired on.
  public enum Action: Sendable {
    /// Nothing: the trigger only names the connection.
    case none
    /// Sets the fault of the directions.
    case set(Fault, Directions)
    /// Resets both sides.
    case cut
  }

  /// Whether a trigger's action applies before its message is forwarded, or after.
  public enum Moment: Sendable {
    /// Before: the message is forwarded under the new fault (a cut: never).
    case before
    /// After: the message is handed on first.
    case after
  }

  /// What went wrong making the proxy.
  public struct Failure: Error, CustomStringConvertible {
    /// Why.
    public let description: String
  }

  /// The port the proxy listens on, on 127.0.0.1.
  public let port: Int
  private let target: Int
  private let listener: Int32
  private let wake: (read: Int32, write: Int32)
  private let finished = DispatchSemaphore(value: 0)

  // Guarded by `lock`.
  private let lock = NSLock()
  private var links: [Int: Link] = [:]
  private var nextID = 1
  private var faults: (toServer: Fault, toClient: Fault) = (.pass, .pass)
  private var refusing = false
  private var triggers: [Trigger] = []
  private var isRunning = true
  private var accepted = 0

  /// Starts a proxy to the server listening on 127.0.0.1 at `target`.
  ///
  /// - Parameter target: The server's port.
  /// - Throws: ``Failure`` when no socket can be made or bound.
  public init(to target: Int) throws {
    self.target = target
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard listener >= 0 else { throw Failure(description: "cannot make a socket") }
    var address = Self.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        bind(listener, generic, length) == 0 && listen(listener, 64) == 0
          && getsockname(listener, generic, &length) == 0
      }
    }
    var pipeEnds: [Int32] = [-1, -1]
    guard bound, pipe(&pipeEnds) == 0 else {
      close(listener)
      throw Failure(description: "cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))")
    }
    for descriptor in [listener] + pipeEnds { Self.makeNonBlocking(descriptor) }
    self.listener = listener
    self.wake = (pipeEnds[0], pipeEnds[1])
    self.port = Int(UInt16(bigEndian: address.sin_port))
    let thread = Thread { [self] in run() }
    thread.name = "fault-proxy"
    thread.start()
  }

  // MARK: Steering

  /// Sets the fault of `directions` on every open connection and every later one.
  ///
  /// - Parameters:
  ///   - fault: The fault.
  ///   - directions: Which directions; both by default.
  public func set(_ fault: Fault, _ directions: Directions = .both) {
    changing {
      if directions.contains(.toServer) { faults.toServer = fault }
      if directions.contains(.toClient) { faults.toClient = fault }
      for link in links.values { link.set(fault, directions) }
    }
  }

  /// Sets the fault of `directions` on one connection.
  ///
  /// - Parameters:
  ///   - fault: The fault.
  ///   - directions: Which directions; both by default.
  ///   - connection: The connection (a trigger's, or one of ``openConnections``).
  public func set(_ fault: Fault, _ directions: Directions = .both, on connection: Int) {
    changing { links[connection]?.set(fault, directions) }
  }

  /// Resets one connection at both ends.
  ///
  /// - Parameter connection: The connection.
  public func cut(_ connection: Int) {
    changing {
      links[connection]?.cut()
      links[connection] = nil
    }
  }

  /// Resets every open connection at both ends.
  public func cutAll() {
    changing {
      for link in links.values { link.cut() }
      links = [:]
    }
  }

  /// Whether a new connection is reset as soon as it is accepted (a network that refuses
  /// at once, rather than one that stays silent).
  public var refusesNewConnections: Bool {
    get { lock.withLock { refusing } }
    set { changing { refusing = newValue } }
  }

  /// Fires on the first message the client sends, on any connection, that contains
  /// `marker`, and applies `action` to that connection.
  ///
  /// - Parameters:
  ///   - marker: Text the message must contain (SQL, a prepared statement's name).
  ///   - moment: Whether the action applies before the message is forwarded, or after.
  ///   - action: What to do to the connection.
  /// - Returns: The trigger, to wait for.
  public func when(
    clientSends marker: String, _ moment: Moment = .after, then action: Action
  ) -> Trigger {
    let trigger = Trigger(marker: Array(marker.utf8), moment: moment, action: action)
    changing { triggers.append(trigger) }
    return trigger
  }

  /// The connections open now, oldest first.
  public var openConnections: [Int] { lock.withLock { links.keys.sorted() } }

  /// How many connections the proxy has accepted.
  public var acceptedCount: Int { lock.withLock { accepted } }

  /// Resets every connection, stops listening and ends the proxy's thread.
  public func stop() {
    let wasRunning = changing { () -> Bool in
      defer { isRunning = false }
      return isRunning
    }
    guard wasRunning else { return }
    finished.wait()
  }

  /// Runs `change` under the lock and wakes the thread to apply it.
  @discardableResult
  private func changing<Value>(_ change: () -> Value) -> Value {
    let value = lock.withLock(change)
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
    return value
  }

  // MARK: The thread

  private func run() {
    while true {
      var descriptors: [pollfd] = []
      let timeout: Int32 = lock.withLock {
        guard isRunning else { return -2 }
        descriptors = [
          pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
          pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        for link in links.values { descriptors += link.pollDescriptors() }
        return Self.milliseconds(until: links.values.compactMap { $0.nextDue() }.min())
      }
      if timeout == -2 { break }
      _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
      lock.withLock {
        var byte = [UInt8](repeating: 0, count: 64)
        while read(wake.read, &byte, byte.count) > 0 {}
        acceptAll()
        for link in Array(links.values) {
          link.readAll(firing: triggers)
          link.flush()
          if link.isClosed { links[link.id] = nil }
        }
      }
    }
    lock.withLock {
      for link in links.values { link.cut() }
      links = [:]
    }
    close(listener)
    close(wake.read)
    close(wake.write)
    finished.signal()
  }

  /// Accepts every waiting connection and connects each to the target; with the lock held.
  private func acceptAll() {
    while true {
      let client = accept(listener, nil, nil)
      guard client >= 0 else { return }
      Self.makeNonBlocking(client)
      accepted += 1
      guard !refusing, let server = connectToTarget() else {
        Link.reset(client)
        continue
      }
      let link = Link(id: nextID, client: client, server: server, faults: faults)
      nextID += 1
      links[link.id] = link
    }
  }

  /// A non-blocking socket connected to the target, or `nil` when nothing listens there.
  private func connectToTarget() -> Int32? {
    let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard server >= 0 else { return nil }
    var address = Self.loopback(port: target)
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard connected else {
      close(server)
      return nil
    }
    Self.makeNonBlocking(server)
    var on: Int32 = 1
    _ = setsockopt(
      server, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    return server
  }

  /// Sets `O_NONBLOCK` and `FD_CLOEXEC` on `descriptor`.
  private static func makeNonBlocking(_ descriptor: Int32) {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
  }

  /// The address 127.0.0.1:`port`.
  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
  }

  /// `poll`'s timeout until `due` (rounded up), or -1 to wait for a socket.
  private static func milliseconds(until due: ContinuousClock.Instant?) -> Int32 {
    guard let due else { return -1 }
    let left = ContinuousClock.now.duration(to: due)
    guard left > .zero else { return 0 }
    return Int32(clamping: Int((left / .milliseconds(1)).rounded(.up)))
  }
}
