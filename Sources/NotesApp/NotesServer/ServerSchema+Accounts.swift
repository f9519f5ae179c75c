// ServerSchema+Accounts: schema version 4 — every row belongs to an account, and the
// database, not the client, keeps each account to its own rows.

extension ServerSchema {
  /// The role every account is a member of; it holds the accounts' privileges.
  public static let accountsRole = "notes_sync"

  /// Names no account may have, beside those starting with `pg_`.
  ///
  /// PostgreSQL refuses `public` and `none` as role names. `current_role`, `current_user`,
  /// `session_user` and `user` name the session's role where SQL expects a role, and
  /// `all`, `sameuser`, `samerole`, `samegroup` and `replication` mean something else in
  /// `pg_hba.conf`: the server would take such a role, and the operator's statements and
  /// rules would then read as something else. `notes_sync` is the accounts' own role.
  public static let reservedNames: Set<String> = [
    "public", "none", "current_role", "current_user", "session_user", "user", "all",
    "sameuser", "samerole", "samegroup", "replication", accountsRole,
  ]

  /// The reason `name` cannot name an account, or `nil` if it can.
  ///
  /// An account name is 1 to 63 characters: lower-case ASCII letters, digits and
  /// underscores, starting with a letter, and none of ``reservedNames`` or a name starting
  /// with `pg_` (reserved by PostgreSQL).
  ///
  /// - Parameter name: A proposed account name.
  /// - Returns: Why it is refused, or `nil`.
  public static func accountNameProblem(_ name: String) -> String? {
    let bytes = Array(name.utf8)
    guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
    else { return "an account name starts with a lower-case letter (a–z)" }
    guard bytes.count <= 63 else { return "an account name has at most 63 characters" }
    let allowed = bytes.allSatisfy {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_")
    }
    guard allowed else {
      return "an account name has only lower-case letters, digits and underscores"
    }
    if name.hasPrefix("pg_") || reservedNames.contains(name) {
      return "'\(name)' is reserved and cannot name an account"
    }
    return nil
  }

  /// A function that says whether a version has the shape every stored version has: a
  /// lower-case UUID for an id, and a deletion (`NULL`) or an object with the fields a push
  /// writes, of the right types, and text the app's rules would accept.
  ///
  /// Version 4's form, kept as it was so that an upgrade from an older server passes
  /// through the same steps as then: schema 5 replaces it with one SQL expression that
  /// PostgreSQL inlines (`ServerSchema+StoredEntities`). Its `search_path` is fixed, so no
  /// role can slip another `jsonb_typeof` in.
  static let versionCheckFunction = #"""
    CREATE FUNCTION notes_version_ok(kind text, id text, version jsonb) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog AS $body$
    DECLARE
      title text;
    BEGIN
      IF id IS NULL
        OR id !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
        RETURN false;
      END IF;
      IF version IS NULL THEN
        RETURN true;
      END IF;
      IF jsonb_typeof(version) IS DISTINCT FROM 'object'
        OR jsonb_typeof(version->'title') IS DISTINCT FROM 'string'
        OR jsonb_typeof(version->'body') IS DISTINCT FROM 'string'
        OR jsonb_typeof(version->'pinned') IS DISTINCT FROM 'boolean'
        OR jsonb_typeof(version->'created') IS DISTINCT FROM 'number'
        OR jsonb_typeof(version->'modified') IS DISTINCT FROM 'number' THEN
        RETURN false;
      END IF;
      IF kind = 'note' THEN
        IF jsonb_typeof(version->'notebook') IS DISTINCT FROM 'string'
          OR version->>'notebook'
            !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
          RETURN false;
        END IF;
      ELSIF coalesce(jsonb_typeof(version->'notebook'), 'null') <> 'null' THEN
        RETURN false;
      END IF;
      title := version->>'title';
      RETURN title <> ''
        AND title !~ '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]'
        AND version->>'body' !~ '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]';
    END
    $body$
    """#

  /// Version 4: accounts, their channels, and row-level security on every table.
  ///
  /// ## Guarantees
  ///
  /// - An account is a PostgreSQL login role that is a member of `notes_sync` (which holds
  ///   every grant) and has a row in `notes_accounts`. Every row of `notes_devices`,
  ///   `notes_changes` and `notes_entities` names its account (`account`, by default the
  ///   role inserting it).
  /// - Row-level security is enabled and forced on every table sync uses, so the policies
  ///   bind the tables' owner's own sessions too: a role reads, inserts and updates only rows
  ///   whose `account` is its own name, and can insert or update no row to name another.
  ///   Accounts may not delete, and may not update what they pushed (`notes_changes` is
  ///   append-only for them). Superusers bypass row-level security whatever it says; no
  ///   device connects as one (`ServerAccount`).
  /// - A device id belongs to the account that registered it: `notes_changes` refers to
  ///   `(device_id, account)`, and device ids are unique across accounts.
  /// - Change ids and entity ids are unique per account, so no account can collide with (or
  ///   learn of) another's; an entity's version refers to a change of its own account.
  /// - The server refuses malformed versions itself (CHECK constraints on `notes_changes` and
  ///   `notes_entities`, through `notes_version_ok`): an entity id that is not a lower-case
  ///   UUID; a payload that is not an object holding `title`, `body`
  ///   (strings), `pinned` (a boolean), `created` and `modified` (numbers) and, for a note,
  ///   `notebook` (a UUID string); an empty title, or one with control characters or
  ///   bidirectional controls; a body with control characters other than tab and line
  ///   breaks. Every value the app's validators accept passes these checks (they are a
  ///   subset of the app's rules), so a valid push is never refused. The constraints are
  ///   `NOT VALID`: rows an older server accepted stay, and devices keep them aside.
  /// - Each account has a notification channel of its own, named by 128 random bits that
  ///   only the account can read, so a signal never tells one account of another's push.
  ///
  /// - Parameters:
  ///   - legacyAccount: The account existing rows go to.
  ///   - connection: The operator's connection, in the caller's transaction.
  /// - Throws: ``PostgresError`` when there are rows and no valid `legacyAccount`, or the
  ///   server refuses a statement.
  static func upgradeToAccounts(
    legacyAccount: String?, on connection: PostgresConnection
  ) throws {
    try createAccountsRole(on: connection)
    try connection.execute(
      """
      CREATE TABLE notes_accounts (
        account text PRIMARY KEY CHECK (account <> ''),
        channel text NOT NULL UNIQUE
          DEFAULT 'notes_' || replace(gen_random_uuid()::text, '-', ''),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_push timestamptz)
      """)
    for table in ["notes_devices", "notes_changes", "notes_entities"] {
      try connection.execute("ALTER TABLE \(table) ADD COLUMN account text")
    }
    try giveExistingRows(to: legacyAccount, on: connection)
    try connection.execute(versionCheckFunction)
    try connection.execute(
      """
      ALTER TABLE notes_devices
        ALTER COLUMN account SET DEFAULT current_user, ALTER COLUMN account SET NOT NULL,
        ADD CONSTRAINT notes_devices_account FOREIGN KEY (account)
          REFERENCES notes_accounts ON DELETE CASCADE,
        ADD CONSTRAINT notes_devices_of_account UNIQUE (device_id, account)
      """)
    try connection.execute(
      """
      ALTER TABLE notes_changes
        ALTER COLUMN account SET DEFAULT current_user, ALTER COLUMN account SET NOT NULL,
        DROP CONSTRAINT notes_changes_change_id_key,
        DROP CONSTRAINT notes_changes_device_id_fkey,
        ADD CONSTRAINT notes_changes_once UNIQUE (account, change_id),
        ADD CONSTRAINT notes_changes_of_account UNIQUE (account, seq),
        ADD CONSTRAINT notes_changes_device FOREIGN KEY (device_id, account)
          REFERENCES notes_devices (device_id, account),
        ADD CONSTRAINT notes_changes_version
          CHECK (notes_version_ok(entity, entity_id, payload)) NOT VALID
      """)
    try connection.execute("DROP INDEX notes_changes_entity")
    try connection.execute(
      "CREATE INDEX notes_changes_history ON notes_changes (account, entity, entity_id, seq)")
    try connection.execute(
      """
      ALTER TABLE notes_entities
        ALTER COLUMN account SET DEFAULT current_user, ALTER COLUMN account SET NOT NULL,
        DROP CONSTRAINT notes_entities_pkey,
        DROP CONSTRAINT notes_entities_seq_fkey,
        ADD PRIMARY KEY (account, entity_id, entity),
        ADD CONSTRAINT notes_entities_change FOREIGN KEY (account, seq)
          REFERENCES notes_changes (account, seq),
        ADD CONSTRAINT notes_entities_version
          CHECK (notes_version_ok(entity, entity_id, payload)) NOT VALID
      """)
    // A pull's page is one range, by sequence number, of an index of one account's
    // entities of one kind: a partial index per kind. (A push's lookup of one entity goes
    // by the primary key, account and entity id first; see `SyncServer.PushBatch.statement`.)
    try connection.execute("DROP INDEX notes_entities_by_seq")
    try connection.execute("DROP INDEX notes_entities_by_entity_seq")
    try connection.execute(
      "CREATE INDEX notes_entities_by_account_seq ON notes_entities (account, seq)")
    for kind in ["note", "notebook"] {
      try connection.execute(
        "CREATE INDEX notes_entities_\(kind)s ON notes_entities (account, seq)"
          + " WHERE entity = '\(kind)'")
    }
    try secureTables(on: connection)
  }

  /// Creates the `notes_sync` role unless the cluster has it (roles are shared by every
  /// database of a cluster), and lets it use the tables' schema.
  private static func createAccountsRole(on connection: PostgresConnection) throws {
    try connection.execute(
      """
      DO $$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(accountsRole)') THEN
          CREATE ROLE \(accountsRole) NOLOGIN;
        END IF;
        IF NOT has_schema_privilege('\(accountsRole)', current_schema(), 'USAGE') THEN
          EXECUTE format('GRANT USAGE ON SCHEMA %I TO \(accountsRole)', current_schema());
        END IF;
      END $$
      """)
  }

  /// Gives every row written before accounts existed to `account`, making its
  /// `notes_accounts` row; with no rows, nothing is needed.
  private static func giveExistingRows(
    to account: String?, on connection: PostgresConnection
  ) throws {
    let rows =
      try connection.execute(
        """
        SELECT (SELECT count(*) FROM notes_changes) + (SELECT count(*) FROM notes_devices)
          + (SELECT count(*) FROM notes_entities)
        """
      ).singleValue.flatMap { Int($0) } ?? 0
    guard rows > 0 else { return }
    guard let account else {
      let changes =
        try connection.execute("SELECT count(*) FROM notes_changes").singleValue ?? "0"
      throw PostgresError(
        "the server holds \(changes) changes from before accounts (schema 3): say which"
          + " account they belong to with `notes server init URL --account NAME`; nothing was"
          + " changed")
    }
    if let problem = accountNameProblem(account) { throw PostgresError(problem) }
    try connection.execute(
      "INSERT INTO notes_accounts (account) VALUES ($1) ON CONFLICT DO NOTHING", [account])
    for table in ["notes_devices", "notes_changes", "notes_entities"] {
      try connection.execute("UPDATE \(table) SET account = $1", [account])
    }
  }

  /// Forces row-level security on every table, with each account's policies, and grants
  /// the accounts exactly what sync needs.
  private static func secureTables(on connection: PostgresConnection) throws {
    // `current_user` is a `name`, whose collation is "C": compared as it is, or cast to
    // text, it does not match the column's collation, and no index on `account` can serve
    // the policy (every query of an account then read the rows of every account in its
    // range). Cast and in the column's collation, it is an index condition.
    // (Version 6 puts the column in "C" and the policies with it: ServerSchema+ByteKeys.)
    let own = #"account = current_user::text COLLATE "default""#
    let policies = accountPolicies(own: own).map { policy in
      "CREATE POLICY \(policy.name) ON \(policy.table) \(policy.clause)"
    }
    let statements =
      ["CREATE POLICY anyone_reads ON notes_schema FOR SELECT USING (true)"] + policies + [
        "CREATE POLICY own_insert ON notes_entities FOR INSERT WITH CHECK (\(own))",
        "CREATE POLICY own_update ON notes_entities FOR UPDATE USING (\(own)) WITH CHECK (\(own))",
        "GRANT SELECT ON notes_schema TO \(accountsRole)",
        "GRANT SELECT, UPDATE (last_push) ON notes_accounts TO \(accountsRole)",
        "GRANT SELECT, INSERT ON notes_devices TO \(accountsRole)",
        "GRANT SELECT, INSERT ON notes_changes TO \(accountsRole)",
        "GRANT USAGE ON SEQUENCE notes_changes_seq_seq TO \(accountsRole)",
        "GRANT SELECT, INSERT, UPDATE ON notes_entities TO \(accountsRole)",
      ]
    for statement in statements { try connection.execute(statement) }
    for table in securedTables {
      try connection.execute("ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY")
      try connection.execute("ALTER TABLE \(table) FORCE ROW LEVEL SECURITY")
    }
  }

  /// Every table sync uses; each has row-level security enabled and forced.
  public static let securedTables = [
    "notes_schema", "notes_accounts", "notes_devices", "notes_changes", "notes_entities",
  ]
}
