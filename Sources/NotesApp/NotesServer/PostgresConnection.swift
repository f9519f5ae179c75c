import CPostgres
import Foundation

/// Something PostgreSQL or libpq refused, with its message.
public struct PostgresError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, as the server or libpq says it (one line).
  public let message: String
  /// The SQLSTATE code for an error the server reported, such as `42P01`.
  public let sqlState: String?
  /// Whether the server could not be reached or the connection to it was lost (rather than
  /// the server refusing a statement): trying again later may succeed.
  public let isUnavailable: Bool
  /// Whether the server asked for a password and libpq had none to give (none in the
  /// settings, `PGPASSWORD` or the password file): asking the user for one may succeed.
  public let needsPassword: Bool

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - message: What went wrong.
  ///   - sqlState: The server's SQLSTATE code, if any.
  ///   - isUnavailable: Whether the server could not be reached or the connection was lost;
  ///     SQLSTATE class 08 (connection exception) counts as unavailable too.
  ///   - needsPassword: Whether a connection failed for want of a password.
  public init(
    _ message: String, sqlState: String? = nil, isUnavailable: Bool = false,
    needsPassword: Bool = false
  ) {
    self.message = message
    self.sqlState = sqlState
    self.isUnavailable = isUnavailable || sqlState?.hasPrefix("08") == true
    self.needsPassword = needsPassword
  }

  /// The message.
  public var description: String { message }
}

/// The rows a statement returned, as text (PostgreSQL's text format), `nil` for NULL.
public struct PostgresRows: Equatable, Sendable {
  /// The column names, in order.
  public let columns: [String]
  /// Each row's values, in column order.
  public let rows: [[String?]]

  /// The only value of a one-row, one-column result, or `nil`.
  public var singleValue: String? {
    rows.count == 1 && columns.count == 1 ? rows[0][0] : nil
  }
}

/// One connection to a PostgreSQL server.
///
/// One libpq connection to a PostgreSQL server, and the statements it runs.
///
/// ```swift
/// let connection = try PostgresConnection(url: "postgresql:///notes?host=/run/postgresql")
/// let rows = try connection.execute("SELECT $1::int + 1", ["41"])   // [["42"]]
/// ```
///
/// ## Guarantees
///
/// - One owner: a connection is not Sendable and its calls block; run it on one thread or
///   serial queue, never on the main actor or the cooperative pool (libpq blocks).
/// - Every statement runs with parameters sent apart from the SQL text (`PQexecParams`),
///   so no value is ever spliced into SQL.
/// - A failure is a `PostgresError` with the server's or libpq's message and, for errors
///   the server reports, its SQLSTATE code; the connection stays usable after a statement
///   fails (outside a transaction).
/// - Server notices are not printed.
/// - Every connection keeps the transport rule (`ConnectionSettings.checkTransport`): a
///   server that is not on this machine is reached with TLS and a checked certificate, or
///   as the URL explicitly says; otherwise nothing is sent.
/// - A connection refused for good (a wrong password, an unknown role, a certificate that
///   does not check out) is not `isUnavailable`: trying again later would not help.
/// - Every wait on the network is bounded by the connection's `NetworkBounds`: connecting,
///   each answer (silence between two of its bytes), and on the server each statement and
///   each transaction left idle. A connection whose server stays silent past the bound is
///   closed and the call fails `isUnavailable`; every later call fails at once.
public final class PostgresConnection {
  private(set) var handle: OpaquePointer?
  /// The statements prepared on this connection, by name.
  var prepared: Set<String> = []
  /// How long this connection waits on the network.
  public let bounds: NetworkBounds

  /// Connects to the server `url` names (a libpq connection URI or `key=value` string;
  /// a password comes from the URL, `PGPASSWORD` or the password file, as libpq finds it).
  ///
  /// - Parameters:
  ///   - url: The connection string.
  ///   - bounds: How long to wait on the network at each step.
  /// - Throws: ``PostgresError`` when the string cannot be read, breaks the transport rule
  ///   (see ``ConnectionSettings/checkTransport()``: nothing is sent then), or with
  ///   libpq's reason when the server cannot be reached or refuses the connection.
  public convenience init(url: String, bounds: NetworkBounds = .standard) throws(PostgresError) {
    try self.init(settings: ConnectionSettings(url), bounds: bounds)
  }

  /// Connects with `settings`, once they keep the transport rule.
  ///
  /// - Parameters:
  ///   - settings: The connection's settings.
  ///   - bounds: How long to wait on the network at each step; what `settings` gives
  ///     itself wins (see ``NetworkBounds/applied(to:)``).
  /// - Throws: ``PostgresError`` when the settings break the transport rule (nothing is
  ///   sent then), or with libpq's reason when the server cannot be reached, refuses the
  ///   connection or does not answer within `bounds.connect`.
  public init(settings: ConnectionSettings, bounds: NetworkBounds = .standard)
    throws(PostgresError)
  {
    try settings.checkTransport()
    self.bounds = bounds
    let settings = bounds.applied(to: settings)
    let keywords = settings.given.map { strdup($0.keyword) } + [nil]
    let values = settings.given.map { strdup($0.value) } + [nil]
    defer { for pointer in keywords + values { free(pointer) } }
    let connection = keywords.withUnsafeBufferPointer { keywordBuffer in
      values.withUnsafeBufferPointer { valueBuffer in
        keywordBuffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { keywordPointers in
          valueBuffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { valuePointers in
            // expand_dbname 0: every value is taken as itself, never read as a string again.
            PQconnectdbParams(keywordPointers.baseAddress, valuePointers.baseAddress, 0)
          }
        }
      }
    }
    guard let connection, PQstatus(connection) == CONNECTION_OK else {
      let message = connection.map { Self.firstLine(PQerrorMessage($0)) } ?? "out of memory"
      let needsPassword = connection.map { PQconnectionNeedsPassword($0) == 1 } ?? false
      if let connection { PQfinish(connection) }
      throw PostgresError(
        "cannot connect to the server: \(message)", isUnavailable: !Self.isRefusal(message),
        needsPassword: needsPassword)
    }
    cpostgres_silence_notices(connection)
    handle = connection
  }

  /// Whether libpq's reason for a failed connection is the server (or libpq) refusing it
  /// — a wrong password, an unknown role, a certificate that does not check out — rather
  /// than the server being out of reach: trying again later will not help.
  static func isRefusal(_ message: String) -> Bool {
    let refusals = [
      "authentication failed", "pg_hba.conf", "does not exist", "certificate", "password",
      "permission denied", "not permitted", "sslmode",
    ]
    return refusals.contains { message.localizedCaseInsensitiveContains($0) }
  }

  deinit { close() }

  /// The connection's socket, to wait on for what the server sends; `nil` once closed.
  package var socket: Int32? {
    guard let handle else { return nil }
    let socket = PQsocket(handle)
    return socket >= 0 ? socket : nil
  }

  /// Whether the socket holds something not yet read.
  ///
  /// Bytes count, and so does the server's end of the connection; `false` once closed.
  /// Never waits.
  package var hasUnreadInput: Bool {
    guard let socket else { return false }
    var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) > 0
  }

  /// Closes the connection; calling it again does nothing.
  public func close() {
    if let handle { PQfinish(handle) }
    handle = nil
    prepared = []
  }

  /// Runs one statement with its parameters (`$1`, `$2`, …; `nil` is NULL).
  ///
  /// - Parameters:
  ///   - sql: Exactly one SQL statement.
  ///   - parameters: Its parameters, as text.
  /// - Returns: The rows it returned (none for a command).
  /// - Throws: ``PostgresError`` with the server's message and SQLSTATE.
  @discardableResult
  public func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError)
    -> PostgresRows
  {
    return try rows { handle in
      Self.withCStrings(parameters) { values in
        PQsendQueryParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
      }
    }
  }

  /// Runs a statement prepared once for this connection: parsed and planned the first time
  /// `name` is used, executed with new parameters every other time.
  ///
  /// What a connection runs many times (each batch of a push) is spared the server's
  /// parsing and planning of the same text each time.
  ///
  /// - Parameters:
  ///   - name: The statement's name on this connection; the same name always stands for the
  ///     same `sql`.
  ///   - sql: Exactly one SQL statement.
  ///   - parameters: Its parameters, as text.
  ///   - whileWaiting: Work of the caller's, done once the statement is sent, while the
  ///     server runs it (the statement's answer is read after it).
  /// - Returns: The rows it returned (none for a command).
  /// - Throws: ``PostgresError`` with the server's message and SQLSTATE.
  @discardableResult
  public func executePrepared(
    _ name: String, _ sql: String, _ parameters: [String?], whileWaiting: () -> Void = {}
  ) throws(PostgresError) -> PostgresRows {
    if !prepared.contains(name) {
      try rows { handle in PQsendPrepare(handle, name, sql, Int32(parameters.count), nil) }
      prepared.insert(name)
    }
    return try rows(whileWaiting: whileWaiting) { handle in
      Self.withCStrings(parameters) { values in
        PQsendQueryPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
      }
    }
  }

  /// Calls `body` with `values` as C strings (`nil` for NULL), alive until it returns.
  static func withCStrings<Result>(
    _ values: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result
  ) -> Result {
    let strings = values.map { $0.map { strdup($0) } ?? nil }
    defer { for string in strings { free(string) } }
    return strings.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { body($0.baseAddress) }
    }
  }

  /// The rows of the one statement `send` sends (a `PQsend…` call), or its error, waiting
  /// for the answer within the bounds (``PostgresConnection+Answers``).
  @discardableResult
  private func rows(
    whileWaiting: () -> Void = {}, _ send: (OpaquePointer) -> Int32
  ) throws(PostgresError) -> PostgresRows {
    guard let handle else {
      throw PostgresError("the connection is closed", isUnavailable: true)
    }
    return try Self.rows(
      of: try answer(to: send, on: handle, whileWaiting: whileWaiting), on: handle)
  }

  /// The rows of `result` (cleared here), or its error.
  @discardableResult
  static func rows(
    of result: OpaquePointer?, on handle: OpaquePointer
  ) throws(PostgresError) -> PostgresRows {
    guard let result else {
      throw PostgresError(
        firstLine(PQerrorMessage(handle)), isUnavailable: PQstatus(handle) != CONNECTION_OK)
    }
    defer { PQclear(result) }
    switch PQresultStatus(result) {
    case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
      return PostgresRows(columns: [], rows: [])
    case PGRES_TUPLES_OK:
      let columnCount = PQnfields(result)
      let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
      let rows = (0..<PQntuples(result)).map { row in
        (0..<columnCount).map { column -> String? in
          PQgetisnull(result, row, column) == 1
            ? nil : String(cString: PQgetvalue(result, row, column))
        }
      }
      return PostgresRows(columns: columns, rows: rows)
    default:
      let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
      throw PostgresError(
        firstLine(PQresultErrorMessage(result)), sqlState: state,
        isUnavailable: PQstatus(handle) != CONNECTION_OK)
    }
  }

  /// The SCRAM-SHA-256 verifier of `password` for `role`, computed here: what `CREATE
  /// ROLE … PASSWORD` stores, so the password itself never travels to the server (nor
  /// into its statement log).
  ///
  /// - Parameters:
  ///   - password: The password.
  ///   - role: The role it is for.
  /// - Returns: The verifier (`SCRAM-SHA-256$…`).
  /// - Throws: ``PostgresError`` with libpq's reason when it cannot be computed.
  public func passwordVerifier(_ password: String, for role: String) throws(PostgresError)
    -> String
  {
    guard let handle else { throw PostgresError("the connection is closed") }
    guard let verifier = PQencryptPasswordConn(handle, password, role, "scram-sha-256") else {
      throw PostgresError(
        "cannot compute the password's verifier: \(Self.firstLine(PQerrorMessage(handle)))")
    }
    defer { PQfreemem(verifier) }
    return String(cString: verifier)
  }

  /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
  ///
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws, or ``PostgresError`` if the transaction cannot begin or
  ///   commit.
  public func inTransaction<Result>(_ body: () throws -> Result) throws -> Result {
    try execute("BEGIN")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      _ = try? execute("ROLLBACK")
      throw error
    }
  }

  static func firstLine(_ message: UnsafePointer<CChar>?) -> String {
    guard let message else { return "unknown error" }
    let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.split(separator: "\n").first.map(String.init) ?? text
  }
}
