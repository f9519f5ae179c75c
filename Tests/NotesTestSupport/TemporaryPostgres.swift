// TemporaryPostgres: a throwaway PostgreSQL cluster for one test, started by the test and
// stopped by it whatever happens.
//
// Guarantees
// - Private: the cluster lives in a new temporary folder and listens only on a Unix socket
//   in that folder (no TCP port), so tests in parallel and a system server never clash.
// - `initdb` refuses to run as root: when the tests run as root (as CI does), the cluster
//   folder is given to the `postgres` user and `initdb` and `pg_ctl` run as that user
//   (`runuser`).
// - Without PostgreSQL's server programs, `start()` throws an error that names the Debian
//   package to install: a sync test never passes because its server was absent.
// - `stop()` stops the server (immediate shutdown) and deletes the folder; call it in a
//   `defer` right after `start()`.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A PostgreSQL server of a test's own, with one database named `postgres`.
public final class TemporaryPostgres: Sendable {
  /// The libpq connection URL of the server's `postgres` database.
  public let url: String
  /// The folder holding the cluster, its socket and its log.
  public let folder: String
  private let binaries: String
  private let runAsPostgres: Bool

  /// What went wrong starting a server.
  public struct StartFailure: Error, CustomStringConvertible {
    /// Why, with what to install or read.
    public let description: String
  }

  private init(folder: String, binaries: String, runAsPostgres: Bool) {
    self.folder = folder
    self.binaries = binaries
    self.runAsPostgres = runAsPostgres
    url = "postgresql:///postgres?host=\(folder)&port=5432&user=postgres"
  }

  /// The folder of PostgreSQL's server programs (`initdb`, `pg_ctl`), newest version first.
  static func serverPrograms() -> String? {
    let root = "/usr/lib/postgresql"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return versions.compactMap(Int.init).sorted(by: >).map { "\(root)/\($0)/bin" }
      .first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
  }

  /// ``start()`` on a thread of its own: the caller holds neither the main actor nor a
  /// thread of Swift's cooperative pool (which every other test needs) while `initdb` runs.
  ///
  /// - Returns: The running server.
  /// - Throws: What ``start()`` throws.
  public static func started() async throws -> TemporaryPostgres {
    try await onThreadOfItsOwn { try start() }
  }

  /// ``stop()`` on a thread of its own.
  public func stopped() async {
    try? await onThreadOfItsOwn { self.stop() }
  }

  /// Creates a cluster in a new temporary folder and starts its server.
  ///
  /// - Returns: The running server.
  /// - Throws: ``StartFailure`` naming the package to install when PostgreSQL is missing,
  ///   or with the output of `initdb` or `pg_ctl` when either fails.
  public static func start() throws -> TemporaryPostgres {
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
    if runAsPostgres {
      guard let user = getpwnam("postgres") else {
        throw StartFailure(
          description: "the tests run as root and there is no postgres user to run initdb as")
      }
      chown(folder, user.pointee.pw_uid, user.pointee.pw_gid)
    }
    let server = TemporaryPostgres(
      folder: folder, binaries: binaries, runAsPostgres: runAsPostgres)
    do {
      try server.run(
        "initdb",
        [
          "-D", "\(folder)/data", "-U", "postgres", "-A", "trust", "-E", "UTF8",
          "--locale=C.UTF-8", "--no-sync",
        ])
      try server.run(
        "pg_ctl",
        [
          "-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-o",
          "-k \(folder) -c listen_addresses='' -F", "start",
        ])
    } catch {
      server.stop()
      throw error
    }
    return server
  }

  /// Stops the server and deletes its folder; calling it again does nothing.
  public func stop() {
    if FileManager.default.fileExists(atPath: "\(folder)/data/postmaster.pid") {
      _ = try? run("pg_ctl", ["-D", "\(folder)/data", "-m", "immediate", "-w", "stop"])
    }
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// Runs one of the server programs (as `postgres` when the tests run as root).
  private func run(_ program: String, _ arguments: [String]) throws {
    let path = "\(binaries)/\(program)"
    let (executable, words) =
      runAsPostgres
      ? ("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments) : (path, arguments)
    let environment = ["PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"]
    let result = try Programs.run(
      executable, words, environment: environment, folder: folder)
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
/// - Parameter work: The work; it must not record test issues (it runs outside the test's
///   task).
/// - Returns: What `work` returns.
/// - Throws: What `work` throws.
public func onThreadOfItsOwn<Value: Sendable>(
  _ work: @escaping @Sendable () throws -> Value
) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try work() }) }
    thread.start()
  }
}
