// ServerSchema+StoredEntities: schema version 5 — each entity's latest version is written
// by the server itself, from the changes pushed, and each version is checked once.

extension ServerSchema {
  /// The version check as one SQL expression, replacing version 4's PL/pgSQL function.
  ///
  /// Same rules, same signature: the CHECK constraint on `notes_changes` keeps naming it.
  static let inlinedVersionCheckFunction = versionCheckFunction { text in
    "\(text) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'"
  }

  /// `CREATE OR REPLACE FUNCTION notes_version_ok` as one SQL expression, with
  /// `lowerCaseUUID` writing the test that an SQL expression is a lower-case UUID.
  ///
  /// A CHECK passes when its expression is NULL (a missing field compared with anything),
  /// so the whole expression is made false then.
  static func versionCheckFunction(lowerCaseUUID: (String) -> String) -> String {
    #"""
    CREATE OR REPLACE FUNCTION notes_version_ok(kind text, id text, version jsonb)
    RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN coalesce(
      \#(lowerCaseUUID("id"))
      AND (version IS NULL OR (
        jsonb_typeof(version) = 'object'
        AND jsonb_typeof(version->'title') = 'string'
        AND jsonb_typeof(version->'body') = 'string'
        AND jsonb_typeof(version->'pinned') = 'boolean'
        AND jsonb_typeof(version->'created') = 'number'
        AND jsonb_typeof(version->'modified') = 'number'
        AND CASE WHEN kind = 'note' THEN
            jsonb_typeof(version->'notebook') = 'string'
            AND \#(lowerCaseUUID("(version->>'notebook')"))
          ELSE coalesce(jsonb_typeof(version->'notebook'), 'null') = 'null' END
        AND version->>'title' <> ''
        AND version->>'title'
          !~ '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]'
        AND version->>'body' !~ '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]')),
      false)
    """#
  }

  /// Version 5: `notes_entities` written by a trigger on `notes_changes`, checked once.
  ///
  /// Why: checking every version twice, once per table, and through an interpreted function,
  /// costs a large share of a first push's server time (the README has the figures); the
  /// trigger also writes a batch's entities in one statement of its own.
  ///
  /// ## Guarantees
  ///
  /// - `notes_entities` is written only by the trigger `notes_changes_store`: after each
  ///   statement that inserts into `notes_changes`, one set-based upsert makes each entity's
  ///   newest inserted change its current version (never an older one: a row moves only to a
  ///   higher sequence number). Accounts may read their own rows of `notes_entities` and
  ///   nothing else: no INSERT or UPDATE is granted on it, so what it holds is always a copy
  ///   of a change that passed `notes_changes`' CHECK.
  /// - The trigger's function runs as the tables' owner (`SECURITY DEFINER`, its
  ///   `search_path` fixed with `pg_temp` last, so no role's temporary table can stand in for
  ///   a table). Row-level security stays forced; the owner's one extra policy lets it write
  ///   `notes_entities` only from inside a trigger (`pg_trigger_depth() > 0`), so the owner's
  ///   own sessions still see no account's rows without lifting the force.
  /// - `notes_version_ok` is one SQL expression (`LANGUAGE sql`, a standard body parsed when it
  ///   is created, so no `search_path` reaches it): PostgreSQL inlines it into the CHECK
  ///   instead of calling an interpreted function for every row. Its rules are unchanged.
  ///
  /// - Parameter connection: The operator's connection (the tables' owner or a superuser),
  ///   in the caller's transaction.
  /// - Throws: ``PostgresError`` when the server refuses a statement.
  static func upgradeToStoredEntities(on connection: PostgresConnection) throws {
    try connection.execute(inlinedVersionCheckFunction)
    // The schema the tables are in, quoted: the function finds them there and nowhere else.
    let schema =
      try connection.execute("SELECT quote_ident(current_schema())").singleValue ?? "public"
    try connection.execute(
      """
      CREATE FUNCTION notes_store_entities() RETURNS trigger
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, \(schema), pg_temp
      AS $body$
      BEGIN
        INSERT INTO notes_entities AS stored (account, entity, entity_id, seq, payload)
        SELECT DISTINCT ON (account, entity, entity_id) account, entity, entity_id, seq, payload
        FROM added ORDER BY account, entity, entity_id, seq DESC
        ON CONFLICT (account, entity, entity_id) DO UPDATE
          SET seq = excluded.seq, payload = excluded.payload
          WHERE stored.seq < excluded.seq;
        RETURN NULL;
      END
      $body$
      """)
    let statements = [
      "REVOKE ALL ON FUNCTION notes_store_entities() FROM PUBLIC",
      """
      CREATE TRIGGER notes_changes_store AFTER INSERT ON notes_changes
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT
        EXECUTE FUNCTION notes_store_entities()
      """,
      "REVOKE INSERT, UPDATE ON notes_entities FROM \(accountsRole)",
      "DROP POLICY own_insert ON notes_entities",
      "DROP POLICY own_update ON notes_entities",
      """
      CREATE POLICY stored_by_trigger ON notes_entities TO CURRENT_USER
        USING (pg_trigger_depth() > 0) WITH CHECK (pg_trigger_depth() > 0)
      """,
      "ALTER TABLE notes_entities DROP CONSTRAINT notes_entities_version",
    ]
    for statement in statements { try connection.execute(statement) }
  }
}
