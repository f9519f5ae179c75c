// SyncServer+Push: a device's changes sent to the server, compare-and-set per entity, in
// one transaction under its account's lock.
//
// Guarantees (those of SyncServer: compare-and-set, idempotent, an account's pushes in
// order, its own channel signalled) are kept here; the statement each change runs is
// prepared once per connection.

public import NotesCore

extension SyncServer {
  /// Pushes `changes` in one transaction; one outcome per change, in order.
  ///
  /// - Parameters:
  ///   - changes: The changes, notebooks before the notes in them.
  ///   - device: The pushing device's id.
  /// - Returns: What the server did with each change.
  /// - Throws: ``PostgresError``; nothing was accepted then.
  public func push(_ changes: [OutgoingChange], device: String) throws -> [PushOutcome] {
    guard !changes.isEmpty else { return [] }
    return try connection.inTransaction { try pushInTransaction(changes, device: device) }
  }

  private func pushInTransaction(
    _ changes: [OutgoingChange], device: String
  ) throws -> [PushOutcome] {
    // The account's own lock: pushes of one account take turns; other accounts' do not wait.
    let channel = try connection.execute(Self.accountLock).singleValue
    guard let channel else {
      throw PostgresError("the role is no longer an account on this sync server")
    }
    try connection.execute(
      "INSERT INTO notes_devices (device_id) VALUES ($1::uuid) ON CONFLICT DO NOTHING",
      [device])
    let registered = try connection.execute(
      "SELECT 1 FROM notes_devices WHERE device_id = $1::uuid", [device])
    guard !registered.rows.isEmpty else {
      throw PostgresError(
        "this device's id \(device) is registered to another account on the sync server:"
          + " set up sync again (`notes sync setup URL`) to start over with a new device id")
    }
    var outcomes: [PushOutcome] = []
    var head: Int64 = 0
    for change in changes {
      let outcome = try push(change, device: device)
      if case .accepted(let seq) = outcome { head = max(head, seq) }
      outcomes.append(outcome)
    }
    if head > 0 {
      try connection.execute("SELECT pg_notify($1, $2)", [channel, "\(head) \(device)"])
    }
    return outcomes
  }

  private func push(_ change: OutgoingChange, device: String) throws -> PushOutcome {
    let fields = change.record.fields
    let parameters: [String?] = [
      change.changeID, change.record.kind.rawValue, change.record.uid, device,
      String(change.baseSeq), fields == nil ? "true" : "false", fields?.title, fields?.body,
      fields?.notebook, (fields?.isPinned ?? false) ? "true" : "false",
      fields.map { "\($0.created)" }, fields.map { "\($0.modified)" },
    ]
    let stored = try connection.executePrepared("notes_push", Self.pushStatement, parameters)
      .singleValue
    if let stored, let seq = Int64(stored) { return .accepted(seq: seq) }
    let earlier = try connection.execute(
      "SELECT seq FROM notes_changes WHERE change_id = $1::uuid", [change.changeID]
    ).singleValue
    if let earlier, let seq = Int64(earlier) { return .accepted(seq: seq) }
    return .refused
  }

  /// Locks the pushing account's row for the transaction and returns its channel: pushes
  /// of one account take turns, other accounts' never wait (row-level security hides
  /// their rows, so no account can take another's lock).
  static let accountLock =
    "UPDATE notes_accounts SET last_push = now() WHERE account = current_user RETURNING channel"

  /// Inserts the change if its base is the entity's current version, and makes it the
  /// entity's version; returns the new sequence number, or no row.
  ///
  /// The entity's current version is found by its id alone, inside a subquery the planner
  /// may not merge (`OFFSET 0`), then its kind is checked: the primary key (account, entity
  /// id, kind) is the only index that narrows that search to a row. Given the kind too, on
  /// tables not analysed yet (all through a first push, one transaction of a whole
  /// library) the planner judged an index of the kind's versions as cheap, and each change
  /// read every version of its kind: a first push grew quadratic.
  static let pushStatement = """
    WITH current AS (
      SELECT seq FROM (SELECT entity, seq FROM notes_entities WHERE entity_id = $3 OFFSET 0) found
      WHERE entity = $2
    ), inserted AS (
      INSERT INTO notes_changes (change_id, device_id, entity, entity_id, payload)
      SELECT $1::uuid, $4::uuid, $2, $3,
        CASE WHEN $6::boolean THEN NULL ELSE jsonb_build_object(
          'title', $7::text, 'body', $8::text, 'notebook', $9::text, 'pinned', $10::boolean,
          'created', $11::float8, 'modified', $12::float8) END
      WHERE coalesce((SELECT seq FROM current), 0) = $5::bigint
      ON CONFLICT (account, change_id) DO NOTHING
      RETURNING account, seq, entity, entity_id, payload
    )
    INSERT INTO notes_entities (account, entity, entity_id, seq, payload)
    SELECT account, entity, entity_id, seq, payload FROM inserted
    ON CONFLICT (account, entity, entity_id)
      DO UPDATE SET seq = excluded.seq, payload = excluded.payload
    RETURNING seq
    """
}
