// LibrarySyncStore+KeptAside: the versions pulled from the server that broke the app's
// rules, kept aside with their reasons instead of applied.

public import Foundation
public import NotesCore

/// A version from the server that this library kept aside, and whether the user read it.
public struct KeptAsideVersion: Equatable, Sendable {
  /// The version and why it was refused.
  public var version: RefusedVersion
  /// When it was kept aside.
  public var keptAt: Date
  /// Whether the user acknowledged it (`notes sync acknowledge`).
  public var isAcknowledged: Bool
}

extension LibrarySyncStore {
  /// Every version kept aside, oldest first.
  ///
  /// - Returns: The versions with their reasons.
  /// - Throws: ``NotesStorageError`` if the library cannot be read.
  public func keptAside() throws(NotesStorageError) -> [KeptAsideVersion] {
    try connection.withStatement(
      """
      SELECT entity, uid, seq, change_id, reasons, created, acknowledged FROM sync_kept_aside
      ORDER BY created, seq
      """
    ) { statement throws(NotesStorageError) in
      var kept: [KeptAsideVersion] = []
      while try statement.step() {
        guard let kind = SyncEntityKind(rawValue: statement.string(at: 0)) else { continue }
        let version = RefusedVersion(
          kind: kind, uid: statement.string(at: 1), seq: statement.int64(at: 2),
          changeID: statement.string(at: 3),
          reasons: statement.string(at: 4).split(separator: "\n").map(String.init))
        kept.append(
          KeptAsideVersion(
            version: version,
            keptAt: Date(timeIntervalSinceReferenceDate: statement.double(at: 5)),
            isAcknowledged: statement.int64(at: 6) != 0))
      }
      return kept
    }
  }

  /// Whether this library knows of the notebook `uid`: it holds it, or the server ever sent
  /// it (deleted or not).
  ///
  /// A pulled note whose notebook is neither known here nor in its batch refers to a
  /// notebook the server never had.
  ///
  /// - Complexity: Two lookups by uid (both columns are indexed).
  public func knowsNotebook(_ uid: String) throws(NotesStorageError) -> Bool {
    try connection.withStatement(
      """
      SELECT EXISTS (SELECT 1 FROM notebooks WHERE uid = ?1)
        OR EXISTS (SELECT 1 FROM sync_base WHERE uid = ?1 AND entity = 'notebook')
      """
    ) { statement throws(NotesStorageError) in
      try statement.bind(uid, at: 1)
      return try statement.step() && statement.int64(at: 0) != 0
    }
  }

  /// Records `refused` and forgets what `applied` supersedes; in the caller's transaction.
  ///
  /// ## Guarantees
  ///
  /// - A refused version is recorded in the same transaction as the batch it came with and
  ///   the batch's cursor: a kill leaves both or neither.
  /// - One row per entity: a later refused version of it replaces the earlier one (unread
  ///   again), and a valid version newer than it removes it — the server holds valid data
  ///   for that entity again.
  /// - Only what identifies a version and why it was refused is kept, never its content.
  func keepAside(
    _ refused: [RefusedVersion], superseding applied: [PulledRecord]
  ) throws(NotesStorageError) {
    // Almost always nothing is kept aside: then a page of 1,000 versions costs one query
    // here, not 1,000 deletes.
    let anyKept = try connection.int64("SELECT EXISTS (SELECT 1 FROM sync_kept_aside)") ?? 0
    guard anyKept != 0 || !refused.isEmpty else { return }
    for item in applied where anyKept != 0 {
      try connection.withStatement(
        "DELETE FROM sync_kept_aside WHERE entity = ?1 AND uid = ?2 AND seq < ?3"
      ) { statement throws(NotesStorageError) in
        try statement.bind(item.record.kind.rawValue, at: 1)
        try statement.bind(item.record.uid, at: 2)
        try statement.bind(item.seq, at: 3)
        try statement.step()
      }
    }
    let now = Date().timeIntervalSinceReferenceDate
    for version in refused {
      try connection.withStatement(
        """
        INSERT INTO sync_kept_aside(entity, uid, seq, change_id, reasons, created)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        ON CONFLICT(entity, uid) DO UPDATE SET seq = excluded.seq,
          change_id = excluded.change_id, reasons = excluded.reasons,
          created = CASE WHEN seq = excluded.seq THEN created ELSE excluded.created END,
          acknowledged = CASE WHEN seq = excluded.seq THEN acknowledged ELSE 0 END
        WHERE excluded.seq >= seq
        """
      ) { statement throws(NotesStorageError) in
        try statement.bind(version.kind.rawValue, at: 1)
        try statement.bind(version.uid, at: 2)
        try statement.bind(version.seq, at: 3)
        try statement.bind(version.changeID, at: 4)
        try statement.bind(version.reasons.joined(separator: "\n"), at: 5)
        try statement.bind(now, at: 6)
        try statement.step()
      }
    }
  }
}
