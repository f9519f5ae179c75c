// NotesDatabase+ExternalChanges: following what other processes commit to the same file.

public import Airframe
public import NotesCore

extension NotesDatabase {
  /// Whether another connection has committed to the file since the change log was last
  /// read; costs one `PRAGMA data_version`.
  ///
  /// ## Guarantees
  ///
  /// - Cheap (one `PRAGMA data_version`, no table read) and true once another connection has
  ///   committed since the log was last read; a watcher can call it on a timer without a
  ///   busy loop.
  ///
  /// - Returns: `true` if ``externalChanges()`` may have something to apply.
  /// - Throws: A ``NotesStorageError`` if the file cannot be read.
  public func hasExternalChanges() throws(NotesStorageError) -> Bool {
    guard keepsChangeLog else { return false }
    let connection = try openConnection()
    return try connection.int64("PRAGMA data_version") ?? 0 != dataVersion
  }

  /// What other processes committed since this one last read the change log.
  ///
  /// ## Guarantees
  ///
  /// - Reads, in one read transaction, every row the log names after this process's cursor,
  ///   and returns them as changes to apply through `Model.write`'s external path (see
  ///   `Model.catchUpWithStorage()`): rows that exist are inserted or updated, rows that do
  ///   not are removed, so the model ends equal to the file whatever order the other commits
  ///   came in. The cursor moves only once the model has applied them.
  /// - A cursor older than the oldest kept entry (see `ChangeLog`) reads the whole library
  ///   instead: the model still ends equal to the file.
  /// - The last assigned id never goes down: the larger of the model's and the file's.
  ///
  /// - Returns: The changes, or `nil` if the log has nothing new for this process.
  /// - Throws: A ``NotesStorageError`` if the file cannot be read.
  public func externalChanges() throws(NotesStorageError) -> ExternalChanges<NotesState>? {
    guard keepsChangeLog else { return nil }
    let connection = try openConnection()
    let dates = dates
    let cursor = cursor
    let hasRecentlyDeleted = hasRecentlyDeleted
    return try connection.read { () throws(NotesStorageError) -> ExternalChanges<NotesState>? in
      let version = try connection.int64("PRAGMA data_version") ?? 0
      let head = try ChangeLog.head(on: connection)
      guard head != cursor else {
        dataVersion = version
        return nil
      }
      let stored = try Self.meta(MetaKey.lastAssignedID, in: connection) { $0.int64(at: 0) }
      let days = try Self.recentlyDeletedDays(in: connection)
      let update: (inout Transaction<NotesState>) throws -> Void
      if let oldest = try ChangeLog.oldest(on: connection), oldest <= cursor + 1 {
        let rows = try ChangeLog.rows(since: cursor, on: connection)
        let notebooks = try Self.readNotebooks(
          ids: rows.notebooks, connection: connection, dates: dates)
        let notes = try Self.readNotes(ids: rows.notes, connection: connection, dates: dates)
        let deleted =
          hasRecentlyDeleted
          ? try Self.readDeletedNotes(ids: rows.deletedNotes, connection: connection, dates: dates)
          : [:]
        update = { transaction in
          try Self.apply(notebooks, to: \.notebooks, in: &transaction)
          try Self.apply(notes, to: \.notes, in: &transaction)
          try Self.apply(deleted, to: \.recentlyDeleted, in: &transaction)
        }
      } else {
        // Trimmed past this process's cursor: read everything.
        let notebooks = try Self.readNotebooks(connection, dates: dates)
        let notes = try Self.readNotes(connection, dates: dates)
        let deleted = hasRecentlyDeleted ? try Self.readDeletedNotes(connection, dates: dates) : []
        update = { transaction in
          transaction.set(\.notebooks, to: EntityTable(notebooks))
          transaction.set(\.notes, to: EntityTable(notes))
          transaction.set(\.recentlyDeleted, to: EntityTable(deleted))
        }
      }
      return ExternalChanges(
        source: "another process",
        apply: { transaction in
          try update(&transaction)
          if let stored, stored > transaction.state.lastAssignedID {
            transaction.set(\.lastAssignedID, to: stored)
          }
          transaction.set(\.recentlyDeletedDays, to: days)
        },
        applied: { [weak self] in
          self?.cursor = head
          self?.dataVersion = version
        })
    }
  }

  /// Makes `table` hold each row as stored: inserted, updated, or (for `nil`) removed.
  private static func apply<Element>(
    _ rows: [Element.ID: Element?],
    to table: WritableKeyPath<NotesState, EntityTable<Element>>,
    in transaction: inout Transaction<NotesState>
  ) throws {
    // Inserts and updates first, removals last, so a note never lacks its notebook midway.
    for (id, row) in rows {
      guard let row else { continue }
      if transaction.state[keyPath: table].contains(id) {
        try transaction.update(id, in: table) { $0 = row }
      } else {
        try transaction.insert(row, into: table)
      }
    }
    for (id, row) in rows where row == nil && transaction.state[keyPath: table].contains(id) {
      try transaction.remove(id, from: table)
    }
  }

  /// The notebooks with `ids` as stored, `nil` for each one that no longer exists.
  private static func readNotebooks(
    ids: Set<Int64>, connection: SQLiteConnection, dates: StoredDates
  ) throws(NotesStorageError) -> [NotebookID: Notebook?] {
    guard !ids.isEmpty else { return [:] }
    let present = Dictionary(
      try readNotebooks(connection, dates: dates).map { ($0.id, $0) },
      uniquingKeysWith: { first, _ in first })
    var rows: [NotebookID: Notebook?] = [:]
    for id in ids.map(NotebookID.init(rawValue:)) { rows[id] = .some(present[id]) }
    return rows
  }

  /// The notes with `ids` as stored, `nil` for each one that no longer exists.
  private static func readNotes(
    ids: Set<Int64>, connection: SQLiteConnection, dates: StoredDates
  ) throws(NotesStorageError) -> [NoteID: Note?] {
    try connection.withStatement(SQL.selectNote) {
      statement throws(NotesStorageError) -> [NoteID: Note?] in
      var rows: [NoteID: Note?] = [:]
      for id in ids {
        statement.reset()
        try statement.bind(id, at: 1)
        rows[NoteID(rawValue: id)] = .some(
          try statement.step() ? note(at: statement, dates: dates) : nil)
      }
      return rows
    }
  }
}
