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
/// `NotesDatabase.persist` issues for a one-note update, with the same pragmas: the note's
/// history first (a version kept when its title or text changed), then the UPDATE.
final class RawNotesConnection {
  /// `NotesDatabase`'s note UPDATE, verbatim (it sets every column).
  static let updateNoteSQL = """
    UPDATE notes SET notebook_id = ?2, title = ?3, body = ?4, modified = ?5, pinned = ?6
    WHERE id = ?1
    """

  /// `NotesDatabase`'s note history statements, verbatim (see `NoteVersionTable`).
  static let newestVersionSQL = """
    SELECT id, title, body, began, origin FROM note_versions WHERE note_id = ?1
    ORDER BY id DESC LIMIT 1
    """
  static let textBeforeSQL = "SELECT title, body, modified FROM notes WHERE id = ?1"
  static let insertVersionSQL = """
    INSERT INTO note_versions(note_id, title, body, began, saved, origin)
    VALUES (?1, ?2, ?3, ?4, ?4, ?5)
    """
  static let replaceVersionSQL = """
    UPDATE note_versions SET title = ?2, body = ?3, saved = ?4 WHERE id = ?1
    """

  private var database: OpaquePointer?
  private var begin: OpaquePointer?
  private var update: OpaquePointer?
  private var commit: OpaquePointer?
  private var newestVersion: OpaquePointer?
  private var textBefore: OpaquePointer?
  private var insertVersion: OpaquePointer?
  private var replaceVersion: OpaquePointer?

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
    try check(sqlite3_prepare_v2(database, Self.newestVersionSQL, -1, &newestVersion, nil))
    try check(sqlite3_prepare_v2(database, Self.textBeforeSQL, -1, &textBefore, nil))
    try check(sqlite3_prepare_v2(database, Self.insertVersionSQL, -1, &insertVersion, nil))
    try check(sqlite3_prepare_v2(database, Self.replaceVersionSQL, -1, &replaceVersion, nil))
  }

  deinit {
    sqlite3_finalize(begin)
    sqlite3_finalize(update)
    sqlite3_finalize(commit)
    for statement in [newestVersion, textBefore, insertVersion, replaceVersion] {
      sqlite3_finalize(statement)
    }
    sqlite3_close_v2(database)
  }

  /// Writes every column of `note` in a transaction of its own, keeping a version first when
  /// its title or text changed, with the statements `NotesDatabase` issues (a version saved
  /// within a minute of the newest one replaces it).
  func write(_ note: Note) throws {
    try step(begin)
    do {
      try keepVersion(of: note)
    } catch {
      sqlite3_exec(database, "ROLLBACK", nil, nil, nil)
      throw error
    }
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

  private func keepVersion(of note: Note) throws {
    let time = Date().timeIntervalSinceReferenceDate
    sqlite3_bind_int64(newestVersion, 1, note.id.rawValue)
    defer { sqlite3_reset(newestVersion) }
    if sqlite3_step(newestVersion) == SQLITE_ROW {
      let same =
        String(cString: sqlite3_column_text(newestVersion, 1)) == note.title
        && String(cString: sqlite3_column_text(newestVersion, 2)) == note.body
      if same { return }
      let began = sqlite3_column_double(newestVersion, 3)
      if String(cString: sqlite3_column_text(newestVersion, 4)) == "this-device",
        time - began < 60, time >= began
      {
        sqlite3_bind_int64(replaceVersion, 1, sqlite3_column_int64(newestVersion, 0))
        sqlite3_bind_text(replaceVersion, 2, note.title, -1, csqlite_transient())
        sqlite3_bind_text(replaceVersion, 3, note.body, -1, csqlite_transient())
        sqlite3_bind_double(replaceVersion, 4, time)
        try step(replaceVersion)
        return
      }
    } else {
      sqlite3_bind_int64(textBefore, 1, note.id.rawValue)
      defer { sqlite3_reset(textBefore) }
      if sqlite3_step(textBefore) == SQLITE_ROW {
        let title = String(cString: sqlite3_column_text(textBefore, 0))
        let body = String(cString: sqlite3_column_text(textBefore, 1))
        if title == note.title && body == note.body { return }
        try insert(
          title, body, time: sqlite3_column_double(textBefore, 2), origin: "before-history",
          of: note)
      }
    }
    try insert(note.title, note.body, time: time, origin: "this-device", of: note)
  }

  private func insert(
    _ title: String, _ body: String, time: Double, origin: String, of note: Note
  ) throws {
    sqlite3_bind_int64(insertVersion, 1, note.id.rawValue)
    sqlite3_bind_text(insertVersion, 2, title, -1, csqlite_transient())
    sqlite3_bind_text(insertVersion, 3, body, -1, csqlite_transient())
    sqlite3_bind_double(insertVersion, 4, time)
    sqlite3_bind_text(insertVersion, 5, origin, -1, csqlite_transient())
    try step(insertVersion)
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
