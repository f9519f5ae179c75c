// SyncServer+Versions: reading the versions the server holds, whatever a row holds.

import NotesCore

extension SyncServer {
  /// The most bytes of a title read from the server.
  static let titleByteLimit = 64 * 1024
  /// The most bytes of a body read from the server.
  static let bodyByteLimit = 64 * 1024 * 1024
  /// The most bytes of an id read from the server.
  static let idByteLimit = 100

  /// The columns of a version `v` (its payload, id, sequence number) and change id `c`.
  private static func columns(payload: String, entityID: String, seq: String) -> String {
    """
    SELECT \(seq), c.change_id, left(\(entityID), \(idByteLimit)), octet_length(\(entityID)),
      jsonb_typeof(\(payload)), jsonb_typeof(\(payload)->'title'),
      jsonb_typeof(\(payload)->'body'), jsonb_typeof(\(payload)->'notebook'),
      jsonb_typeof(\(payload)->'pinned'), jsonb_typeof(\(payload)->'created'),
      jsonb_typeof(\(payload)->'modified'),
      CASE WHEN octet_length(f.title) <= \(titleByteLimit) THEN f.title END,
      octet_length(f.title),
      CASE WHEN octet_length(f.body) <= \(bodyByteLimit) THEN f.body END, octet_length(f.body),
      left(\(payload)->>'notebook', \(idByteLimit)), \(payload)->>'pinned',
      left(\(payload)->>'created', 100), left(\(payload)->>'modified', 100)
    """
  }

  /// Each entity's latest version (`e`) that meets `condition` (on `notes_entities`), in
  /// sequence order, at most `limit`, with the id of the change that made it (`c`).
  ///
  /// The entities are chosen first, in one range of an index, and each one's change is then looked
  /// up by its sequence number: a plan that does not depend on the server's statistics. (A join of
  /// the two tables, planned on tables not analysed yet, as after a first push, would compare every
  /// entity with every change.) A version whose change is not there (a row no push wrote) comes
  /// back refused.
  static func selectLatest(where condition: String, limit: String? = nil) -> String {
    selectLatest(
      chosenBy: """
        SELECT entity_id, seq, payload FROM notes_entities WHERE \(condition)
          ORDER BY seq\(limit.map { " LIMIT \($0)" } ?? "")
        """)
  }

  /// The latest versions of the entities `entities` chooses (a query answering
  /// `entity_id`, `seq` and `payload` from `notes_entities`), in sequence order, each with
  /// the id of the change that made it (`c`).
  static func selectLatest(chosenBy entities: String) -> String {
    columns(payload: "e.payload", entityID: "e.entity_id", seq: "e.seq")
      + """

      FROM (\(entities)) e
        LEFT JOIN LATERAL (SELECT change_id FROM notes_changes WHERE seq = e.seq) c ON true,
        LATERAL (SELECT e.payload->>'title' AS title, e.payload->>'body' AS body) f
      ORDER BY e.seq
      """
  }

  /// The latest versions of the entities of kind `$1` among the ids `$2` (a text array).
  ///
  /// Each id is looked up on its own, by its id alone inside a subquery the planner may not
  /// merge (`OFFSET 0`), then its kind: the primary key (account, entity id, kind) is then
  /// the only index that narrows the search, whatever the statistics say. Given the kind
  /// and the ids together, on tables whose statistics knew only another account, the
  /// planner judged the account's index of notes as cheap and read every note of the
  /// account to find the ids.
  static let selectVersionsOfEntities = selectLatest(
    chosenBy: """
      SELECT found.entity_id, found.seq, found.payload
        FROM (SELECT DISTINCT id FROM unnest($2::text[]) AS ids(id)) wanted,
          LATERAL (
            SELECT e.entity, e.entity_id, e.seq, e.payload FROM notes_entities e
            WHERE e.entity_id = wanted.id OFFSET 0
          ) found
        WHERE found.entity = $1
      """)

  /// Every version of the changes log (`c`); a query adds its WHERE clause.
  static let selectHistory =
    columns(payload: "c.payload", entityID: "c.entity_id", seq: "c.seq")
      + """

      FROM notes_changes c,
        LATERAL (SELECT c.payload->>'title' AS title, c.payload->>'body' AS body) f
      """

  /// The versions of `kind` in `rows` (columns as `columns(payload:entityID:seq:)`).
  ///
  /// ## Guarantees
  ///
  /// - The server reports each field's JSON type beside its value, so a field that is
  ///   missing, or a string where a number belongs, is named as such; a payload that is not an
  ///   object is refused as a whole. Nothing a row holds makes reading a page fail.
  /// - What is read is bounded: an entity id past 100 bytes, a title past 64 KiB or a body
  ///   past 64 MiB is not transferred; the version is refused as too long (the app's limits
  ///   are far below: 200 and 1,000,000 characters).
  /// - A version whose shape is right is then held to the app's rules (`PulledVersion.checking`,
  ///   `SyncRules`), so a version is either a valid record or refused with every reason.
  static func versions(_ kind: SyncEntityKind, from rows: PostgresRows) -> [PulledVersion] {
    var versions: [PulledVersion] = []
    versions.reserveCapacity(rows.rows.count)
    for row in rows.rows { versions.append(version(kind, from: row)) }
    return versions
  }

  /// One version read from its row.
  static func version(_ kind: SyncEntityKind, from row: [String?]) -> PulledVersion {
    let seq = row[0].flatMap { Int64($0) } ?? 0
    let changeID = row[1] ?? ""
    let uid = row[2] ?? ""
    var problems: [String] = []
    if row[1] == nil { problems.append("The server has no change on record for this version.") }
    if let length = row[3].flatMap({ Int($0) }), length > idByteLimit {
      problems.append("The \(kind.rawValue) id is \(length) bytes long, not a UUID.")
    }
    guard let type = row[4] else {
      // A deletion.
      return .checking(
        SyncRecord(kind: kind, uid: uid, fields: nil), seq: seq, changeID: changeID,
        shapeProblems: problems)
    }
    guard type == "object" else {
      problems.append("The version is not an object but \(jsonType(type)).")
      return refused(kind, uid: uid, seq: seq, changeID: changeID, problems)
    }
    var field = FieldReader(kind: kind, row: row)
    let title = field.string("title", type: 5, value: 11, length: 12, limit: titleByteLimit)
    let body = field.string("body", type: 6, value: 13, length: 14, limit: bodyByteLimit)
    let pinned = field.value("pinned", type: 8, expected: "boolean", value: 16)
    let created = field.value("created", type: 9, expected: "number", value: 17)
    let modified = field.value("modified", type: 10, expected: "number", value: 18)
    var notebook: String?
    if kind == .note {
      notebook = field.value("notebook", type: 7, expected: "string", value: 15)
    }
    problems += field.problems
    guard problems.isEmpty, let title, let body, let pinned, let created, let modified,
      let createdDate = Double(created), let modifiedDate = Double(modified)
    else {
      if problems.isEmpty { problems.append("The version's dates cannot be read.") }
      return refused(kind, uid: uid, seq: seq, changeID: changeID, problems)
    }
    let fields = SyncFields(
      title: title, body: kind == .note ? body : "", notebook: notebook,
      isPinned: kind == .note && pinned == "true", created: createdDate, modified: modifiedDate)
    return .checking(
      SyncRecord(kind: kind, uid: uid, fields: fields), seq: seq, changeID: changeID)
  }

  /// A JSON type as the server named it, for a message: one of JSON's six type names, or
  /// "a value of an unknown type" for anything else a server sends (never its text, which
  /// could hold anything).
  static func jsonType(_ name: String) -> String {
    let known = ["object", "array", "string", "number", "boolean", "null"]
    return known.contains(name) ? "a JSON \(name)" : "a value of an unknown type"
  }

  private static func refused(
    _ kind: SyncEntityKind, uid: String, seq: Int64, changeID: String, _ problems: [String]
  ) -> PulledVersion {
    .checking(
      SyncRecord(kind: kind, uid: uid, fields: nil), seq: seq, changeID: changeID,
      shapeProblems: problems)
  }

  /// Reads the fields of one row, collecting what is missing or of the wrong type.
  private struct FieldReader {
    let kind: SyncEntityKind
    let row: [String?]
    private(set) var problems: [String] = []

    init(kind: SyncEntityKind, row: [String?]) {
      self.kind = kind
      self.row = row
    }

    /// The text of field `name` (JSON type at `type`, value at `value`) if it has the
    /// `expected` type; otherwise `nil`, with the problem noted.
    mutating func value(_ name: String, type: Int, expected: String, value: Int) -> String? {
      guard let found = row[type] else {
        problems.append("The \(kind.rawValue) has no “\(name)”.")
        return nil
      }
      guard found == expected, let text = row[value] else {
        problems.append(
          "The \(kind.rawValue)'s “\(name)” is \(SyncServer.jsonType(found)), not a \(expected).")
        return nil
      }
      return text
    }

    /// A string field read only up to `limit` bytes (its byte length at `length`).
    mutating func string(
      _ name: String, type: Int, value: Int, length: Int, limit: Int
    ) -> String? {
      if row[type] == "string", row[value] == nil,
        let bytes = row[length].flatMap({ Int($0) }), bytes > limit
      {
        problems.append(
          "The \(kind.rawValue)'s “\(name)” is \(bytes) bytes long, more than this app reads.")
        return nil
      }
      return self.value(name, type: type, expected: "string", value: value)
    }
  }
}
