/// The sync server's tables and their version.
///
/// The tables a Notes sync server keeps in PostgreSQL, created and upgraded by the program, never
/// by hand.
///
/// ## Guarantees
///
/// - Versioned: `notes_schema` holds one row with the schema's version. `prepare` creates
///   every table of a new server in one transaction, upgrades an older one step by step
///   (each step in the same transaction), and leaves a current one untouched.
/// - A server whose schema is newer than this program's is refused with a message that
///   says so and nothing is changed: an older program never writes a newer layout.
/// - Several programs preparing one server at once take turns (a transaction-scoped
///   advisory lock), so the tables are created exactly once; one that waits longer than its
///   `lockWait` for its turn gives up as below.
/// - From version 4 the tables belong to accounts (ServerSchema+Accounts): every row names
///   the login role it belongs to, and row-level security, forced on every table, lets a
///   role reach only its own rows. An upgrade from version 3 gives every existing row to
///   one account the operator names (`legacyAccount`); a server holding rows is not
///   upgraded without one, and nothing changes then.
/// - From version 5 the server writes each entity's current version itself, from the
///   changes pushed (ServerSchema+StoredEntities); accounts only insert changes.
/// - From version 6 the keys are compared byte by byte, in the "C" collation, and a push
///   pays for no foreign key or index that its guarantees do not need (ServerSchema+ByteKeys).
/// - From version 7 the check of each version pushed tests its UUIDs without counted
///   repetition, accepting and refusing the same (ServerSchema+QuickChecks).
/// - From version 8 the numbers a device pages by are unique and come from the log, and the
///   operator's work on accounts takes no table lock (ServerSchema+LogNumbers,
///   ServerSchema+OperatorAccess).
/// - Preparing waits at most its `lockWait` for any one lock (an upgrade changes tables an
///   account's open transaction may be reading), then gives up with a message naming the
///   sessions it waited for, and nothing is changed.
public enum ServerSchema {
  /// The schema version this program writes.
  public static let version = 8

  /// What ``prepare(_:legacyAccount:lockWait:)`` did.
  public enum Outcome: Equatable, Sendable {
    /// The server was empty; every table was created at ``version``.
    case created
    /// The server was at an older version and was upgraded.
    case upgraded(from: Int)
    /// The server was at ``version`` already; nothing changed.
    case current
  }

  /// The key of the advisory lock programs take while preparing (any fixed number).
  static let lockKey = "7310462"

  /// Creates or upgrades the tables on the server `connection` talks to.
  ///
  /// Run it as the operator: a superuser, or the role that owns (or will own) the tables
  /// and may create roles (the first run creates the `notes_sync` role every account is a
  /// member of).
  ///
  /// - Parameters:
  ///   - connection: A connection to the server's database.
  ///   - legacyAccount: The account that the rows of a server older than version 4 belong
  ///     to (they were written before there were accounts); needed only when there are
  ///     such rows.
  ///   - lockWait: The longest any one statement waits for a lock.
  /// - Returns: What was done.
  /// - Throws: ``PostgresError`` if the server refuses a statement, if its schema is
  ///   newer than this program's, or if an upgrade needs `legacyAccount` and has none (or
  ///   an invalid one); nothing is changed then.
  @discardableResult
  public static func prepare(
    _ connection: PostgresConnection, legacyAccount: String? = nil,
    lockWait: Duration = standardLockWait
  ) throws -> Outcome {
    try prepare(connection, legacyAccount: legacyAccount, upTo: version, lockWait: lockWait)
  }

  /// ``prepare(_:legacyAccount:lockWait:)`` up to `target` only: how tests make a server of
  /// an older version to upgrade.
  static func prepare(
    _ connection: PostgresConnection, legacyAccount: String?, upTo target: Int,
    lockWait: Duration = standardLockWait
  ) throws -> Outcome {
    try withBoundedLockWaits(
      on: connection, lockWait: lockWait, doing: "preparing the server's tables"
    ) { () throws -> Outcome in
      try connection.execute("SELECT pg_advisory_xact_lock($1::bigint)", [lockKey])
      try connection.execute(
        """
        CREATE TABLE IF NOT EXISTS notes_schema (
          singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
          version integer NOT NULL)
        """)
      let found = try connection.execute("SELECT version FROM notes_schema").singleValue
      guard let found else {
        // The version is written before the last step forces row-level security on
        // notes_schema too.
        try connection.execute(
          "INSERT INTO notes_schema (version) VALUES ($1::integer)", [String(target)])
        try createVersion1(on: connection)
        try upgrade(from: 1, to: target, legacyAccount: nil, on: connection)
        return .created
      }
      guard let existing = Int(found) else {
        throw PostgresError("the server's notes_schema table holds '\(found)', not a version")
      }
      if existing > version {
        throw PostgresError(
          "the server's schema is version \(existing), newer than this program's"
            + " (\(version)): update notes before syncing with it")
      }
      guard existing < target else { return .current }
      try connection.execute("UPDATE notes_schema SET version = $1::integer", [String(target)])
      try upgrade(from: existing, to: target, legacyAccount: legacyAccount, on: connection)
      return .upgraded(from: existing)
    }
  }

  /// Runs every step after `existing` up to `target`, in order, in the caller's transaction.
  private static func upgrade(
    from existing: Int, to target: Int, legacyAccount: String?, on connection: PostgresConnection
  ) throws {
    if existing < 2, target >= 2 {
      // Version 2: pulls read entities by sequence number.
      try connection.execute("CREATE INDEX notes_entities_by_seq ON notes_entities (seq)")
    }
    if existing < 3, target >= 3 {
      // Version 3: a pull's page (one kind, after a sequence number, in order, a limit) is
      // one range of this index. Without it, on tables the server has not analysed yet (a
      // first push of 100,000 notes), the planner would sort every version after the
      // cursor for each page.
      try connection.execute(
        "CREATE INDEX notes_entities_by_entity_seq ON notes_entities (entity, seq)")
    }
    if existing < 4, target >= 4 {
      // Version 4: accounts, each a login role reaching only its own rows.
      try upgradeToAccounts(legacyAccount: legacyAccount, on: connection)
    }
    if existing < 5, target >= 5 {
      // Version 5: the server writes each entity's current version from the changes, and
      // checks each version once.
      try upgradeToStoredEntities(on: connection)
    }
    if existing < 6, target >= 6 {
      // Version 6: keys compared byte by byte; a foreign key and an index no push needs.
      try upgradeToByteKeys(on: connection)
    }
    if existing < 7, target >= 7 {
      // Version 7: the version check's UUID tests, cheaper and the same.
      try upgradeToQuickChecks(on: connection)
    }
    if existing < 8, target >= 8 {
      // Version 8: numbers from the log, unique; the operator's policies.
      try upgradeToLogNumbers(on: connection)
    }
  }

  /// Version 1: devices, the ordered log of every change pushed, and each entity's latest
  /// accepted version.
  private static func createVersion1(on connection: PostgresConnection) throws {
    // Each device that ever pushed, by the id it gave itself.
    try connection.execute(
      """
      CREATE TABLE notes_devices (
        device_id uuid PRIMARY KEY,
        registered_at timestamptz NOT NULL DEFAULT now())
      """)
    // Every change accepted, in the order the server accepted it (`seq`, what a device's
    // cursor counts). `change_id` is the device's id for the change, so a retry after a
    // lost acknowledgement is recognised and never applied twice.
    try connection.execute(
      """
      CREATE TABLE notes_changes (
        seq bigserial PRIMARY KEY,
        change_id uuid NOT NULL UNIQUE,
        device_id uuid NOT NULL REFERENCES notes_devices,
        entity text NOT NULL CHECK (entity IN ('notebook', 'note')),
        entity_id text NOT NULL,
        payload jsonb,
        recorded_at timestamptz NOT NULL DEFAULT now())
      """)
    try connection.execute("CREATE INDEX notes_changes_entity ON notes_changes (entity, entity_id)")
    // The latest accepted version of each entity: the ancestor of the next merge.
    try connection.execute(
      """
      CREATE TABLE notes_entities (
        entity text NOT NULL CHECK (entity IN ('notebook', 'note')),
        entity_id text NOT NULL,
        seq bigint NOT NULL REFERENCES notes_changes (seq),
        payload jsonb,
        PRIMARY KEY (entity, entity_id))
      """)
  }
}
