public import NotesCore

extension SyncServer {
  /// The changes one statement of a push carries, ready to send.
  ///
  /// They are held as the arrays the server unnests, with the statement that compares and sets them
  /// all at once.
  ///
  /// Make batches with ``split(_:)``, on any thread, and send them in order through
  /// ``SyncServer/push(device:_:)``.
  ///
  /// ## Guarantees
  ///
  /// - A batch holds at most `changeLimit` changes and `byteLimit` bytes of titles and bodies,
  ///   except a single change larger than that, which goes alone; `split` keeps the push's
  ///   order.
  /// - The statement answers one row per change, in the batch's order: the sequence number
  ///   the change was accepted with (now, or by an earlier push of the same change id), or
  ///   NULL when the entity's version on the server is not the one the change was made from.
  /// - A batch's arrays are written when it is made, so whoever makes it (the thread collecting
  ///   a push's changes) pays for them, not the connection sending it.
  /// - Sequence numbers are drawn in the batch's order (the inserted rows are sorted before
  ///   the sequence's default is computed for them).
  /// - Each entity's current version and each change id are looked up one by one through the
  ///   primary key and the (account, change_id) index, inside LATERAL subqueries that must
  ///   run per change: the plan does not depend on the server's statistics, which for
  ///   tables a first push is filling are none (see `ServerSchema+Accounts`).
  public struct PushBatch: Sendable {
    /// The most changes in one batch.
    public static let changeLimit = 1_000
    /// The most bytes of titles and bodies in one batch, unless one change alone has more.
    public static let byteLimit = 8 << 20

    /// The changes, in the push's order.
    public let changes: ArraySlice<OutgoingChange>
    /// The statement's first eleven parameters: one array per column.
    private let arrays: [String]

    /// How many changes the batch holds.
    public var count: Int { changes.count }

    private init(changes: ArraySlice<OutgoingChange>) {
      self.changes = changes
      self.arrays = Self.arrays(of: changes)
    }

    /// `changes` cut into batches, in order.
    public static func split(_ changes: [OutgoingChange]) -> [PushBatch] {
      var batches: [PushBatch] = []
      var start = changes.startIndex
      var bytes = 0
      for index in changes.indices {
        let fields = changes[index].record.fields
        let size = (fields?.title.utf8.count ?? 0) + (fields?.body.utf8.count ?? 0)
        if index > start, index - start == changeLimit || bytes + size > byteLimit {
          batches.append(PushBatch(changes: changes[start..<index]))
          start = index
          bytes = 0
        }
        bytes += size
      }
      if start < changes.endIndex {
        batches.append(PushBatch(changes: changes[start...]))
      }
      return batches
    }

    /// The statement's parameters: eleven arrays, one element per change, then the
    /// device's id.
    func parameters(device: String) -> [String?] { arrays + [device] }

    /// The eleven arrays of `changes`' columns, as PostgreSQL array literals.
    private static func arrays(of changes: ArraySlice<OutgoingChange>) -> [String] {
      var ids = ArrayLiteral()
      var kinds = ArrayLiteral()
      var uids = ArrayLiteral()
      var bases = ArrayLiteral()
      var deleted = ArrayLiteral()
      var titles = ArrayLiteral()
      var bodies = ArrayLiteral()
      var notebooks = ArrayLiteral()
      var pinned = ArrayLiteral()
      var created = ArrayLiteral()
      var modified = ArrayLiteral()
      for change in changes {
        let fields = change.record.fields
        ids.append(quoting: change.changeID)
        kinds.append(quoting: change.record.kind.rawValue)
        uids.append(quoting: change.record.uid)
        bases.append(String(change.baseSeq))
        deleted.append(fields == nil ? "t" : "f")
        titles.append(quoting: fields?.title)
        bodies.append(quoting: fields?.body)
        notebooks.append(quoting: fields?.notebook)
        pinned.append(fields.map { $0.isPinned ? "t" : "f" } ?? "NULL")
        created.append(fields.map { "\($0.created)" } ?? "NULL")
        modified.append(fields.map { "\($0.modified)" } ?? "NULL")
      }
      return [
        ids, kinds, uids, bases, deleted, titles, bodies, notebooks, pinned, created, modified,
      ].map(\.literal)
    }

    /// The batch as rows (`b`) with the payload each change stores; `$1` to `$11`.
    private static let rows = """
      unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::boolean[], $6::text[],
          $7::text[], $8::text[], $9::boolean[], $10::float8[], $11::float8[])
        WITH ORDINALITY AS b(change_id, entity, entity_id, base_seq, deleted, title, body,
          notebook, pinned, created, modified, ord),
        LATERAL (SELECT CASE WHEN b.deleted THEN NULL ELSE jsonb_build_object(
          'title', b.title, 'body', b.body, 'notebook', b.notebook, 'pinned', b.pinned,
          'created', b.created, 'modified', b.modified) END AS payload) p
      """

    /// Compares and sets every change of the batch (`$12`: the device); one row per change,
    /// in order: its sequence number, or NULL when refused.
    ///
    /// The accepted changes are inserted into `notes_changes`; the server's trigger then
    /// makes them their entities' current versions (`ServerSchema+StoredEntities`).
    ///
    /// `earlier` finds a change accepted before (a retry), `current` the entity's version
    /// now: its id alone inside a subquery the planner may not merge (`OFFSET 0`), then its
    /// kind, so that the primary key (account, entity id, kind) is the only index that
    /// narrows the search. Given the kind too, on tables not analysed yet, the planner
    /// judged an index of the kind's versions as cheap, and each change read every version
    /// of its kind: a first push grew quadratic.
    static let statement = """
      WITH batch AS MATERIALIZED (
        SELECT b.ord, b.change_id, b.entity, b.entity_id, b.base_seq, p.payload,
          earlier.seq AS earlier_seq, coalesce(current.seq, 0) AS current_seq
        FROM \(rows)
          LEFT JOIN LATERAL (
            SELECT c.seq FROM notes_changes c WHERE c.change_id = b.change_id
          ) earlier ON true
          LEFT JOIN LATERAL (
            SELECT found.seq FROM (
              SELECT e.entity, e.seq FROM notes_entities e WHERE e.entity_id = b.entity_id OFFSET 0
            ) found WHERE found.entity = b.entity
          ) current ON true
      ), inserted AS (
        INSERT INTO notes_changes (change_id, device_id, entity, entity_id, payload)
        SELECT change_id, $12::uuid, entity, entity_id, payload FROM batch
        WHERE earlier_seq IS NULL AND current_seq = base_seq
        ORDER BY ord
        RETURNING seq, change_id
      )
      SELECT coalesce(batch.earlier_seq, inserted.seq)
      FROM batch LEFT JOIN inserted USING (change_id)
      ORDER BY batch.ord
      """

    /// The position (from 1) of the batch's first change that the server's checks refuse
    /// (`$12` unused but typed, so the parameters are those of ``statement``).
    static let checkStatement = """
      SELECT b.ord FROM \(rows)
      WHERE NOT notes_version_ok(b.entity, b.entity_id, p.payload) AND $12::uuid IS NOT NULL
      ORDER BY b.ord LIMIT 1
      """
  }

  /// A PostgreSQL array literal, built element by element.
  struct ArrayLiteral {
    private var text = "{"
    private var isEmpty = true

    /// Appends an element written as it is (a number, `t`, `f`, or `NULL`).
    mutating func append(_ element: String) {
      if !isEmpty { text += "," }
      isEmpty = false
      text += element
    }

    /// Appends `value` quoted, its quotes and backslashes escaped; `nil` as NULL.
    mutating func append(quoting value: String?) {
      guard let value else {
        append("NULL")
        return
      }
      if !isEmpty { text += "," }
      isEmpty = false
      text += "\""
      if value.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
        for character in value.unicodeScalars {
          if character == "\"" || character == "\\" { text.unicodeScalars.append("\\") }
          text.unicodeScalars.append(character)
        }
      } else {
        text += value
      }
      text += "\""
    }

    /// The literal.
    var literal: String { text + "}" }
  }
}
