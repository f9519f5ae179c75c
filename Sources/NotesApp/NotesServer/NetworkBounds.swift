/// How long a connection waits on the network before it gives up.
///
/// ```swift
/// let connection = try PostgresConnection(url: url, bounds: .standard)
/// // a server that stops answering is noticed after 30 s of silence
/// ```
///
/// A device notices a silent data connection within ``answer`` of silence, and a silent
/// connection attempt within ``connect``. The server ends a silent device's transaction
/// within ``idleInTransaction``, which lets the account's other devices push again.
///
/// ## Guarantees
///
/// - Every wait has a bound: connecting (`connect_timeout`), each answer the connection
///   waits for (silence between two bytes of it, on this side), each statement on the
///   server (`statement_timeout`), a transaction left idle by a silent device (the server's
///   `idle_in_transaction_session_timeout`, which also frees the account's push lock), and
///   an idle connection over a dead network (TCP keepalives on both sides, and
///   `tcp_user_timeout` for data sent and never acknowledged).
/// - The server's own bounds are shorter than this side's wait for an answer, so a slow
///   server reports its own error before the device gives up on it; and the idle
///   transaction bound is shorter than the statement bound, so a push waiting for a silent
///   device's lock gets it before its own statement runs out.
/// - A setting the connection string gives itself is the user's choice and wins; the
///   bounds fill in only what it leaves out.
public struct NetworkBounds: Equatable, Sendable {
  /// The longest a connection attempt waits (libpq's `connect_timeout`, whole seconds, at
  /// least 2).
  public var connect: Duration
  /// The longest silence this side accepts while it waits for the server's answer; `nil`
  /// waits as long as the server takes.
  public var answer: Duration?
  /// The longest a statement may run on the server (`statement_timeout`); `nil` for no
  /// bound.
  public var statement: Duration?
  /// The longest the server keeps a transaction whose device went silent
  /// (`idle_in_transaction_session_timeout`); `nil` for no bound.
  public var idleInTransaction: Duration?
  /// How long an idle connection stays quiet before TCP asks whether the other side is
  /// still there (`keepalives_idle`, and the server's `tcp_keepalives_idle`).
  public var keepaliveIdle: Duration
  /// How long TCP waits between two of those questions (`keepalives_interval`).
  public var keepaliveInterval: Duration
  /// How many unanswered questions end the connection (`keepalives_count`).
  public var keepaliveCount: Int

  /// Bounds with every value given.
  ///
  /// - Parameters:
  ///   - connect: The connection attempt's bound.
  ///   - answer: The silence accepted while waiting for an answer.
  ///   - statement: The server's bound on a statement.
  ///   - idleInTransaction: The server's bound on a silent device's transaction.
  ///   - keepaliveIdle: Quiet time before TCP's first keepalive.
  ///   - keepaliveInterval: Time between keepalives.
  ///   - keepaliveCount: Unanswered keepalives that end the connection.
  public init(
    connect: Duration, answer: Duration?, statement: Duration?, idleInTransaction: Duration?,
    keepaliveIdle: Duration, keepaliveInterval: Duration, keepaliveCount: Int
  ) {
    self.connect = connect
    self.answer = answer
    self.statement = statement
    self.idleInTransaction = idleInTransaction
    self.keepaliveIdle = keepaliveIdle
    self.keepaliveInterval = keepaliveInterval
    self.keepaliveCount = keepaliveCount
  }

  /// What a device's connections use: a silent connection is noticed within 30 s, a
  /// connection attempt gives up after 10 s, a statement runs at most 25 s on the server,
  /// and the server ends a silent device's transaction after 20 s.
  public static let standard = NetworkBounds(
    connect: .seconds(10), answer: .seconds(30), statement: .seconds(25),
    idleInTransaction: .seconds(20), keepaliveIdle: .seconds(10),
    keepaliveInterval: .seconds(5), keepaliveCount: 3)

  /// What the operator's commands use: connecting and idle connections are bounded, but a
  /// statement runs as long as it takes (upgrading a large server's tables may take
  /// minutes; the operator sees it run and can interrupt it).
  public static let unhurried = NetworkBounds(
    connect: .seconds(10), answer: nil, statement: nil, idleInTransaction: nil,
    keepaliveIdle: .seconds(10), keepaliveInterval: .seconds(5), keepaliveCount: 3)

  /// `settings` with these bounds added where the connection string leaves them out.
  ///
  /// libpq's own keywords (`connect_timeout`, `keepalives…`, `tcp_user_timeout`) are added
  /// unless given; the server's settings go into `options` ahead of the string's own, so
  /// a `-c` the string gives comes later and wins.
  ///
  /// - Parameter settings: The connection's settings.
  /// - Returns: The settings to connect with.
  public func applied(to settings: ConnectionSettings) -> ConnectionSettings {
    var result = settings
    func add(_ keyword: String, _ value: String) {
      if settings.value(keyword) == nil { result = result.setting(keyword, to: value) }
    }
    add("connect_timeout", String(max(2, Self.seconds(connect))))
    add("keepalives", "1")
    add("keepalives_idle", String(max(1, Self.seconds(keepaliveIdle))))
    add("keepalives_interval", String(max(1, Self.seconds(keepaliveInterval))))
    add("keepalives_count", String(max(1, keepaliveCount)))
    if let answer { add("tcp_user_timeout", String(Self.milliseconds(answer))) }
    var server: [String] = []
    if let statement { server.append("-c statement_timeout=\(Self.milliseconds(statement))") }
    if let idleInTransaction {
      server.append(
        "-c idle_in_transaction_session_timeout=\(Self.milliseconds(idleInTransaction))")
    }
    server += [
      "-c tcp_keepalives_idle=\(max(1, Self.seconds(keepaliveIdle)))",
      "-c tcp_keepalives_interval=\(max(1, Self.seconds(keepaliveInterval)))",
      "-c tcp_keepalives_count=\(max(1, keepaliveCount))",
    ]
    if let answer { server.append("-c tcp_user_timeout=\(Self.milliseconds(answer))") }
    let options = (server + [settings.value("options")].compactMap { $0 })
      .joined(separator: " ")
    return result.setting("options", to: options)
  }

  /// `duration` as a person reads it: "30 s", "1.5 s".
  public static func text(_ duration: Duration) -> String {
    let milliseconds = milliseconds(duration)
    if milliseconds % 1_000 == 0 { return "\(milliseconds / 1_000) s" }
    return "\(Double(milliseconds) / 1_000) s"
  }

  /// `duration` in whole seconds, rounded up.
  static func seconds(_ duration: Duration) -> Int {
    Int((duration / .seconds(1)).rounded(.up))
  }

  /// `duration` in whole milliseconds, rounded up, at least 1.
  static func milliseconds(_ duration: Duration) -> Int {
    max(1, Int((duration / .milliseconds(1)).rounded(.up)))
  }
}
