import CPostgres
import Foundation

/// The settings of one libpq connection string, checked before any connection is made.
///
/// A libpq connection string read the way libpq reads it, and the transport rule every connection
/// of this program obeys before it is made.
///
/// ```swift
/// let settings = try ConnectionSettings("postgresql://alice:secret@db.example/notes")
/// settings.password      // "secret"
/// "\(settings)"          // "host=db.example dbname=notes user=alice"
/// try settings.checkTransport()   // throws: db.example is not on this machine
/// ```
///
/// ## Guarantees
///
/// - Parsed by libpq itself (`PQconninfoParse`), so a URI (`postgresql://…`) and a
///   `key=value` string mean exactly what they mean to `psql`; a string libpq refuses is
///   refused here with libpq's reason, before any connection is tried.
/// - The transport rule: a server that is not on this machine (any host that is not a Unix
///   socket, `localhost` or a loopback address, or a `hostaddr` that is not loopback) is
///   reached only with TLS and a certificate that names it (`sslmode=verify-full`), unless
///   the connection string itself names another `sslmode` (the user's explicit choice).
///   libpq's default, `prefer`, falls back to plain text silently, so it never counts as a
///   choice; neither does `PGSSLMODE` in the environment. The rule is applied to the
///   settings, before any packet is sent.
/// - The password is held apart: `description` (what every message prints, and what a
///   library stores) never contains it.
public struct ConnectionSettings: Equatable, Sendable, CustomStringConvertible {
  /// One keyword and its value, as the connection string gives it.
  public struct Setting: Equatable, Sendable {
    /// libpq's keyword, such as `host` or `sslmode`.
    public let keyword: String
    /// Its value.
    public let value: String
  }

  /// The settings the connection string gives, in libpq's order of keywords.
  public let given: [Setting]
  /// What libpq would use for a keyword the string does not give: its environment variable
  /// (`PGHOST`, `PGSSLMODE`, …) or its compiled-in default.
  private let defaults: [String: String]

  /// Reads a connection string.
  ///
  /// - Parameter url: A libpq connection URI or `key=value` string.
  /// - Throws: ``PostgresError`` with libpq's reason for a string it cannot read.
  public init(_ url: String) throws(PostgresError) {
    var message: UnsafeMutablePointer<CChar>?
    guard let parsed = PQconninfoParse(url, &message) else {
      defer { PQfreemem(message) }
      let reason = message.map { String(cString: $0) } ?? "out of memory"
      throw PostgresError(
        "the server URL cannot be read: "
          + reason.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
    defer { PQconninfoFree(parsed) }
    given = Self.settings(parsed).map { Setting(keyword: $0.0, value: $0.1) }
    var defaults: [String: String] = [:]
    if let options = PQconndefaults() {
      defer { PQconninfoFree(options) }
      for (keyword, value) in Self.settings(options) { defaults[keyword] = value }
    }
    self.defaults = defaults
  }

  private init(given: [Setting], defaults: [String: String]) {
    self.given = given
    self.defaults = defaults
  }

  /// The `(keyword, value)` pairs of a libpq option array that have a value.
  private static func settings(_ options: UnsafeMutablePointer<PQconninfoOption>) -> [(
    String, String
  )] {
    var pairs: [(String, String)] = []
    var option = options
    while let keyword = option.pointee.keyword {
      if let value = option.pointee.val {
        pairs.append((String(cString: keyword), String(cString: value)))
      }
      option += 1
    }
    return pairs
  }

  /// The value the string gives for `keyword`, if it gives one.
  ///
  /// - Parameter keyword: A libpq keyword, such as `user`.
  /// - Returns: The value, or `nil`.
  public func value(_ keyword: String) -> String? {
    given.last { $0.keyword == keyword }?.value
  }

  /// The value libpq uses for `keyword`: the string's, else the environment's or libpq's
  /// default.
  ///
  /// - Parameter keyword: A libpq keyword, such as `sslmode`.
  /// - Returns: The value, or `nil` when neither gives one.
  public func effectiveValue(_ keyword: String) -> String? {
    value(keyword) ?? defaults[keyword]
  }

  /// The password the string holds, if it holds one.
  public var password: String? { value("password") }

  /// These settings without the password.
  public var withoutPassword: ConnectionSettings {
    ConnectionSettings(given: given.filter { $0.keyword != "password" }, defaults: defaults)
  }

  /// These settings with `keyword` set to `value` (added, or replacing the string's).
  ///
  /// - Parameters:
  ///   - keyword: A libpq keyword, such as `user`.
  ///   - value: Its new value.
  /// - Returns: The changed settings.
  public func setting(_ keyword: String, to value: String) -> ConnectionSettings {
    var settings = given.filter { $0.keyword != keyword }
    settings.append(Setting(keyword: keyword, value: value))
    return ConnectionSettings(given: settings, defaults: defaults)
  }

  /// The settings as a `key=value` connection string without the password (written
  /// `password=***` when the string holds one), which libpq reads back as these settings.
  public var description: String {
    given.map { setting in
      setting.keyword == "password"
        ? "password=***" : "\(setting.keyword)=\(Self.quoted(setting.value))"
    }.joined(separator: " ")
  }

  /// A connection string libpq reads back as exactly these settings, without the password.
  public var connectionString: String { withoutPassword.description }

  /// `value` as libpq's `key=value` syntax needs it: bare when it is plain, else in single
  /// quotes with `\` and `'` escaped by a backslash.
  private static func quoted(_ value: String) -> String {
    let plain =
      !value.isEmpty
      && !value.unicodeScalars.contains { $0 == "'" || $0 == "\\" || $0.properties.isWhitespace }
    if plain { return value }
    var escaped = ""
    for character in value {
      if character == "'" || character == "\\" { escaped.append("\\") }
      escaped.append(character)
    }
    return "'\(escaped)'"
  }
}

extension ConnectionSettings {
  /// The hosts libpq would try, in order (`host`, comma-separated; empty for the default
  /// Unix socket).
  public var hosts: [String] {
    (effectiveValue("host") ?? "").split(separator: ",", omittingEmptySubsequences: false)
      .map(String.init)
  }

  /// The addresses `hostaddr` gives, in order; empty when it gives none.
  public var hostAddresses: [String] {
    guard let addresses = effectiveValue("hostaddr"), !addresses.isEmpty else { return [] }
    return addresses.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
  }

  /// Whether every server these settings can reach is on this machine: each host a Unix
  /// socket, `localhost` or a loopback address, and each `hostaddr` a loopback address.
  ///
  /// A `service` (a name looked up in a file at connection time) could lead anywhere, so
  /// settings that name one are never local.
  public var isLocal: Bool {
    guard effectiveValue("service") == nil else { return false }
    return hosts.allSatisfy(Self.isLocalHost) && hostAddresses.allSatisfy(Self.isLoopback)
  }

  /// Whether a `host` value names this machine.
  ///
  /// - Parameter host: One host: a name, an address, or a socket folder.
  /// - Returns: `true` for the default socket (empty), a socket folder (`/…`, or `@…` for
  ///   an abstract socket), `localhost`, and loopback addresses.
  public static func isLocalHost(_ host: String) -> Bool {
    let trimmed = host.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty || trimmed.hasPrefix("/") || trimmed.hasPrefix("@") { return true }
    if trimmed.lowercased() == "localhost" { return true }
    return isLoopback(trimmed)
  }

  /// Whether `address` is a loopback address: 127.0.0.0/8, `::1`, or IPv4-mapped
  /// 127.0.0.0/8.
  ///
  /// - Parameter address: An IPv4 or IPv6 address; a host name is not an address.
  /// - Returns: Whether it is a loopback address.
  public static func isLoopback(_ address: String) -> Bool {
    let text = address.trimmingCharacters(in: .whitespaces).lowercased()
    if let octets = ipv4Octets(text) { return octets[0] == 127 }
    if text == "::1" || text == "0:0:0:0:0:0:0:1" { return true }
    for prefix in ["::ffff:", "0:0:0:0:0:ffff:"] where text.hasPrefix(prefix) {
      if let octets = ipv4Octets(String(text.dropFirst(prefix.count))) { return octets[0] == 127 }
    }
    return false
  }

  /// The four numbers of a dotted IPv4 address, or `nil`.
  private static func ipv4Octets(_ text: String) -> [Int]? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    let octets = parts.compactMap { part -> Int? in
      guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII),
        let number = Int(part), (0...255).contains(number)
      else { return nil }
      return number
    }
    return octets.count == 4 ? octets : nil
  }

  /// Throws unless these settings keep the transport rule: a server that is not on this
  /// machine is reached with TLS and a certificate that names it, unless the string names
  /// another `sslmode` explicitly.
  ///
  /// - Throws: ``PostgresError`` saying which server and what to add to the URL.
  public func checkTransport() throws(PostgresError) {
    guard !isLocal else { return }
    if effectiveValue("sslmode") == "verify-full" { return }
    // The user named another mode in the string itself: their choice.
    if value("sslmode") != nil { return }
    let server =
      effectiveValue("service").map { "the service \($0)" }
      ?? (hosts.first { !Self.isLocalHost($0) } ?? hostAddresses.first ?? "the server")
    let mode = effectiveValue("sslmode") ?? "prefer"
    throw PostgresError(
      "refusing to connect to \(server), which is not on this machine, without TLS and a"
        + " certificate that names it (sslmode is \(mode)): add sslmode=verify-full to the URL"
        + " (with sslrootcert=FILE for a private certificate authority), or name another"
        + " sslmode there to connect without that check")
  }
}
