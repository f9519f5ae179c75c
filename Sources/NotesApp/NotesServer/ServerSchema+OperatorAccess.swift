// ServerSchema+OperatorAccess: how the operator reads and writes every account's rows
// without taking a lock any account's sync waits on.

extension ServerSchema {
  /// The session setting that lets the tables' owner see every account's rows, for the
  /// length of one transaction (``withEveryAccountsRows(on:lockWait:_:)``).
  static let everyAccountSetting = "notes.every_account"

  /// How long an operator's command waits for a lock before it gives up, unless it is
  /// told otherwise.
  public static let standardLockWait: Duration = .seconds(10)

  /// Schema version 8's policies: on each table sync uses, one that lets the tables' owner
  /// reach every row while its transaction has set ``everyAccountSetting``.
  ///
  /// ## Guarantees
  /// - The policy names the tables' owner only. Accounts are not members of it, so no
  ///   account gains anything by setting the same setting; the owner could lift row-level
  ///   security anyway.
  /// - Lifting row-level security with `ALTER TABLE … NO FORCE` needs an `ACCESS
  ///   EXCLUSIVE` lock on each table: it waited for every account's open transaction, and
  ///   every account's next statement queued behind it. Setting a session setting takes no
  ///   lock at all.
  ///
  /// - Parameter connection: The operator's connection, in the caller's transaction.
  /// - Throws: ``PostgresError`` when the server refuses a statement.
  static func createOperatorPolicies(on connection: PostgresConnection) throws {
    let owner = try tablesOwner(on: connection)
    let condition = "current_setting('\(everyAccountSetting)', true) = 'on'"
    for table in securedTables {
      try connection.execute(
        """
        CREATE POLICY operator_every_account ON \(table) TO \(ServerAccounts.identifier(owner))
          USING (\(condition)) WITH CHECK (\(condition))
        """)
    }
  }

  /// The role that owns the sync tables.
  static func tablesOwner(on connection: PostgresConnection) throws -> String {
    let owner = try connection.execute(
      """
      SELECT tableowner FROM pg_tables
      WHERE schemaname = current_schema() AND tablename = 'notes_changes'
      """
    ).singleValue
    guard let owner else { throw PostgresError("the server has no notes_changes table") }
    return owner
  }

  /// Runs `body` in one transaction that sees and may change every account's rows, for
  /// the operator's work (listing, adding and removing accounts).
  ///
  /// The transaction sets ``everyAccountSetting``, which the operator's policies on each
  /// table read (a superuser needs none: superusers bypass row-level security). It takes
  /// no table lock of its own, so no account's open transaction can make it wait, and it
  /// makes no account wait for it.
  ///
  /// A statement of `body` that still waits for a lock (removing an account whose device
  /// is pushing waits for that push) gives up after `lockWait`; the error then names the
  /// sessions with a transaction open on the server's database.
  ///
  /// - Parameters:
  ///   - connection: The operator's connection (a superuser or the tables' owner).
  ///   - lockWait: The longest any one statement waits for a lock.
  ///   - body: The work; its statements see every row.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws, or ``PostgresError``; nothing is changed then.
  public static func withEveryAccountsRows<Result>(
    on connection: PostgresConnection, lockWait: Duration = standardLockWait,
    _ body: () throws -> Result
  ) throws -> Result {
    try withBoundedLockWaits(on: connection, lockWait: lockWait, doing: "managing accounts") {
      try connection.execute(
        "SELECT set_config($1, 'on', true)", [everyAccountSetting])
      return try body()
    }
  }

  /// Runs `body` in a transaction whose statements wait at most `lockWait` for a lock;
  /// one that waits longer fails with an error that says what was being done and which
  /// sessions hold transactions open.
  ///
  /// - Parameters:
  ///   - connection: The operator's connection.
  ///   - lockWait: The longest any one statement waits for a lock.
  ///   - work: What the transaction does, for the message ("upgrading the schema").
  ///   - body: The transaction's statements.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws; a lock wait that ran out as ``PostgresError`` with
  ///   SQLSTATE `55P03`, rolled back.
  static func withBoundedLockWaits<Result>(
    on connection: PostgresConnection, lockWait: Duration, doing work: String,
    _ body: () throws -> Result
  ) throws -> Result {
    let milliseconds = max(1, Int((lockWait / .milliseconds(1)).rounded(.up)))
    do {
      return try connection.inTransaction {
        try connection.execute(
          "SELECT set_config('lock_timeout', $1, true)", ["\(milliseconds)ms"])
        return try body()
      }
    } catch let error as PostgresError where error.sqlState == "55P03" {
      throw PostgresError(
        "gave up \(work) after waiting \(seconds(lockWait)) for a lock"
          + holders(on: connection) + "; nothing was changed, try again later",
        sqlState: error.sqlState)
    }
  }

  /// `duration` in words, to the tenth of a second ("10 s", "0.5 s").
  private static func seconds(_ duration: Duration) -> String {
    let tenths = (duration / .milliseconds(100)).rounded()
    return tenths.truncatingRemainder(dividingBy: 10) == 0
      ? "\(Int(tenths / 10)) s" : "\(tenths / 10) s"
  }

  /// The sessions with a transaction open on `connection`'s database, other than its own,
  /// as a clause for a message (empty when none can be seen).
  ///
  /// A superuser sees every session's role and state; another role sees its own sessions'
  /// only, and the others as "another role".
  private static func holders(on connection: PostgresConnection) -> String {
    let rows = try? connection.execute(
      """
      SELECT coalesce(usename::text, 'another role'), coalesce(state, 'unknown'),
        to_char(xact_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
      FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()
        AND xact_start IS NOT NULL
      ORDER BY xact_start LIMIT 5
      """)
    guard let rows = rows?.rows, !rows.isEmpty else { return "" }
    let sessions = rows.map { row in
      "\(row[0] ?? "another role") (\(row[1] ?? "unknown") since \(row[2] ?? "unknown"))"
    }
    return " held by an open transaction of: " + sessions.joined(separator: ", ")
  }
}
