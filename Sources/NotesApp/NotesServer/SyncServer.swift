internal import Foundation
public import NotesCore

/// One device's connection to the sync server.
///
/// The sync protocol, as one device speaks it to the PostgreSQL server.
///
/// ```swift
/// let server = try SyncServer(url: "postgresql:///notes")
/// let outcomes = try server.push(changes, device: store.deviceID)
/// let page = try server.pull(after: cursor, limit: 1_000)
/// ```
///
/// ## Guarantees
///
/// - Push is compare-and-set per entity: a change is accepted only if it was made from the
///   version the server holds (`baseSeq` equals the entity's sequence number, 0 for a new
///   entity); otherwise it is refused and the device pulls, merges and pushes again. The
///   server never merges and never overwrites a version the device has not seen.
/// - Push is idempotent: a change whose id the server already accepted is acknowledged
///   with the sequence number it got the first time and applied no second time, so a retry
///   after a lost acknowledgement is safe.
/// - Accounts: a `SyncServer` acts as one account (`ServerAccount`, checked on connecting:
///   never a superuser or the tables' owner), and row-level security keeps every statement
///   to that account's rows. A device id belongs to the account that registered it.
/// - Order: a push locks its account's row in `notes_accounts` for its transaction, so an
///   account's sequence numbers are committed in increasing order (a device that has pulled
///   up to N has seen every change of its account numbered N or less, now and later), and
///   pushes of different accounts never wait for each other. No other account can take
///   that lock: row-level security hides the row.
/// - A push that accepted something signals on its account's channel (`pg_notify`) with
///   the new head, the connection's sender and the pushing device's id (`PushSignal`) —
///   ids of its own account only, never content — delivered when the push commits.
/// - Numbers come from the log: the head is the largest number of the account's log, kept
///   by the server as it stores each change, and no two versions of one kind share a
///   number; a version numbered past the head is never pulled, and `logHead()` counts it.
/// - Pull returns each entity's latest version newer than a cursor (deletions as `nil`
///   fields), in sequence order, with the change id that made it, each checked: a version
///   that is malformed or breaks the app's rules comes back refused, with its reasons
///   (`PulledVersion`); reading a page never fails because of what a row holds.
/// - Blocking: every call waits on the network, within the connection's `NetworkBounds`
///   (a silent server fails the call `isUnavailable` and closes the connection). Run a
///   `SyncServer` on one thread or serial queue of its own, never on the main actor or the
///   cooperative pool.
public final class SyncServer {
  /// What the server did with one pushed change.
  public enum PushOutcome: Equatable, Sendable {
    /// Accepted (now or by an earlier try) with this sequence number.
    case accepted(seq: Int64)
    /// Refused: the server holds a newer version of the entity than the change was made from.
    case refused
  }

  let connection: PostgresConnection
  /// The account this connection acts as.
  public let account: ServerAccount
  /// The sender its pushes' signals name (``PushSignal/sender``), so the program that
  /// pushed can tell its own signals from those of other copies of the library.
  public let sender: String

  /// Connects, checks that the server's schema is this program's, and that the role is an
  /// account a device may sync as.
  ///
  /// - Parameters:
  ///   - url: A libpq connection string.
  ///   - bounds: How long to wait on the network at each step.
  ///   - sender: The sender its pushes' signals name: an id without spaces (the signal's
  ///     fields are separated by spaces); a new random one by default.
  /// - Throws: ``PostgresError`` if the server cannot be reached, has no notes schema
  ///   (`notes server init` creates it), has another version, or the role is not an
  ///   account (a superuser, the tables' owner, or a role the operator did not add).
  public convenience init(
    url: String, bounds: NetworkBounds = .standard, sender: String = PushSignal.newSender()
  ) throws {
    try self.init(settings: ConnectionSettings(url), bounds: bounds, sender: sender)
  }

  /// Connects with `settings`, and checks the schema and the account as
  /// ``init(url:bounds:sender:)`` does.
  ///
  /// - Parameters:
  ///   - settings: The connection's settings.
  ///   - bounds: How long to wait on the network at each step.
  ///   - sender: The sender its pushes' signals name: an id without spaces (the signal's
  ///     fields are separated by spaces); a new random one by default.
  /// - Throws: What ``init(url:bounds:sender:)`` throws.
  public init(
    settings: ConnectionSettings, bounds: NetworkBounds = .standard,
    sender: String = PushSignal.newSender()
  ) throws {
    self.sender = sender
    connection = try PostgresConnection(settings: settings, bounds: bounds)
    // Who first (from the catalogs, which every role may read), then the schema (which
    // only accounts may read), then the account's own row.
    try ServerAccount.checkRole(on: connection)
    let found = try Self.schemaVersion(on: connection)
    guard let found, let version = Int(found) else {
      throw PostgresError("the server's notes_schema table holds no version")
    }
    if version != ServerSchema.version {
      throw PostgresError(
        version > ServerSchema.version
          ? "the server's schema is version \(version), newer than this program's"
            + " (\(ServerSchema.version)): update notes before syncing with it"
          : "the server's schema is version \(version), older than this program's"
            + " (\(ServerSchema.version)): its operator runs `notes server init URL` to"
            + " upgrade it")
    }
    account = try ServerAccount(checking: connection)
  }

  /// The server's schema version, as `notes_schema` holds it.
  ///
  /// - Throws: ``PostgresError`` saying how to create the tables when there are none.
  static func schemaVersion(on connection: PostgresConnection) throws -> String? {
    do {
      return try connection.execute("SELECT version FROM notes_schema").singleValue
    } catch {
      guard error.sqlState == "42P01" else { throw error }
      throw PostgresError(
        "the server has no notes tables yet: its operator runs `notes server init URL` first")
    }
  }

  /// Closes the connection.
  public func close() { connection.close() }

  /// Stores the password of `settings` in libpq's password file for the server this
  /// connection reached (see ``PasswordFile``).
  ///
  /// - Parameter settings: The settings this server was connected with.
  /// - Returns: The password file's path, or `nil` when the settings hold no password.
  /// - Throws: ``PostgresError`` when the file cannot be written.
  public func storePassword(of settings: ConnectionSettings) throws -> String? {
    guard let password = settings.password else { return nil }
    return try PasswordFile.store(password, for: connection, settings: settings)
  }

  /// Where an account's log ends, and what the server holds past it.
  public struct LogHead: Equatable, Sendable {
    /// The largest sequence number of the account's log: what a pull reads up to.
    public var seq: Int64
    /// Versions numbered past ``seq``, which no change of the log made (a hand edit or a
    /// bad restore on the server): a pull leaves them out, and a device reports them.
    public var versionsPastHead: Int

    /// A head with what lies past it.
    public init(seq: Int64, versionsPastHead: Int = 0) {
      self.seq = seq
      self.versionsPastHead = versionsPastHead
    }
  }

  /// The largest sequence number of the account's log.
  ///
  /// The server keeps it beside the account (`notes_accounts.log_head`), written only as
  /// changes are stored: never from a version's own number.
  public func head() throws -> Int64 { try logHead().seq }

  /// The end of the account's log and the versions numbered past it, read together.
  ///
  /// One statement, so one snapshot: a push committed while it runs moves neither.
  public func logHead() throws -> LogHead {
    let row = try connection.execute(
      // Each count is a range of its kind's index, normally empty.
      """
      WITH log AS (\(Self.selectLogHead))
      SELECT log.head,
        (SELECT count(*) FROM notes_entities WHERE entity = 'note' AND seq > log.head)
        + (SELECT count(*) FROM notes_entities WHERE entity = 'notebook' AND seq > log.head)
      FROM log
      """
    ).rows.first
    guard let row else { return LogHead(seq: 0) }
    return LogHead(
      seq: row[0].flatMap { Int64($0) } ?? 0, versionsPastHead: row[1].flatMap { Int($0) } ?? 0)
  }

  /// How many entities changed after `cursor`, up to the log's head.
  public func count(after cursor: Int64) throws -> Int {
    Int(
      try connection.execute(
        // One count per kind, each a range of that kind's index (no index has both).
        """
        WITH log AS (\(Self.selectLogHead))
        SELECT (SELECT count(*) FROM notes_entities, log
            WHERE entity = 'note' AND seq > $1::bigint AND seq <= log.head)
          + (SELECT count(*) FROM notes_entities, log
            WHERE entity = 'notebook' AND seq > $1::bigint AND seq <= log.head)
        """, [String(cursor)]
      ).singleValue ?? "0") ?? 0
  }

  /// The account's head (`head`): the head the server keeps, once the log is seen to hold a
  /// change of that number (its primary key, one lookup); otherwise the log's largest.
  ///
  /// The kept head can only be too high if the tables were restored, or the log emptied,
  /// behind the server's back: a head past the log's end would move each device's cursor
  /// past numbers its next changes take, and they would never arrive.
  static let selectLogHead = """
    SELECT CASE
        WHEN a.log_head = 0 OR EXISTS (SELECT FROM notes_changes c WHERE c.seq = a.log_head)
        THEN a.log_head
        ELSE (SELECT coalesce(max(seq), 0) FROM notes_changes) END AS head
    FROM notes_accounts a
    """

  /// The latest version of each entity of `kind` changed after `cursor`, up to `head`, in
  /// sequence order.
  ///
  /// Bounding every query of one page by the same `head` (read once, before) is what
  /// keeps a page consistent: a push committed between two queries is past `head` and
  /// comes with the next page, never half of it with this one.
  ///
  /// - Parameters:
  ///   - kind: Notebooks or notes.
  ///   - cursor: The sequence number the device has pulled up to.
  ///   - head: The largest sequence number to return (``head()``, read before).
  ///   - limit: At most this many.
  /// - Returns: The versions, oldest first, each accepted or refused with its reasons.
  /// - Throws: ``PostgresError`` if the server cannot be read.
  public func pull(
    _ kind: SyncEntityKind, after cursor: Int64, upTo head: Int64, limit: Int
  ) throws -> [PulledVersion] {
    // Prepared once per kind, the kind written in the statement (one of two fixed words),
    // so even a generic plan reads that kind's own index.
    let rows = try connection.executePrepared(
      "notes_pull_\(kind.rawValue)",
      Self.selectLatest(
        where: "entity = '\(kind.rawValue)' AND seq > $1::bigint AND seq <= $2::bigint",
        limit: "$3::bigint"),
      [String(cursor), String(head), String(limit)])
    return Self.versions(kind, from: rows)
  }

  /// The server's current version of each entity of `kind` in `uids` (those it has).
  ///
  /// - Parameters:
  ///   - kind: Notebooks or notes.
  ///   - uids: The entities.
  /// - Returns: Their versions, in sequence order, each accepted or refused.
  /// - Throws: ``PostgresError`` if the server cannot be read.
  public func versions(_ kind: SyncEntityKind, of uids: [String]) throws -> [PulledVersion] {
    guard !uids.isEmpty else { return [] }
    let rows = try connection.execute(
      Self.selectVersionsOfEntities, [kind.rawValue, Self.textArray(uids)])
    return Self.versions(kind, from: rows)
  }

  /// The versions of one entity the server accepted before `seq`, newest first: where a
  /// device looks for the last valid version when the latest is refused.
  ///
  /// - Parameters:
  ///   - kind: Notebook or note.
  ///   - uid: The entity.
  ///   - seq: Only versions numbered below this.
  ///   - limit: At most this many.
  /// - Returns: The versions, newest first, each accepted or refused.
  /// - Throws: ``PostgresError`` if the server cannot be read.
  public func history(
    _ kind: SyncEntityKind, of uid: String, before seq: Int64, limit: Int
  ) throws -> [PulledVersion] {
    let rows = try connection.execute(
      Self.selectHistory
        + """
         WHERE c.entity = $1 AND c.entity_id = $2 AND c.seq < $3::bigint
        ORDER BY c.seq DESC LIMIT $4::bigint
        """, [kind.rawValue, uid, String(seq), String(limit)])
    return Self.versions(kind, from: rows)
  }

  /// The sequence numbers the server gave the changes among `changeIDs` it accepted.
  ///
  /// - Parameter changeIDs: Change ids whose outcome a device does not know (a push whose
  ///   acknowledgement was lost).
  /// - Returns: The accepted ones, by change id.
  /// - Throws: ``PostgresError`` if the server cannot be read.
  public func accepted(_ changeIDs: [String]) throws -> [String: Int64] {
    guard !changeIDs.isEmpty else { return [:] }
    let rows = try connection.execute(
      "SELECT change_id, seq FROM notes_changes WHERE change_id = ANY($1::uuid[])",
      [Self.textArray(changeIDs)])
    var accepted: [String: Int64] = [:]
    for row in rows.rows {
      if let id = row[0], let seq = row[1].flatMap({ Int64($0) }) { accepted[id] = seq }
    }
    return accepted
  }

  /// A PostgreSQL array literal of `values`, each quoted.
  static func textArray(_ values: [String]) -> String {
    var literal = ArrayLiteral()
    for value in values { literal.append(quoting: value) }
    return literal.literal
  }
}
