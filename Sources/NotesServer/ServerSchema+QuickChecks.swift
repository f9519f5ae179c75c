// ServerSchema+QuickChecks: schema version 7 — the server's check of each version pushed
// tests its UUIDs without the regular expressions' counted repetitions.
//
// Guarantees
// - `notes_version_ok` accepts and refuses exactly what version 5's did: an id, and a
//   note's notebook, must be 36 bytes, hyphens at the 9th, 14th, 19th and 24th, and lower-
//   case hexadecimal digits everywhere else. Version 5 wrote that as one regular expression
//   with counted groups (`[0-9a-f]{8}-…`); version 7 checks the length and the hyphens'
//   places first, then five groups of digits split by four hyphens (`[0-9a-f]+-…`). With
//   36 bytes, four hyphens where they must be and only digits and hyphens around them,
//   the groups have 8, 4, 4, 4 and 12 digits: the same rule.
// - Every other rule, and the function's signature, is unchanged: the CHECK constraint on
//   `notes_changes` names it and picks the new body up (PostgreSQL inlines it into the
//   constraint's expression when a statement starts).
// - Why: PostgreSQL's regular expressions spend most of their time on counted repetition;
//   the two UUID tests were over two thirds of the check's cost, and the check about a
//   quarter of the server's time inserting a batch of a push (the README has the figures).

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

  /// Version 7: the version check's UUID tests without counted repetition.
  ///
  /// - Parameter connection: The operator's connection (the tables' owner or a superuser),
  ///   in the caller's transaction.
  /// - Throws: ``PostgresError`` when the server refuses a statement.
  static func upgradeToQuickChecks(on connection: PostgresConnection) throws {
    try connection.execute(quickVersionCheckFunction)
  }
}
