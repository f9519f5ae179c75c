internal import CSQLite

/// A prepared statement owned by a ``SQLiteConnection``.
///
/// One prepared SQLite statement, bound, stepped and reset.
///
/// ## Guarantees
///
/// - A statement is prepared once (as a persistent statement) and reused: the connection
///   caches it by its SQL text, and `SQLiteConnection.withStatement` resets it and clears
///   its bindings after every use, whether the use succeeded or threw.
/// - Text is bound as a copy (SQLITE_TRANSIENT) with an explicit byte count, so a Swift
///   string is never read after the bind returns, embedded NULs survive, and an empty
///   string is stored as '' (never NULL).
/// - Column reads copy the value out at once; no pointer into SQLite's row buffer outlives
///   the call.
/// - Not thread-safe; used only by its connection's owner.
final class Statement {
  /// The SQL the statement was prepared from.
  let sql: String
  private let handle: OpaquePointer
  private unowned let connection: SQLiteConnection

  init(sql: String, connection: SQLiteConnection, database: OpaquePointer) throws(NotesStorageError)
  {
    var handle: OpaquePointer?
    let code = sqlite3_prepare_v3(
      database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
    guard code == SQLITE_OK, let handle else {
      sqlite3_finalize(handle)
      throw connection.error(code)
    }
    self.sql = sql
    self.handle = handle
    self.connection = connection
  }

  deinit { sqlite3_finalize(handle) }

  // MARK: Binding (parameters are numbered from 1)

  func bind(_ value: Int64, at index: Int32) throws(NotesStorageError) {
    try check(sqlite3_bind_int64(handle, index, value))
  }

  func bind(_ value: Double, at index: Int32) throws(NotesStorageError) {
    try check(sqlite3_bind_double(handle, index, value))
  }

  func bind(_ value: Double?, at index: Int32) throws(NotesStorageError) {
    if let value {
      try bind(value, at: index)
    } else {
      try check(sqlite3_bind_null(handle, index))
    }
  }

  func bind(_ value: String?, at index: Int32) throws(NotesStorageError) {
    if let value {
      try bind(value, at: index)
    } else {
      try check(sqlite3_bind_null(handle, index))
    }
  }

  func bind(_ value: Bool, at index: Int32) throws(NotesStorageError) {
    try bind(value ? 1 : 0 as Int64, at: index)
  }

  func bind(_ value: String, at index: Int32) throws(NotesStorageError) {
    var value = value
    let code = value.withUTF8 { bytes -> Int32 in
      guard let base = bytes.baseAddress, !bytes.isEmpty else {
        return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
      }
      return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
        sqlite3_bind_text(handle, index, $0, Int32(bytes.count), csqlite_transient())
      }
    }
    try check(code)
  }

  // MARK: Stepping

  /// Advances to the next row.
  ///
  /// - Returns: `true` if a row is available, `false` when the statement is done.
  @discardableResult
  func step() throws(NotesStorageError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code: throw connection.error(code)
    }
  }

  /// Makes the statement ready to run again and forgets its bindings.
  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  // MARK: Columns (numbered from 0)

  func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }

  func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  func string(at column: Int32) -> String {
    guard let text = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  private func check(_ code: Int32) throws(NotesStorageError) {
    guard code == SQLITE_OK else { throw connection.error(code) }
  }
}
