// ServerSchema+QuickChecks: schema version 7 — the server's check of each version pushed
// tests its UUIDs without the regular expressions' counted repetitions, and an entity's
// history is indexed by its id first.

extension ServerSchema {
  /// Whether `text` (an SQL expression) is a UUID written in lower case.
  ///
  /// Each test is cheap and fails fast; the regular expression, last, has no counted
  /// repetition.
  static func lowerCaseUUIDTest(_ text: String) -> String {
    """
    (octet_length(\(text)) = 36 AND substr(\(text), 9, 1) = '-' AND substr(\(text), 14, 1) = '-'
        AND substr(\(text), 19, 1) = '-' AND substr(\(text), 24, 1) = '-'
        AND \(text) ~ '^[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+$')
    """
  }

  /// Version 5's check (`inlinedVersionCheckFunction`) with the UUID tests of
  /// ``lowerCaseUUIDTest(_:)``.
  static let quickVersionCheckFunction = versionCheckFunction(lowerCaseUUID: lowerCaseUUIDTest)

  /// Version 7: the version check's UUID tests without counted repetition; the history
  /// index led by the entity's id.
  ///
  /// Why: PostgreSQL's regular expressions spend most of their time on counted repetition,
  /// the two UUID tests are most of the check's cost, and the check is a large share of the
  /// server's time inserting a batch of a push (the README has the figures).
  ///
  /// ## Guarantees
  ///
  /// - `notes_version_ok` accepts and refuses exactly what version 5's did: an id, and a note's
  ///   notebook, must be 36 bytes, hyphens at the 9th, 14th, 19th and 24th, and lower-case
  ///   hexadecimal digits everywhere else. Version 5 wrote that as one regular expression with
  ///   counted groups (`[0-9a-f]{8}-…`); version 7 checks the length and the hyphens' places first,
  ///   then five groups of digits split by four hyphens (`[0-9a-f]+-…`). With 36 bytes, four
  ///   hyphens where they must be and only digits and hyphens around them, the groups have 8, 4, 4,
  ///   4 and 12 digits: the same rule.
  /// - Every other rule, and the function's signature, is unchanged: the CHECK constraint on
  ///   `notes_changes` names it and picks the new body up (PostgreSQL inlines it into the
  ///   constraint's expression when a statement starts).
  /// - Of the log's indexes, only `notes_changes_once` (account, change id) leads with the
  ///   account: `notes_changes_history` leads with the entity's id, and the index by account
  ///   and sequence number is dropped (`SyncServer.head()` reads the entities' kind
  ///   indexes). So a push's lookup of an earlier change by its id (`SyncServer.PushBatch`)
  ///   is planned on `notes_changes_once` even when the server's statistics say the pushing
  ///   account has no rows (a new account on a server another account filled). The planner
  ///   then takes any index led by the account as nearly free; on the history index, or one
  ///   by sequence number, the lookup would read the account's whole log for each change.
  ///
  /// - Parameter connection: The operator's connection (the tables' owner or a superuser),
  ///   in the caller's transaction.
  /// - Throws: ``PostgresError`` when the server refuses a statement.
  static func upgradeToQuickChecks(on connection: PostgresConnection) throws {
    try connection.execute(quickVersionCheckFunction)
    // No index of the log but the change ids' is led by the account alone (see the
    // header): an entity's history by its id first, and no index by account and sequence
    // number (the head is read from the entities).
    try connection.execute("ALTER TABLE notes_changes DROP CONSTRAINT notes_changes_of_account")
    try connection.execute("DROP INDEX notes_changes_history")
    try connection.execute(
      """
      CREATE INDEX notes_changes_history ON notes_changes (entity_id, entity, account, seq)
      """)
  }
}
