// ServerSchema+LogNumbers: schema version 8 — the numbers a device pages by are unique and
// come from the log alone; the operator's work takes no lock an account waits on.

extension ServerSchema {
  /// Version 8: each account's head kept from its log, unique version numbers per kind,
  /// the entities made to agree with the log once, and the operator's policies.
  ///
  /// ## Guarantees
  /// - `notes_accounts.log_head` is the largest sequence number of the account's log. Only
  ///   the trigger that stores each pushed change's entity writes it, in the same
  ///   statement, so a reader sees a head and the versions up to it from one snapshot.
  ///   Accounts may read it and not write it.
  /// - Within an account, no two versions of one kind have the same number (a unique
  ///   index, the one a pull pages by): a page boundary can never fall between two of them.
  /// - A version numbered past its account's head (a hand edit, a bad restore) is replaced
  ///   by the next change of its entity, as an older one would be; until then a pull leaves
  ///   it out and counts it (``SyncServer/logHead()``), so devices say so.
  /// - Upgrading makes every account's versions what its log says: each entity's version is
  ///   its newest change, an entity without a change is removed, and one whose changes
  ///   never became a version gets the newest. The unique indexes are made after that, so
  ///   an upgrade never fails on what an older server let in.
  ///
  /// - Parameter connection: The operator's connection (the tables' owner or a superuser),
  ///   in the caller's transaction.
  /// - Throws: ``PostgresError`` when the server refuses a statement.
  static func upgradeToLogNumbers(on connection: PostgresConnection) throws {
    try createOperatorPolicies(on: connection)
    // The statements below read and change every account's rows.
    try connection.execute("SELECT set_config($1, 'on', true)", [everyAccountSetting])
    try connection.execute(
      "ALTER TABLE notes_accounts ADD COLUMN log_head bigint NOT NULL DEFAULT 0")
    try connection.execute(
      """
      UPDATE notes_accounts a SET log_head = h.head
      FROM (SELECT account, max(seq) AS head FROM notes_changes GROUP BY account) h
      WHERE a.account = h.account
      """)
    try makeEntitiesAgreeWithTheLog(on: connection)
    for kind in ["note", "notebook"] {
      try connection.execute("DROP INDEX notes_entities_\(kind)s")
      try connection.execute(
        "CREATE UNIQUE INDEX notes_entities_\(kind)s ON notes_entities (account, seq)"
          + " WHERE entity = '\(kind)'")
    }
    let functionOwner =
      try connection.execute(
        "SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE proname = 'notes_store_entities'"
      ).singleValue ?? tablesOwner(on: connection)
    try connection.execute(
      """
      CREATE POLICY head_by_trigger ON notes_accounts TO \(ServerAccounts.identifier(functionOwner))
        USING (pg_trigger_depth() > 0) WITH CHECK (pg_trigger_depth() > 0)
      """)
    let schema =
      try connection.execute("SELECT quote_ident(current_schema())").singleValue ?? "public"
    try connection.execute(storeEntitiesFunction(schema: schema))
  }

  /// The trigger function of version 8: each inserted change becomes its entity's version
  /// unless the entity holds a newer one that the log has, and the account's head moves.
  ///
  /// Pushes of one account take turns under its lock and draw their numbers inside it, so
  /// a change being stored is newer than every version of its account that came from the
  /// log; a stored version numbered past the head did not, and is replaced.
  static func storeEntitiesFunction(schema: String) -> String {
    """
    CREATE OR REPLACE FUNCTION notes_store_entities() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, \(schema), pg_temp
    AS $body$
    BEGIN
      INSERT INTO notes_entities AS stored (account, entity, entity_id, seq, payload)
      SELECT DISTINCT ON (account, entity, entity_id) account, entity, entity_id, seq, payload
      FROM added ORDER BY account, entity, entity_id, seq DESC
      ON CONFLICT (account, entity, entity_id) DO UPDATE
        SET seq = excluded.seq, payload = excluded.payload
        WHERE stored.seq < excluded.seq
          OR stored.seq > (SELECT a.log_head FROM notes_accounts a
            WHERE a.account = stored.account);
      UPDATE notes_accounts a SET log_head = h.head
      FROM (SELECT account, max(seq) AS head FROM added GROUP BY account) h
      WHERE a.account = h.account AND a.log_head < h.head;
      RETURN NULL;
    END
    $body$
    """
  }

  /// Makes each entity's version its newest change in the log: run once, by the upgrade,
  /// with every account's rows in view.
  private static func makeEntitiesAgreeWithTheLog(on connection: PostgresConnection) throws {
    let newest = """
      SELECT DISTINCT ON (account, entity, entity_id) account, entity, entity_id, seq, payload
      FROM notes_changes ORDER BY account, entity, entity_id, seq DESC
      """
    try connection.execute(
      """
      DELETE FROM notes_entities e WHERE NOT EXISTS (
        SELECT FROM notes_changes c
        WHERE c.entity_id = e.entity_id AND c.entity = e.entity AND c.account = e.account)
      """)
    try connection.execute(
      """
      UPDATE notes_entities e SET seq = n.seq, payload = n.payload FROM (\(newest)) n
      WHERE e.account = n.account AND e.entity = n.entity AND e.entity_id = n.entity_id
        AND (e.seq <> n.seq OR e.payload IS DISTINCT FROM n.payload)
      """)
    try connection.execute(
      """
      INSERT INTO notes_entities (account, entity, entity_id, seq, payload)
      SELECT account, entity, entity_id, seq, payload FROM (\(newest)) n
      ON CONFLICT DO NOTHING
      """)
  }
}
