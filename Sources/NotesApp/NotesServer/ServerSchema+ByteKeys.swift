// ServerSchema+ByteKeys: schema version 6 — the tables' keys are compared byte by byte,
// and each change pushed is indexed and checked no more than its guarantees need.

extension ServerSchema {
  /// The policies that compare `account` with the session's role: name, table and clause.
  ///
  /// `own` stands for the comparison; version 4 wrote it in the database's default
  /// collation, version 6 in "C".
  static func accountPolicies(own: String) -> [(name: String, table: String, clause: String)] {
    [
      ("own_read", "notes_accounts", "FOR SELECT USING (\(own))"),
      ("own_lock", "notes_accounts", "FOR UPDATE USING (\(own)) WITH CHECK (\(own))"),
      ("own_read", "notes_devices", "FOR SELECT USING (\(own))"),
      ("own_insert", "notes_devices", "FOR INSERT WITH CHECK (\(own))"),
      ("own_read", "notes_changes", "FOR SELECT USING (\(own))"),
      ("own_insert", "notes_changes", "FOR INSERT WITH CHECK (\(own))"),
      ("own_read", "notes_entities", "FOR SELECT USING (\(own))"),
    ]
  }

  /// Version 6: keys in the "C" collation, the redundant foreign key and index dropped.
  ///
  /// Why: in the locale's collation, a first push spends the server's time on text
  /// comparisons (`strcoll`) and on the foreign key's checks; the README has the figures.
  ///
  /// ## Guarantees
  ///
  /// - `account`, `entity` and `entity_id` are in the "C" collation in every table: their
  ///   comparisons (every index on the tables leads with `account`, and most go on to
  ///   `entity_id`) compare bytes, whatever the database's locale. Equality is the same in
  ///   every deterministic collation, and no query orders by these columns for the user, so
  ///   no answer changes; only the cost of each comparison does.
  /// - The policies compare `account` with `current_user` in the column's collation, so an
  ///   index on `account` still serves them (see `secureTables`).
  /// - `notes_entities` has no foreign key to `notes_changes`: its only writer is the
  ///   trigger that copies each row from a change inserted by the same statement
  ///   (`ServerSchema+StoredEntities`), so the check could never fail, and it would cost a
  ///   lookup and a row lock per change pushed.
  /// - `notes_entities_by_account_seq` is dropped: the two partial indexes by kind cover the
  ///   same rows, and `SyncServer.count(after:)` asks each of them.
  ///
  /// - Parameter connection: The operator's connection (the tables' owner or a superuser),
  ///   in the caller's transaction.
  /// - Throws: ``PostgresError`` when the server refuses a statement.
  static func upgradeToByteKeys(on connection: PostgresConnection) throws {
    // A column's collation cannot change under a policy or a foreign key that uses it:
    // both are dropped first and made again after.
    let policies = accountPolicies(own: #"account = current_user::text COLLATE "C""#)
    for policy in policies {
      try connection.execute("DROP POLICY \(policy.name) ON \(policy.table)")
    }
    let statements = [
      "ALTER TABLE notes_entities DROP CONSTRAINT notes_entities_change",
      "ALTER TABLE notes_changes DROP CONSTRAINT notes_changes_device",
      "ALTER TABLE notes_devices DROP CONSTRAINT notes_devices_account",
      "DROP INDEX notes_entities_by_account_seq",
      #"ALTER TABLE notes_accounts ALTER COLUMN account TYPE text COLLATE "C""#,
      #"ALTER TABLE notes_devices ALTER COLUMN account TYPE text COLLATE "C""#,
      """
      ALTER TABLE notes_changes ALTER COLUMN account TYPE text COLLATE "C",
        ALTER COLUMN entity TYPE text COLLATE "C", ALTER COLUMN entity_id TYPE text COLLATE "C"
      """,
      """
      ALTER TABLE notes_entities ALTER COLUMN account TYPE text COLLATE "C",
        ALTER COLUMN entity TYPE text COLLATE "C", ALTER COLUMN entity_id TYPE text COLLATE "C"
      """,
      """
      ALTER TABLE notes_devices ADD CONSTRAINT notes_devices_account FOREIGN KEY (account)
        REFERENCES notes_accounts ON DELETE CASCADE
      """,
      """
      ALTER TABLE notes_changes ADD CONSTRAINT notes_changes_device
        FOREIGN KEY (device_id, account) REFERENCES notes_devices (device_id, account)
      """,
    ]
    for statement in statements { try connection.execute(statement) }
    for policy in policies {
      try connection.execute("CREATE POLICY \(policy.name) ON \(policy.table) \(policy.clause)")
    }
  }
}
