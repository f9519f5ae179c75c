// LibrarySyncStore+Versions: reading and writing the versions sync compares — an entity's
// row in the library, its ancestor in `sync_base`, its pushed version in `sync_pending`.
// Every helper here runs inside the caller's transaction; none opens one.

internal import Foundation
internal import NotesCore

extension LibrarySyncStore {
  /// A version with the server sequence number it had.
  struct Versioned {
    var seq: Int64
    var fields: SyncFields?
  }

  /// Every pending entity, with the change already made of it, if any.
  func pendingEntities() throws(NotesStorageError) -> [(
    String, SyncEntityKind, OutgoingChange?
  )] {
    try connection.withStatement(
      """
      SELECT uid, entity, change_id, base_seq, \(Self.versionSelect) FROM sync_pending
      ORDER BY rowid
      """
    ) { statement throws(NotesStorageError) in
      var entities: [(String, SyncEntityKind, OutgoingChange?)] = []
      while try statement.step() {
        let uid = statement.string(at: 0)
        guard let kind = SyncEntityKind(rawValue: statement.string(at: 1)) else { continue }
        var change: OutgoingChange?
        if !statement.isNull(at: 2) {
          change = OutgoingChange(
            changeID: statement.string(at: 2), baseSeq: statement.int64(at: 3),
            record: SyncRecord(kind: kind, uid: uid, fields: Self.version(at: statement, from: 4)))
        }
        entities.append((uid, kind, change))
      }
      return entities
    }
  }

  /// Stores the version a change pushes, under its id.
  func storeSnapshot(_ change: OutgoingChange) throws(NotesStorageError) {
    try connection.withStatement(
      """
      UPDATE sync_pending SET change_id = ?2, base_seq = ?3, \(Self.versionAssign(from: 4))
      WHERE uid = ?1
      """
    ) { statement throws(NotesStorageError) in
      try statement.bind(change.record.uid, at: 1)
      try statement.bind(change.changeID, at: 2)
      try statement.bind(change.baseSeq, at: 3)
      try Self.bind(change.record.fields, to: statement, from: 4)
      try statement.step()
    }
  }

  /// The ancestor of `uid`: the last version the server accepted that this library knows.
  func baseVersion(_ uid: String) throws(NotesStorageError) -> Versioned? {
    try connection.withStatement(
      "SELECT seq, \(Self.versionSelect) FROM sync_base WHERE uid = ?1"
    ) { statement throws(NotesStorageError) in
      try statement.bind(uid, at: 1)
      guard try statement.step() else { return nil }
      return Versioned(seq: statement.int64(at: 0), fields: Self.version(at: statement, from: 1))
    }
  }

  /// Makes `record` at `seq` the ancestor of its entity.
  func setBase(_ record: SyncRecord, seq: Int64) throws(NotesStorageError) {
    try connection.withStatement(
      """
      INSERT OR REPLACE INTO sync_base(uid, entity, seq, deleted, notebook_uid, title, body,
        pinned, created, modified)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
      """
    ) { statement throws(NotesStorageError) in
      try statement.bind(record.uid, at: 1)
      try statement.bind(record.kind.rawValue, at: 2)
      try statement.bind(seq, at: 3)
      try Self.bind(record.fields, to: statement, from: 4)
      try statement.step()
    }
  }

  /// After the ancestor changed: the entity stays pending (to be made again) only if its
  /// row differs from the ancestor.
  func settlePending(
    _ kind: SyncEntityKind, uid: String, base: SyncFields?
  ) throws(NotesStorageError) {
    if try localFields(kind, uid: uid)?.fields == base {
      try run("DELETE FROM sync_pending WHERE uid = ?1", uid)
    } else {
      try run(
        "INSERT OR REPLACE INTO sync_pending(uid, entity) VALUES (?1, ?2)", uid, kind.rawValue)
    }
  }

  /// The entity's row in the library: its local id and fields, or `nil` if it has none.
  func localFields(
    _ kind: SyncEntityKind, uid: String
  ) throws(NotesStorageError) -> (id: Int64, fields: SyncFields)? {
    switch kind {
    case .notebook:
      return try connection.withStatement("SELECT id, title, created FROM notebooks WHERE uid = ?1")
      {
        statement throws(NotesStorageError) in
        try statement.bind(uid, at: 1)
        guard try statement.step() else { return nil }
        return (
          statement.int64(at: 0),
          SyncFields(title: statement.string(at: 1), created: statement.double(at: 2))
        )
      }
    case .note:
      return try connection.withStatement(
        """
        SELECT notes.id, notes.title, notes.body, notebooks.uid, notes.pinned, notes.created,
          notes.modified
        FROM notes JOIN notebooks ON notebooks.id = notes.notebook_id WHERE notes.uid = ?1
        """
      ) { statement throws(NotesStorageError) in
        try statement.bind(uid, at: 1)
        guard try statement.step() else { return nil }
        return (
          statement.int64(at: 0),
          SyncFields(
            title: statement.string(at: 1), body: statement.string(at: 2),
            notebook: statement.string(at: 3), isPinned: statement.int64(at: 4) != 0,
            created: statement.double(at: 5), modified: statement.double(at: 6))
        )
      }
    }
  }

  // MARK: The version columns

  static let versionSelect = "deleted, notebook_uid, title, body, pinned, created, modified"

  static func versionAssign(from first: Int32) -> String {
    ["deleted", "notebook_uid", "title", "body", "pinned", "created", "modified"]
      .enumerated().map { "\($0.element) = ?\(Int(first) + $0.offset)" }
      .joined(separator: ", ")
  }

  /// Reads the seven version columns starting at `first`.
  ///
  /// ## Guarantees
  ///
  /// - A version is read the same way from each of the three places (the columns of
  ///   `SyncBookkeeping`), so two versions compare equal exactly when their fields do.
  static func version(at statement: Statement, from first: Int32) -> SyncFields? {
    guard statement.int64(at: first) == 0 else { return nil }
    return SyncFields(
      title: statement.string(at: first + 2), body: statement.string(at: first + 3),
      notebook: statement.isNull(at: first + 1) ? nil : statement.string(at: first + 1),
      isPinned: statement.int64(at: first + 4) != 0,
      created: statement.double(at: first + 5), modified: statement.double(at: first + 6))
  }

  /// Binds the seven version columns starting at `first`.
  static func bind(
    _ fields: SyncFields?, to statement: Statement, from first: Int32
  ) throws(NotesStorageError) {
    try statement.bind(fields == nil, at: first)
    try statement.bind(fields?.notebook, at: first + 1)
    try statement.bind(fields?.title, at: first + 2)
    try statement.bind(fields?.body, at: first + 3)
    try statement.bind(fields?.isPinned ?? false, at: first + 4)
    try statement.bind(fields?.created, at: first + 5)
    try statement.bind(fields?.modified, at: first + 6)
  }
}
