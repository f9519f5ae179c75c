import Foundation
@_exported public import NotesFixtures
public import Testing

extension TemporaryPostgres {
  /// The server of the suite being run, set by ``SharedPostgresTrait``.
  @TaskLocal public static var suiteServer: TemporaryPostgres?

  /// Runs `sql` with `psql` as the superuser on `database`, stopping at the first error.
  ///
  /// - Parameters:
  ///   - sql: One or more statements.
  ///   - database: The database.
  /// - Returns: What `psql` printed (unaligned, tuples only).
  /// - Throws: ``StartFailure`` with `psql`'s message when a statement fails.
  public func psql(_ sql: String, database: String = "postgres") throws -> String {
    guard let binaries = Self.serverPrograms() else {
      throw StartFailure(description: "PostgreSQL's programs are not installed")
    }
    let result = try Programs.run(
      "\(binaries)/psql",
      [
        "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", String(port), "-U",
        "postgres", "-d", database, "-c", sql,
      ], environment: ["PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"], folder: folder,
      timeout: Self.programTimeout)
    guard result.status == 0 else {
      throw StartFailure(description: "psql failed (status \(result.status)): \(result.errors)")
    }
    return result.output
  }
}

/// A suite trait that gives the suite one PostgreSQL server (``TemporaryPostgres/suiteServer``).
public struct SharedPostgresTrait: SuiteTrait, TestScoping {
  /// Whether the server also takes plain connections on 127.0.0.1.
  public var tcp = false
  /// Server settings by name (see `TemporaryPostgres.start(tls:tcp:settings:)`).
  public var settings: [String: String] = [:]

  /// Provided once, around the whole suite.
  public var isRecursive: Bool { false }

  /// Starts the server, runs the suite, stops the server.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let server = try await TemporaryPostgres.started(tcp: tcp, settings: settings)
    do {
      try await TemporaryPostgres.$suiteServer.withValue(server) { try await function() }
    } catch {
      await server.stopped()
      throw error
    }
    await server.stopped()
  }
}

extension Trait where Self == SharedPostgresTrait {
  /// One PostgreSQL server for the whole suite; each test makes a ``TestDatabase`` on it.
  public static var sharedPostgres: Self { SharedPostgresTrait() }

  /// One PostgreSQL server for the whole suite, started with `settings` (such as
  /// `max_connections` for a suite of many devices).
  ///
  /// - Parameter settings: Server settings by name.
  /// - Returns: The trait.
  public static func sharedPostgres(settings: [String: String]) -> Self {
    SharedPostgresTrait(settings: settings)
  }

  /// One PostgreSQL server for the whole suite that also listens on 127.0.0.1 (without
  /// TLS), for tests that put a ``FaultProxy`` between their devices and it.
  public static var sharedPostgresOverTCP: Self { SharedPostgresTrait(tcp: true) }
}

/// A database of a test's own on the suite's server.
///
/// One PostgreSQL server for a whole suite, and a fresh database in it for each test.
///
/// ## Guarantees
///
/// - `.sharedPostgres` on a suite starts one `TemporaryPostgres` before the suite's first
///   test and stops it (deleting its folder) after the last, whatever happens; a server
///   that cannot start fails the suite with the reason, so no test passes without one.
/// - `TestDatabase.make()` creates a new database on it (from template0, far quicker than a new
///   cluster); `drop()` drops it, ending any connection still open to it, and drops every login
///   role the test made (roles belong to the cluster, not to a database). Suites using it run their
///   tests one at a time (`.serialized`), so no other test sees those roles.
public struct TestDatabase: Sendable {
  /// The server.
  public let server: TemporaryPostgres
  /// The database's name.
  public let name: String

  /// What went wrong making a database.
  public struct Missing: Error, CustomStringConvertible {
    /// Why.
    public let description: String
  }

  /// Creates a new database on the suite's server (``SharedPostgresTrait``).
  ///
  /// - Returns: The database.
  /// - Throws: ``Missing`` when the suite has no server, or what `psql` reports.
  public static func make() async throws -> TestDatabase {
    guard let server = TemporaryPostgres.suiteServer else {
      throw Missing(description: "the suite has no server: give it the .sharedPostgres trait")
    }
    let name = "test_" + UUID().uuidString.prefix(8).lowercased()
    try await onThreadOfItsOwn {
      _ = try server.psql("CREATE DATABASE \(name) TEMPLATE template0 ENCODING 'UTF8'")
    }
    return TestDatabase(server: server, name: name)
  }

  /// The superuser's URL of this database (over the socket, no password).
  public var url: String {
    "postgresql:///\(name)?host=\(server.folder)&port=\(server.port)&user=postgres"
  }

  /// The URL of this database as `user` over TCP, at `port` (a proxy's in front of the
  /// server, or the server's own); the suite's server must listen on TCP.
  ///
  /// - Parameters:
  ///   - user: A role.
  ///   - password: Its password.
  ///   - port: The port; the server's own by default.
  /// - Returns: A libpq connection string.
  public func tcpURL(user: String, password: String?, port: Int? = nil) -> String {
    server.tcpURL(user: user, password: password, database: name, port: port)
  }

  /// The URL of this database as `user`, over the socket.
  ///
  /// - Parameters:
  ///   - user: A role.
  ///   - password: Its password, or `nil` to leave it to libpq's other sources.
  /// - Returns: A libpq connection string.
  public func url(user: String, password: String?) -> String {
    server.url(user: user, password: password, database: name)
  }

  /// Drops the database (ending its connections) and every login role but `postgres`.
  public func drop() async {
    let (server, name) = (server, name)
    _ = try? await onThreadOfItsOwn {
      _ = try? server.psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
      _ = try? server.psql(
        """
        DO $$ DECLARE r record; BEGIN
          FOR r IN SELECT rolname FROM pg_roles WHERE rolcanlogin AND rolname <> 'postgres' LOOP
            EXECUTE format('DROP ROLE %I', r.rolname);
          END LOOP;
        END $$
        """)
    }
  }

  /// Runs `body` with a new database, dropped afterwards whatever happens.
  ///
  /// - Parameter body: The test.
  /// - Throws: What making the database or `body` throws.
  public static func with(_ body: (TestDatabase) async throws -> Void) async throws {
    let database = try await make()
    do {
      try await body(database)
    } catch {
      await database.drop()
      throw error
    }
    await database.drop()
  }
}
