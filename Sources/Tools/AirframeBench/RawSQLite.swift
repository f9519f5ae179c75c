// RawSQLite: the same statements as the funnel issues, through raw sqlite3 calls: the
// baseline of figure 8.

import Airframe
import AirframeBinding
import CSQLite
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesStorage

/// An error from the raw sqlite3 baseline.
struct RawSQLiteError: Error, CustomStringConvertible {
  var description: String
}

/// The baseline of figure 8: a hand-written sqlite3 connection issuing the statements
/// `NotesDatabase.persist` issues for a one-note update, with the same pragmas.
final class RawNotesConnection {
  /// `NotesDatabase`'s note UPDATE, verbatim (it sets every column).
  static let updateNoteSQL = """
    UPDATE notes SET notebook_id = ?2, title = ?3, body = ?4, modified = ?5, pinned = ?6
    WHERE id = ?1
    """

  private var database: OpaquePointer?
  private var begin: OpaquePointer?
  private var update: OpaquePointer?
  private var commit: OpaquePointer?

  init(path: String) throws {
    let code = sqlite3_open_v2(
      path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
    guard code == SQLITE_OK, let database else {
      sqlite3_close_v2(database)
      throw RawSQLiteError(description: "cannot open \(path): \(code)")
    }
    sqlite3_extended_result_codes(database, 1)
    for pragma in [
      "PRAGMA busy_timeout = 5000", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL",
      "PRAGMA foreign_keys = ON",
    ] {
      try check(sqlite3_exec(database, pragma, nil, nil, nil))
    }
    try check(sqlite3_prepare_v2(database, "BEGIN IMMEDIATE", -1, &begin, nil))
    try check(sqlite3_prepare_v2(database, Self.updateNoteSQL, -1, &update, nil))
    try check(sqlite3_prepare_v2(database, "COMMIT", -1, &commit, nil))
  }

  deinit {
    sqlite3_finalize(begin)
    sqlite3_finalize(update)
    sqlite3_finalize(commit)
    sqlite3_close_v2(database)
  }

  /// Writes every column of `note` in a transaction of its own.
  func write(_ note: Note) throws {
    try step(begin)
    sqlite3_bind_int64(update, 1, note.id.rawValue)
    sqlite3_bind_int64(update, 2, note.notebookID.rawValue)
    sqlite3_bind_text(update, 3, note.title, -1, csqlite_transient())
    sqlite3_bind_text(update, 4, note.body, -1, csqlite_transient())
    sqlite3_bind_double(update, 5, note.modified.timeIntervalSinceReferenceDate)
    sqlite3_bind_int64(update, 6, note.isPinned ? 1 : 0)
    do {
      try step(update)
      sqlite3_clear_bindings(update)
      guard sqlite3_changes(database) == 1 else {
        throw RawSQLiteError(description: "note \(note.id) is missing")
      }
      try step(commit)
    } catch {
      sqlite3_exec(database, "ROLLBACK", nil, nil, nil)
      throw error
    }
  }

  private func step(_ statement: OpaquePointer?) throws {
    let code = sqlite3_step(statement)
    sqlite3_reset(statement)
    if code != SQLITE_DONE { try check(code) }
  }

  private func check(_ code: Int32) throws {
    guard code != SQLITE_OK else { return }
    throw RawSQLiteError(description: String(cString: sqlite3_errmsg(database)))
  }
}
