/// The accounts of a sync server, as its operator manages them.
///
/// The operator's work on a sync server's accounts — add one, remove one, list them.
///
/// ```swift
/// let admin = try PostgresConnection(url: "postgresql:///notes?user=postgres")
/// try ServerAccounts.add("alice", password: typed, on: admin)
/// for account in try ServerAccounts.list(on: admin) { print(account.name, account.notes) }
/// ```
///
/// ## Guarantees
///
/// - Run as the operator: a superuser, or the role that owns the tables (and, to add or
///   remove one, may create roles). Any other role is refused with a reason before anything
///   is changed.
/// - Adding an account creates a login role with only the rights sync needs (a member of
///   `notes_sync`; not a superuser, no CREATEDB, CREATEROLE, REPLICATION or BYPASSRLS) and
///   a SCRAM-SHA-256 password whose verifier is computed on this side: the password never
///   travels to the server. The role and its `notes_accounts` row are made in one
///   transaction.
/// - Removing an account deletes its rows and its role in one transaction; an account that
///   holds notes is removed only when the caller confirms, otherwise nothing changes.
/// - Each piece of work is one transaction that sees every account's rows
///   (`withEveryAccountsRows`). It takes no table lock, so no account's open transaction
///   holds it up and no account waits for it; a statement that still waits for a lock (a
///   removal waits for a push of the account being removed) gives up after `lockWait` with a
///   message naming the sessions it waited for, and nothing is changed.
public enum ServerAccounts {
  /// One account and what it holds on the server.
  public struct Summary: Equatable, Sendable {
    /// The account's name.
    public var name: String
    /// Whether a login role of that name exists (an account given rows by an upgrade from
    /// schema 3 has none until `add` makes it).
    public var canLogIn: Bool
    /// Devices registered by the account.
    public var devices: Int
    /// Notebooks the account holds (not deleted).
    public var notebooks: Int
    /// Notes the account holds (not deleted).
    public var notes: Int
    /// When the account last pushed, as the server writes a timestamp; `nil` if never.
    public var lastPush: String?
  }

  /// Why an account was not removed: it holds notes and the caller did not confirm.
  public struct HoldsNotes: Error, Equatable, CustomStringConvertible {
    /// The account.
    public let name: String
    /// Its notes.
    public let notes: Int
    /// Its notebooks.
    public let notebooks: Int

    /// What to tell the operator.
    public var description: String {
      let held = [(notes, "note"), (notebooks, "notebook")].map { count, noun in
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
      }
      return "the account \(name) holds \(held.joined(separator: " and ")) on the server;"
        + " --yes removes it with them (the devices keep their own copies)"
    }
  }

  /// Adds the account `name` with `password`.
  ///
  /// An account that an upgrade from schema 3 gave rows to (it has a `notes_accounts` row
  /// but no role yet) gets its role, and keeps its rows.
  ///
  /// - Parameters:
  ///   - name: The account name (see ``ServerSchema/accountNameProblem(_:)``).
  ///   - password: Its password; must not be empty.
  ///   - connection: The operator's connection.
  ///   - lockWait: The longest any one statement waits for a lock.
  /// - Throws: ``PostgresError`` for an invalid name or empty password, a role of that name
  ///   that exists already, a connection that is not the operator's, or what the server
  ///   refuses; nothing is changed then.
  public static func add(
    _ name: String, password: String, on connection: PostgresConnection,
    lockWait: Duration = ServerSchema.standardLockWait
  ) throws {
    if let problem = ServerSchema.accountNameProblem(name) { throw PostgresError(problem) }
    guard !password.isEmpty else { throw PostgresError("the password must not be empty") }
    try requireOperator(on: connection)
    let exists = try connection.execute("SELECT 1 FROM pg_roles WHERE rolname = $1", [name])
    guard exists.rows.isEmpty else {
      throw PostgresError(
        "a role named \(name) exists already on this server: choose another account name")
    }
    let verifier = try connection.passwordVerifier(password, for: name)
    try ServerSchema.withEveryAccountsRows(on: connection, lockWait: lockWait) {
      // Utility statements take no parameters: the name is checked above (letters, digits
      // and underscores) and the verifier is base64 and `$:` only; both are quoted anyway.
      try connection.execute(
        """
        CREATE ROLE \(identifier(name)) LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE
          NOREPLICATION NOBYPASSRLS IN ROLE \(ServerSchema.accountsRole)
          PASSWORD \(literal(verifier))
        """)
      try connection.execute(
        "INSERT INTO notes_accounts (account) VALUES ($1) ON CONFLICT DO NOTHING", [name])
    }
  }

  /// Removes the account `name`: its rows on the server and its role.
  ///
  /// - Parameters:
  ///   - name: The account.
  ///   - confirmed: Whether to remove an account that holds notes or notebooks.
  ///   - connection: The operator's connection.
  ///   - lockWait: The longest any one statement waits for a lock (for a push of the
  ///     account to end).
  /// - Returns: What the account held.
  /// - Throws: ``HoldsNotes`` when it holds notes and `confirmed` is false;
  ///   ``PostgresError`` for an unknown account, a connection that is not the operator's,
  ///   or what the server refuses. Nothing is changed then.
  @discardableResult
  public static func remove(
    _ name: String, confirmed: Bool, on connection: PostgresConnection,
    lockWait: Duration = ServerSchema.standardLockWait
  ) throws -> Summary {
    try requireOperator(on: connection)
    let summary = try ServerSchema.withEveryAccountsRows(on: connection, lockWait: lockWait) {
      () throws -> Summary in
      guard let summary = try summaries(on: connection).first(where: { $0.name == name }) else {
        throw PostgresError("there is no account named \(name) on this server")
      }
      if summary.notes + summary.notebooks > 0, !confirmed {
        throw HoldsNotes(name: name, notes: summary.notes, notebooks: summary.notebooks)
      }
      for table in ["notes_entities", "notes_changes", "notes_devices", "notes_accounts"] {
        try connection.execute("DELETE FROM \(table) WHERE account = $1", [name])
      }
      if summary.canLogIn {
        try connection.execute("DROP ROLE \(identifier(name))")
      }
      return summary
    }
    // Sessions it still has end now; a role without the right to end them leaves them to
    // fail at their next statement.
    _ = try? connection.execute(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1", [name])
    return summary
  }

  /// Every account, by name.
  ///
  /// - Parameters:
  ///   - connection: The operator's connection.
  ///   - lockWait: The longest any one statement waits for a lock.
  /// - Returns: The accounts and what each holds.
  /// - Throws: ``PostgresError`` when the connection is not the operator's or the server
  ///   cannot be read.
  public static func list(
    on connection: PostgresConnection, lockWait: Duration = ServerSchema.standardLockWait
  ) throws -> [Summary] {
    try requireOperator(on: connection)
    return try ServerSchema.withEveryAccountsRows(on: connection, lockWait: lockWait) {
      try summaries(on: connection)
    }
  }

  /// Every account: the members of `notes_sync` and every `notes_accounts` row.
  private static func summaries(on connection: PostgresConnection) throws -> [Summary] {
    let rows = try connection.execute(
      """
      WITH names AS (
        SELECT r.rolname::text AS account FROM pg_roles r
          JOIN pg_auth_members m ON m.member = r.oid
          JOIN pg_roles g ON g.oid = m.roleid AND g.rolname = $1
        UNION SELECT account FROM notes_accounts)
      SELECT n.account, EXISTS (SELECT FROM pg_roles WHERE rolname = n.account),
        (SELECT count(*) FROM notes_devices d WHERE d.account = n.account),
        (SELECT count(*) FROM notes_entities e WHERE e.account = n.account
          AND e.entity = 'notebook' AND e.payload IS NOT NULL),
        (SELECT count(*) FROM notes_entities e WHERE e.account = n.account
          AND e.entity = 'note' AND e.payload IS NOT NULL),
        (SELECT to_char(last_push AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
          FROM notes_accounts a WHERE a.account = n.account)
      FROM names n ORDER BY n.account
      """, [ServerSchema.accountsRole])
    return rows.rows.map { row in
      Summary(
        name: row[0] ?? "", canLogIn: row[1] == "t", devices: Int(row[2] ?? "") ?? 0,
        notebooks: Int(row[3] ?? "") ?? 0, notes: Int(row[4] ?? "") ?? 0, lastPush: row[5])
    }
  }

  /// Throws unless `connection` is the operator's: a superuser or the tables' owner, on a
  /// server at this program's schema version.
  private static func requireOperator(on connection: PostgresConnection) throws {
    let version = try SyncServer.schemaVersion(on: connection)
    guard version == String(ServerSchema.version) else {
      throw PostgresError(
        "the server's schema is version \(version ?? "unknown"), not \(ServerSchema.version):"
          + " run `notes server init URL` first")
    }
    let rows = try connection.execute(
      """
      SELECT current_user, r.rolsuper OR pg_has_role(current_user, t.tableowner, 'USAGE')
      FROM pg_roles r, pg_tables t
      WHERE r.rolname = current_user AND t.schemaname = current_schema()
        AND t.tablename = 'notes_changes'
      """)
    guard let row = rows.rows.first, row[1] == "t" else {
      let role = rows.rows.first?[0] ?? "this role"
      throw PostgresError(
        "the role “\(role)” is not the sync server's operator: managing accounts needs a"
          + " superuser or the role that owns the tables")
    }
  }

  /// `name` as an SQL identifier, in double quotes.
  static func identifier(_ name: String) -> String {
    "\"" + name.replacing("\"", with: "\"\"") + "\""
  }

  /// `text` as an SQL string literal, in single quotes.
  static func literal(_ text: String) -> String {
    "'" + text.replacing("'", with: "''") + "'"
  }
}
