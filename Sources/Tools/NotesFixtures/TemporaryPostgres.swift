import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A PostgreSQL server of a test's own, with one database named `postgres`.
///
/// A throwaway PostgreSQL cluster for one test, started by the test and stopped by it whatever
/// happens.
///
/// ## Guarantees
///
/// - Private: the cluster lives in a new temporary folder and listens on a Unix socket in
///   that folder, so tests in parallel and a system server never clash. With TLS files it
///   also listens on 127.0.0.1, on a port no other program holds (tried again on a clash),
///   and takes only TLS connections there. Asked for TCP without TLS (for a test's fault
///   proxy, which needs a TCP server behind it), it listens on 127.0.0.1 the same way and
///   takes plain connections there (a loopback address: the transport rule asks no TLS).
/// - Server settings a test gives (`max_connections` for a test of many devices) are set on
///   the server's command line, after the ones above, so a test's own value wins.
/// - Authentication as a server in use has it: the superuser `postgres` connects over the
///   socket without a password (the operator's door); every other role needs its SCRAM
///   password, over the socket and (TLS only) over TCP.
/// - `initdb` refuses to run as root: when the tests run as root (as CI does), the cluster
///   folder is given to the `postgres` user and `initdb` and `pg_ctl` run as that user
///   (`runuser`).
/// - Without PostgreSQL's server programs, `start()` throws an error that names the Debian
///   package to install: a sync test never passes because its server was absent.
/// - `stop()` stops the server (immediate shutdown) and deletes the folder; call it in a
///   `defer` right after `start()`.
/// - Starting and stopping end within a stated time: each server program (`initdb`,
///   `pg_ctl`) is killed and reported after `programTimeout`, and `pg_ctl` itself gives up
///   waiting for the server after 60 s (`-t 60`).
public final class TemporaryPostgres: Sendable {
  /// The libpq connection URL of the server's `postgres` database, as the superuser.
  public let url: String
  /// The folder holding the cluster, its socket and its log.
  public let folder: String
  /// The port (of the socket, and of 127.0.0.1 with TLS or TCP).
  public let port: Int
  private let binaries: String
  private let runAsPostgres: Bool

  /// What went wrong starting a server.
  public struct StartFailure: Error, CustomStringConvertible {
    /// Why, with what to install or read.
    public let description: String

    /// A failure that says `description`.
    ///
    /// - Parameter description: Why, with what to install or read.
    public init(description: String) { self.description = description }
  }

  /// A server certificate and its private key (PEM files) for TLS on 127.0.0.1.
  public struct TLSFiles: Sendable {
    /// The certificate (chain) file.
    public let certificate: String
    /// The private key file.
    public let key: String

    /// Names the files.
    ///
    /// - Parameters:
    ///   - certificate: The certificate file.
    ///   - key: Its private key.
    public init(certificate: String, key: String) {
      self.certificate = certificate
      self.key = key
    }
  }

  private init(folder: String, port: Int, binaries: String, runAsPostgres: Bool) {
    self.folder = folder
    self.port = port
    self.binaries = binaries
    self.runAsPostgres = runAsPostgres
    url = "postgresql:///postgres?host=\(folder)&port=\(port)&user=postgres"
  }

  /// The URL of `database` over the socket, as `user` with `password`.
  ///
  /// - Parameters:
  ///   - user: A role.
  ///   - password: Its password, or `nil` to leave it to libpq's other sources.
  ///   - database: The database; `postgres` by default.
  /// - Returns: A libpq connection string.
  public func url(user: String, password: String?, database: String = "postgres") -> String {
    "host=\(folder) port=\(port) dbname=\(database) user=\(Self.quoted(user))"
      + (password.map { " password=\(Self.quoted($0))" } ?? "")
  }

  /// `value` in single quotes, `\` and `'` escaped, as libpq's `key=value` syntax reads it.
  public static func quoted(_ value: String) -> String {
    "'" + value.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
  }

  /// The folder of PostgreSQL's server programs (`initdb`, `pg_ctl`), newest version first.
  public static func serverPrograms() -> String? {
    let root = "/usr/lib/postgresql"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return versions.compactMap(Int.init).sorted(by: >).map { "\(root)/\($0)/bin" }
      .first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
  }

  /// The URL of `database` over TCP on 127.0.0.1, as `user` with `password`, at `port`
  /// (this server's, or a proxy's in front of it), without TLS.
  ///
  /// - Parameters:
  ///   - user: A role.
  ///   - password: Its password, or `nil` to leave it to libpq's other sources.
  ///   - database: The database; `postgres` by default.
  ///   - port: The port to connect to; this server's own by default.
  /// - Returns: A libpq connection string.
  public func tcpURL(
    user: String, password: String?, database: String = "postgres", port: Int? = nil
  ) -> String {
    "host=127.0.0.1 port=\(port ?? self.port) dbname=\(database) user=\(Self.quoted(user))"
      + " sslmode=disable gssencmode=disable"
      + (password.map { " password=\(Self.quoted($0))" } ?? "")
  }

  /// ``start(tls:tcp:settings:)`` on a thread of its own: the caller holds neither the
  /// main actor nor a thread of Swift's cooperative pool (which every other test needs)
  /// while `initdb` runs.
  ///
  /// - Parameters:
  ///   - tls: A certificate and key for TLS on 127.0.0.1; `nil` for none.
  ///   - tcp: Whether to listen on 127.0.0.1 without TLS.
  ///   - settings: Server settings by name, such as `max_connections`.
  /// - Returns: The running server.
  /// - Throws: What ``start(tls:tcp:settings:)`` throws.
  public static func started(
    tls: TLSFiles? = nil, tcp: Bool = false, settings: [String: String] = [:]
  ) async throws -> TemporaryPostgres {
    try await onThreadOfItsOwn { try start(tls: tls, tcp: tcp, settings: settings) }
  }

  /// ``stop()`` on a thread of its own.
  public func stopped() async {
    try? await onThreadOfItsOwn { self.stop() }
  }

  /// Creates a cluster in a new temporary folder and starts its server.
  ///
  /// - Parameters:
  ///   - tls: A certificate and key to take TLS connections on 127.0.0.1 with; `nil` for
  ///     none.
  ///   - tcp: Whether to take plain connections on 127.0.0.1 (ignored with `tls`).
  ///   - settings: Server settings by name (`max_connections`: PostgreSQL's default of 100
  ///     is too few for a test of many devices, each holding two connections or more); the
  ///     server's own defaults for the rest.
  /// - Returns: The running server.
  /// - Throws: ``StartFailure`` naming the package to install when PostgreSQL is missing,
  ///   with the output of `initdb` or `pg_ctl` when either fails (a setting the server
  ///   refuses among them), or when a setting's name is not a plain name.
  public static func start(
    tls: TLSFiles? = nil, tcp: Bool = false, settings: [String: String] = [:]
  ) throws -> TemporaryPostgres {
    let onTCP = tls != nil || tcp
    // Each goes on pg_ctl's `-o` line, which a shell splits: a name of letters, digits and
    // underscores, and the value in single quotes (one inside closes, escapes and reopens).
    let isPlain = { (name: String) in
      !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
    for name in settings.keys where !isPlain(name) {
      throw StartFailure(description: "'\(name)' is not the name of a server setting")
    }
    let extra = settings.keys.sorted().map { name in
      " -c \(name)='" + settings[name, default: ""].replacing("'", with: #"'\''"#) + "'"
    }.joined()
    guard let binaries = serverPrograms() else {
      throw StartFailure(
        description: "PostgreSQL's server programs (initdb, pg_ctl) are not installed: install"
          + " the Debian package postgresql (apt-get install postgresql libpq-dev pkgconf)")
    }
    // A short folder: a Unix socket's path is at most 107 bytes.
    var template = Array("/tmp/pgt.XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else {
      throw StartFailure(description: "cannot create a temporary folder for PostgreSQL")
    }
    let folder = String(cString: created)
    let runAsPostgres = getuid() == 0
    var postgresUser: (uid: uid_t, gid: gid_t)?
    if runAsPostgres {
      guard let user = getpwnam("postgres") else {
        throw StartFailure(
          description: "the tests run as root and there is no postgres user to run initdb as")
      }
      postgresUser = (user.pointee.pw_uid, user.pointee.pw_gid)
      chown(folder, user.pointee.pw_uid, user.pointee.pw_gid)
    }
    var server = TemporaryPostgres(
      folder: folder, port: 5432, binaries: binaries, runAsPostgres: runAsPostgres)
    do {
      try server.run(
        "initdb",
        [
          "-D", "\(folder)/data", "-U", "postgres", "-A", "trust", "-E", "UTF8",
          "--locale=C.UTF-8", "--no-sync",
        ])
      try server.authenticate(tls: tls != nil, tcp: onTCP)
      var options = "-k \(folder) -c listen_addresses='' -F"
      if tls == nil, tcp { options = "-k \(folder) -c listen_addresses=127.0.0.1 -F" }
      if let tls {
        let certificate = try server.copy(tls.certificate, as: "server.crt", owner: postgresUser)
        let key = try server.copy(tls.key, as: "server.key", owner: postgresUser)
        options =
          "-k \(folder) -c listen_addresses=127.0.0.1 -F -c ssl=on"
          + " -c ssl_cert_file=\(certificate) -c ssl_key_file=\(key)"
      }
      // Over TCP another program may hold the port between our look and the start: try
      // another one then.
      var attempts = 0
      while true {
        let port = onTCP ? try freePort() : 5432
        server = TemporaryPostgres(
          folder: folder, port: port, binaries: binaries, runAsPostgres: runAsPostgres)
        do {
          try server.run(
            "pg_ctl",
            [
              "-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-t", "60", "-o",
              "\(options) -p \(port)\(extra)", "start",
            ])
          break
        } catch {
          attempts += 1
          if !onTCP || attempts >= 5 { throw error }
        }
      }
    } catch {
      server.stop()
      throw error
    }
    return server
  }

  /// Replaces the cluster's pg_hba.conf: the superuser trusted over the socket, every other
  /// role by SCRAM password; with TLS, SCRAM over TLS on 127.0.0.1 and nothing else there;
  /// with plain TCP, SCRAM on 127.0.0.1.
  private func authenticate(tls: Bool, tcp: Bool) throws {
    var rules = """
      local all postgres trust
      local all all scram-sha-256

      """
    if tls {
      rules += "hostssl all all 127.0.0.1/32 scram-sha-256\n"
    } else if tcp {
      rules += "host all all 127.0.0.1/32 scram-sha-256\n"
    }
    // Written in place, so the file keeps its owner (the server's user).
    guard let handle = FileHandle(forWritingAtPath: "\(folder)/data/pg_hba.conf") else {
      throw StartFailure(description: "cannot write \(folder)/data/pg_hba.conf")
    }
    defer { try? handle.close() }
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(rules.utf8))
  }

  /// A copy of `file` in the cluster's folder, mode 0600, owned by the server's user (the
  /// server refuses a key others can read, and cannot read the test's private folder).
  private func copy(_ file: String, as name: String, owner: (uid: uid_t, gid: gid_t)?) throws
    -> String
  {
    let copy = "\(folder)/\(name)"
    try FileManager.default.copyItem(atPath: file, toPath: copy)
    chmod(copy, 0o600)
    if let owner { chown(copy, owner.uid, owner.gid) }
    return copy
  }

  /// A TCP port on 127.0.0.1 that nothing listens on now.
  private static func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw StartFailure(description: "cannot make a socket") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
      }
    }
    guard bound else { throw StartFailure(description: "cannot find a free TCP port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Stops the server and deletes its folder; calling it again does nothing.
  public func stop() {
    if FileManager.default.fileExists(atPath: "\(folder)/data/postmaster.pid") {
      _ = try? run(
        "pg_ctl", ["-D", "\(folder)/data", "-m", "immediate", "-w", "-t", "60", "stop"])
    }
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// How long a server program (`initdb`, `pg_ctl`, `psql`) may run before it is killed:
  /// a safety net against a hang, not a measurement.
  public static let programTimeout = Duration.seconds(120)

  /// Runs one of the server programs (as `postgres` when the tests run as root).
  private func run(_ program: String, _ arguments: [String]) throws {
    let path = "\(binaries)/\(program)"
    let (executable, words) =
      runAsPostgres
      ? ("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments) : (path, arguments)
    let environment = ["PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"]
    let result = try Programs.run(
      executable, words, environment: environment, folder: folder, timeout: Self.programTimeout)
    guard result.status == 0 else {
      throw StartFailure(
        description: "\(program) failed (status \(result.status)): \(result.output)\(result.errors)"
      )
    }
  }
}

/// Runs blocking `work` on a thread of its own and waits for it without blocking the
/// caller's thread (the main actor, or a thread of the cooperative pool).
///
/// The wait ends when `work` returns, or as soon as the caller's task is cancelled (as Swift
/// Testing cancels a test at its time limit): then it throws `CancellationError` and leaves
/// `work` to end on its thread, so blocking work that never returns cannot keep a test
/// from ending. Work that may block bounds its own waits (a program's deadline, a
/// connection's network bounds).
///
/// - Parameter work: The work; it must not record test issues (it runs outside the test's
///   task).
/// - Returns: What `work` returns.
/// - Throws: What `work` throws; `CancellationError` when the caller was cancelled first.
public func onThreadOfItsOwn<Value: Sendable>(
  _ work: @escaping @Sendable () throws -> Value
) async throws -> Value {
  let outcome = ThreadOutcome<Value>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      outcome.wait(with: continuation)
      let thread = Thread { outcome.finish(Result { try work() }) }
      thread.start()
    }
  } onCancel: {
    outcome.finish(.failure(CancellationError()))
  }
}

/// The first of a thread's result and its caller's cancellation, handed to the caller once.
private final class ThreadOutcome<Value: Sendable>: @unchecked Sendable {
  // Guarded by `lock`.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Value, any Error>?
  private var result: Result<Value, any Error>?

  /// Hands the result to `continuation`, now if it is known, else once it is.
  func wait(with continuation: CheckedContinuation<Value, any Error>) {
    let known = lock.withLock { () -> Result<Value, any Error>? in
      if result == nil { self.continuation = continuation }
      return result
    }
    if let known { continuation.resume(with: known) }
  }

  /// Records `result` unless one came first, and hands it to the waiting caller.
  func finish(_ result: Result<Value, any Error>) {
    let waiting = lock.withLock { () -> CheckedContinuation<Value, any Error>? in
      guard self.result == nil else { return nil }
      self.result = result
      defer { continuation = nil }
      return continuation
    }
    waiting?.resume(with: result)
  }
}
