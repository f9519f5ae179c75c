// SyncServer+Push: a device's changes sent to the server in batches, each batch one
// set-based statement, all of a push in one transaction under its account's lock.

public import NotesCore

extension SyncServer {
  /// Pushes `changes` in one transaction; one outcome per change, in order.
  ///
  /// The changes go in batches of at most ``PushBatch/changeLimit`` changes and
  /// ``PushBatch/byteLimit`` bytes of text (a larger change goes alone), one statement
  /// each, all sent at once with the transaction around them: the server runs the push
  /// from its lock to its commit without waiting for this device. `progress` is called
  /// with each batch's answer once the push is committed.
  ///
  /// A change the server's own checks refuse (an id that is not a lower-case UUID, an empty
  /// title, control characters: a subset of the app's rules, so only a bug sends one) is
  /// not dropped: the push fails with an error naming it, and nothing of the push is
  /// applied.
  ///
  /// ## Guarantees
  ///
  /// Both ways to push, this one and ``push(device:_:)``, keep the guarantees of
  /// ``SyncServer`` (compare-and-set, idempotent, an account's pushes in order, its own
  /// channel signalled), and:
  ///
  /// - One transaction per push: the account's row is locked first, in a statement of its
  ///   own, so every later statement of the push reads what every earlier push of the account
  ///   committed (under READ COMMITTED a statement's snapshot is taken when it starts; a
  ///   statement that both waited for the lock and compared versions would compare them
  ///   with what it saw before the wait).
  /// - A push whose changes are all known holds the lock for no round trip to the device: the
  ///   whole transaction, from BEGIN to COMMIT with its signal, goes in one pipeline, and the
  ///   server runs it without waiting for the device in between. An account's pushes take
  ///   turns under its lock, so a lock held while a device (a busy one, or one far away)
  ///   answered would make every other device of the account wait that long too; many
  ///   devices of one account would queue past their statements' bounds.
  /// - Each batch (`PushBatch`) is one prepared statement: the changes travel as arrays, and
  ///   the server compares, inserts and answers for all of them at once. Sequence numbers
  ///   are drawn in the batch's order, batches are sent in the push's order, so the changes
  ///   of a push are numbered in the order given (notebooks before the notes in them).
  /// - A push that accepted something (now or by an earlier try) signals once, at its end.
  /// - A push is either every change known first (`push(_:device:progress:)`) or batches sent
  ///   as they are made (`push(device:_:)`, for a push whose changes are still being
  ///   collected): one transaction either way.
  /// - Bad input changes nothing: a push naming one entity or one change id twice is refused
  ///   (before anything is sent when every change is known first, at the batch that repeats
  ///   one otherwise, rolled back); a change the server's checks refuse (`notes_version_ok`)
  ///   fails its statement, so the whole push is rolled back, and the error names the change.
  ///
  /// - Parameters:
  ///   - changes: The changes, notebooks before the notes in them; each entity and each
  ///     change id at most once.
  ///   - device: The pushing device's id.
  ///   - progress: Called with the number of changes the server has answered for so far,
  ///     after each batch, once the push is committed; an error it throws is thrown at once
  ///     (the push stays committed: ask ``accepted(_:)`` for the outcomes, as after a lost
  ///     acknowledgement).
  /// - Returns: What the server did with each change.
  /// - Throws: ``PostgresError`` (nothing was accepted then, unless the connection was lost
  ///   after the push was sent: ask ``accepted(_:)``), or what `progress` threw.
  public func push(
    _ changes: [OutgoingChange], device: String, progress: (Int) throws -> Void = { _ in }
  ) throws -> [PushOutcome] {
    guard !changes.isEmpty else { return [] }
    try Self.checkDistinct(changes)
    let batches = PushBatch.split(changes)
    var ids = ArrayLiteral()
    for change in changes { ids.append(quoting: change.changeID) }
    let signal = PushSignal(head: 0, sender: sender, device: device).afterHead
    let statements =
      [
        PipelinedStatement("BEGIN"), PipelinedStatement(Self.lockAndRegister, [device]),
        PipelinedStatement(Self.ownDevice, [device]),
      ]
      + batches.map { batch in
        PipelinedStatement.prepared(
          "notes_push_batch", PushBatch.statement, batch.parameters(device: device))
      }
      + [
        PipelinedStatement(Self.signalAccepted, [ids.literal, signal]),
        PipelinedStatement("COMMIT"),
      ]
    let answers = try connection.pipeline(statements)
    if let failed = answers.firstIndex(where: { (try? $0.get()) == nil }) {
      // A transaction that failed before its COMMIT is still open, failed; one whose COMMIT
      // failed has ended, and this changes nothing.
      _ = try? connection.execute("ROLLBACK")
      throw try failure(
        of: answers, at: failed, batches: batches, firstBatch: 3, device: device)
    }
    var outcomes: [PushOutcome] = []
    for (batch, answer) in zip(batches, answers.dropFirst(3)) {
      let rows = try answer.get().rows
      guard rows.count == batch.count else {
        throw PostgresError(
          "the server answered \(rows.count) of a batch of \(batch.count) changes")
      }
      outcomes += rows.map { row in
        row[0].flatMap { Int64($0) }.map { .accepted(seq: $0) } ?? .refused
      }
    }
    var answered = 0
    for batch in batches {
      answered += batch.count
      try progress(answered)
    }
    return outcomes
  }

  /// The error a pipelined push failed with at statement `index` of `answers` (the
  /// transaction rolled back): the account or device refused, or a change the server's
  /// checks refuse, named.
  private func failure(
    of answers: [Result<PostgresRows, PostgresError>], at index: Int, batches: [PushBatch],
    firstBatch: Int, device: String
  ) throws -> PostgresError {
    guard case .failure(let error) = answers[index] else {
      return PostgresError("the push failed")
    }
    if index == 2 {
      // The device check: the lock's statement found no account row, or the device is
      // another account's.
      let isAccount = (try? answers[1].get().rows.isEmpty) == false
      return isAccount
        ? PostgresError(
          "this device's id \(device) is registered to another account on the sync server:"
            + " set up sync again (`notes sync setup URL`) to start over with a new device id")
        : PostgresError("the role is no longer an account on this sync server")
    }
    if error.sqlState == "23514", batches.indices.contains(index - firstBatch) {
      return try refusal(in: batches[index - firstBatch], device: device) ?? error
    }
    return error
  }

  /// Pushes the batches `body` sends, in one transaction, as they come.
  ///
  /// `body` runs inside the transaction, after the account's lock is taken. Each call of its `send`
  /// is one statement: it returns what the server did with each change of the batch, in order, and
  /// is not committed until `body` returns. This is how a push whose changes are still being
  /// collected keeps the server busy meanwhile; ``push(_:device:progress:)`` is the same with every
  /// change known first.
  ///
  /// Bad input changes nothing: `send` refuses a batch naming an entity or a change id
  /// that an earlier batch of the push (or the batch itself) named, and a change the
  /// server's checks refuse fails its statement; either way the push fails, rolled back,
  /// with an error naming the change.
  ///
  /// - Parameters:
  ///   - device: The pushing device's id.
  ///   - body: Sends the push's batches in order through `send`; an error it throws ends
  ///     the push, rolled back.
  /// - Returns: What `body` returns, once the push is committed.
  /// - Throws: ``PostgresError``, or what `body` threw; nothing was accepted then.
  public func push<Result>(
    device: String, _ body: (_ send: (PushBatch) throws -> [PushOutcome]) throws -> Result
  ) throws -> Result {
    var failing: PushBatch?
    var seen = DistinctChanges()
    do {
      return try connection.inTransaction {
        let channel = try lockAccount(registering: device)
        var head: Int64 = 0
        let result = try body { batch in
          // The batch is checked against the push's earlier ones while the server runs it:
          // a repeat fails the push after the statement, which the rollback undoes.
          var repeated: (any Error)?
          failing = batch
          let rows = try connection.executePrepared(
            "notes_push_batch", PushBatch.statement, batch.parameters(device: device)
          ) {
            do { try seen.insert(batch.changes) } catch { repeated = error }
          }
          failing = nil
          if let repeated { throw repeated }
          guard rows.rows.count == batch.count else {
            throw PostgresError(
              "the server answered \(rows.rows.count) of a batch of \(batch.count) changes")
          }
          return rows.rows.map { row in
            guard let seq = row[0].flatMap({ Int64($0) }) else { return .refused }
            head = max(head, seq)
            return .accepted(seq: seq)
          }
        }
        if head > 0 {
          let signal = PushSignal(head: head, sender: sender, device: device)
          try connection.execute("SELECT pg_notify($1, $2)", [channel, signal.payload])
        }
        return result
      }
    } catch let error as PostgresError {
      guard error.sqlState == "23514", let failing else { throw error }
      throw try refusal(in: failing, device: device) ?? error
    }
  }

  /// Whether the device id `device` is registered to another account on this server.
  ///
  /// A library copied from a device that syncs with another account carries that
  /// device's id, and the server refuses its pushes; `notes sync setup` asks this first,
  /// and such a library starts over as a new device. Registers nothing.
  ///
  /// - Throws: ``PostgresError`` if the server cannot be asked.
  public func isRegisteredToAnotherAccount(device: String) throws -> Bool {
    // The insert conflicts with a device of any account (the key is the id), but a device
    // of another account is not visible to this one (row-level security); rolled back.
    try connection.execute("BEGIN")
    defer { _ = try? connection.execute("ROLLBACK") }
    let answer = try connection.execute(
      """
      WITH registered AS (
        INSERT INTO notes_devices (device_id) VALUES ($1::uuid)
        ON CONFLICT DO NOTHING RETURNING device_id
      )
      SELECT NOT EXISTS (SELECT FROM registered)
        AND NOT EXISTS (SELECT FROM notes_devices WHERE device_id = $1::uuid)
      """, [device])
    return answer.singleValue == "t"
  }

  /// Locks the account's row for the transaction and registers `device` to the account if
  /// it is new; returns the account's channel.
  ///
  /// - Throws: ``PostgresError`` if the role is no longer an account, or the device id is
  ///   registered to another account.
  private func lockAccount(registering device: String) throws -> String {
    let row = try connection.execute(Self.lockAndRegister, [device]).rows.first
    guard let row, let channel = row[0] else {
      throw PostgresError("the role is no longer an account on this sync server")
    }
    if row[1] == "t" { return channel }
    // The statement's snapshot is from before it waited for the lock: a first push of the
    // same device by another connection, committed meanwhile, shows only to a new one.
    let registered = try connection.execute(
      "SELECT 1 FROM notes_devices WHERE device_id = $1::uuid", [device])
    guard registered.rows.isEmpty else { return channel }
    throw PostgresError(
      "this device's id \(device) is registered to another account on the sync server:"
        + " set up sync again (`notes sync setup URL`) to start over with a new device id")
  }

  /// Refuses a push that names an entity or a change id twice: the server would apply one
  /// of the two and report both.
  private static func checkDistinct(_ changes: [OutgoingChange]) throws {
    var seen = DistinctChanges()
    try seen.insert(changes[...])
  }

  /// The entities and change ids a push has named so far.
  private struct DistinctChanges {
    private struct Entity: Hashable {
      var kind: SyncEntityKind
      var uid: String
    }
    private var entities = Set<Entity>()
    private var ids = Set<String>()

    /// Adds `changes`, or throws naming the first entity or change id named before.
    mutating func insert(_ changes: ArraySlice<OutgoingChange>) throws {
      for change in changes {
        let record = change.record
        guard entities.insert(Entity(kind: record.kind, uid: record.uid)).inserted else {
          throw PostgresError(
            "a push holds the \(record.kind.rawValue) \(record.uid) twice: nothing of it was"
              + " applied")
        }
        guard ids.insert(change.changeID).inserted else {
          throw PostgresError(
            "a push holds the change \(change.changeID) twice: nothing of it was applied")
        }
      }
    }
  }

  /// The first change of `batch` that the server's checks refuse, as an error naming it,
  /// or `nil` if the server finds none (the statement failed another check).
  private func refusal(in batch: PushBatch, device: String) throws -> PostgresError? {
    let rows = try connection.execute(PushBatch.checkStatement, batch.parameters(device: device))
    guard let index = rows.rows.first?[0].flatMap({ Int($0) }), index >= 1,
      index <= batch.count
    else { return nil }
    // The statement counts from 1; the batch is a slice of the whole push.
    let record = batch.changes.dropFirst(index - 1).first!.record
    return PostgresError(
      "the server refuses the \(record.kind.rawValue) \(record.uid): its id or text breaks the"
        + " server's checks (a lower-case UUID, a title not empty, no control characters);"
        + " nothing of this push was applied", sqlState: "23514")
  }

  /// Locks the pushing account's row for the transaction and returns its channel: pushes
  /// of one account take turns, other accounts' never wait (row-level security hides
  /// their rows, so no account can take another's lock).
  static let accountLock =
    "UPDATE notes_accounts SET last_push = now() WHERE account = current_user RETURNING channel"

  /// Fails, and its transaction with it, unless the account has its row and the device `$1`.
  ///
  /// A statement after the lock sees the lock's own registration, or one another
  /// connection committed while the lock was awaited. The text cast to a number fails
  /// only when it is not `1`.
  static let ownDevice = """
    SELECT (CASE WHEN EXISTS (SELECT FROM notes_accounts WHERE account = current_user)
      AND EXISTS (SELECT FROM notes_devices WHERE device_id = $1::uuid)
      THEN '1' ELSE 'this device is not the account''s' END)::int
    """

  /// Signals on the account's channel if a change of `$1` (change ids) is on the server.
  ///
  /// The payload is the highest number of those, then `$2` (the rest of a `PushSignal`'s
  /// payload). Each change id is looked up through the account's unique index on it.
  static let signalAccepted = """
    SELECT pg_notify(a.channel, accepted.head || $2)
    FROM notes_accounts a, (
      SELECT max(found.seq) AS head FROM unnest($1::uuid[]) AS ids(change_id)
        CROSS JOIN LATERAL (
          SELECT c.seq FROM notes_changes c WHERE c.change_id = ids.change_id
        ) found
    ) accepted
    WHERE a.account = current_user AND accepted.head IS NOT NULL
    """

  /// ``accountLock``, then registers the device `$1` to the account unless a device of
  /// that id exists; returns the channel and whether the device is the account's, as this
  /// statement's snapshot shows it.
  static let lockAndRegister = """
    WITH locked AS (\(accountLock)), registered AS (
      INSERT INTO notes_devices (device_id) SELECT $1::uuid FROM locked
      ON CONFLICT DO NOTHING RETURNING device_id
    )
    SELECT channel, EXISTS (SELECT FROM registered)
      OR EXISTS (SELECT FROM notes_devices WHERE device_id = $1::uuid)
    FROM locked
    """
}
