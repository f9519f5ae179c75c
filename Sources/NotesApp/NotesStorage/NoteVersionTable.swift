// NoteVersionTable: the `note_versions` table, where a library keeps its notes' versions
// (the rules are `NoteHistory`'s, in NotesCore).
//
// Versions are written in the same transaction as the change they keep — by a commit of the
// model (`NotesDatabase.persist`) or by a pulled batch (`LibrarySyncStore.apply`) — so a
// kill keeps both or neither. They are never loaded with the library: a note's history is
// read when it is asked for.

internal import Foundation
internal import NotesCore

extension SQL {
  /// Migration 10: note history.
  ///
  /// Dates are seconds since 2001 (the file is past migration 3). No foreign key: a note in
  /// Recently Deleted has no row in `notes` but keeps its history.
  static let noteHistoryScript = """
    CREATE TABLE note_versions(
      id INTEGER PRIMARY KEY,
      note_id INTEGER NOT NULL,
      title TEXT NOT NULL,
      body TEXT NOT NULL,
      began REAL NOT NULL,
      saved REAL NOT NULL,
      origin TEXT NOT NULL
    );
    CREATE INDEX note_versions_by_note ON note_versions(note_id, id);
    """
  static let newestNoteVersion = """
    SELECT id, title, body, began, origin FROM note_versions WHERE note_id = ?1
    ORDER BY id DESC LIMIT 1
    """
  static let noteTextBeforeChange = "SELECT title, body, modified FROM notes WHERE id = ?1"
  static let insertNoteVersion = """
    INSERT INTO note_versions(note_id, title, body, began, saved, origin)
    VALUES (?1, ?2, ?3, ?4, ?4, ?5)
    """
  static let replaceNoteVersion = """
    UPDATE note_versions SET title = ?2, body = ?3, saved = ?4 WHERE id = ?1
    """
  static let selectNoteVersions = """
    SELECT id, note_id, title, body, saved, origin FROM note_versions WHERE note_id = ?1
    ORDER BY id DESC
    """
  static let selectNoteVersion = """
    SELECT id, note_id, title, body, saved, origin FROM note_versions WHERE id = ?1
    """
  static let deleteNoteHistory = "DELETE FROM note_versions WHERE note_id = ?1"
  /// The versions of notes ?5 to ?6, saved before ?1 − ?2, that thinning deletes (see
  /// `NoteHistory`): of each note's versions in one hour (saved within ?3 of ?1), one day
  /// (within ?4) or one week (older), all but the newest, and never a note's newest.
  static let thinnableNoteVersions = """
    SELECT id FROM note_versions
    WHERE note_id BETWEEN ?5 AND ?6 AND saved <= ?1 - ?2 AND id NOT IN (
      SELECT max(id) FROM note_versions
      WHERE note_id BETWEEN ?5 AND ?6 AND saved <= ?1 - ?2
      GROUP BY note_id,
        CASE WHEN saved > ?1 - ?3 THEN 'h' || CAST(saved / 3600 AS INTEGER)
          WHEN saved > ?1 - ?4 THEN 'd' || CAST(saved / 86400 AS INTEGER)
          ELSE 'w' || CAST(saved / 604800 AS INTEGER) END)
    AND id NOT IN (SELECT max(id) FROM note_versions WHERE note_id BETWEEN ?5 AND ?6
      GROUP BY note_id)
    """
  static let deleteNoteVersion = "DELETE FROM note_versions WHERE id = ?1"
}

/// Reading and writing the `note_versions` table on one connection.
///
/// ## Guarantees
///
/// - ``keep(noteID:title:body:origin:now:on:)`` is called inside the transaction that
///   writes the note's new text, before the row is written, and applies `NoteHistory`'s
///   rules: the text before the first change is kept first, saves close together from one
///   origin are one version, a save that changes neither title nor text keeps nothing.
enum NoteVersionTable {
  /// Keeps `title` and `body` as note `noteID`'s newest version, saved at `now` by `origin`.
  ///
  /// - Parameters:
  ///   - noteID: The note, whose row (if any) still holds its text before this change.
  ///   - title: The title being saved.
  ///   - body: The text being saved.
  ///   - origin: Where the change was made.
  ///   - now: When.
  ///   - connection: The connection whose transaction writes the change.
  /// - Throws: A ``NotesStorageError``; the caller's transaction then rolls back.
  static func keep(
    noteID: Int64, title: String, body: String, origin: NoteVersion.Origin, now: Date,
    on connection: SQLiteConnection
  ) throws(NotesStorageError) {
    let time = now.timeIntervalSinceReferenceDate
    let newest = try connection.withStatement(SQL.newestNoteVersion) {
      statement throws(NotesStorageError) -> (id: Int64, same: Bool, began: Double, origin: String)?
      in
      try statement.bind(noteID, at: 1)
      guard try statement.step() else { return nil }
      return (
        statement.int64(at: 0),
        statement.string(at: 1) == title && statement.string(at: 2) == body,
        statement.double(at: 3), statement.string(at: 4)
      )
    }
    if let newest {
      if newest.same { return }
      if newest.origin == origin.rawValue, time - newest.began < NoteHistory.sameVersionWithin,
        time >= newest.began
      {
        try connection.withStatement(SQL.replaceNoteVersion) {
          statement throws(NotesStorageError) in
          try statement.bind(newest.id, at: 1)
          try statement.bind(title, at: 2)
          try statement.bind(body, at: 3)
          try statement.bind(time, at: 4)
          try statement.step()
        }
        return
      }
    } else {
      let before = try connection.withStatement(SQL.noteTextBeforeChange) {
        statement throws(NotesStorageError) -> (title: String, body: String, modified: Double)? in
        try statement.bind(noteID, at: 1)
        guard try statement.step() else { return nil }
        return (statement.string(at: 0), statement.string(at: 1), statement.double(at: 2))
      }
      // A note's first change: what it said before is its first version.
      if let before {
        if before.title == title && before.body == body { return }
        try insert(
          noteID: noteID, title: before.title, body: before.body, time: before.modified,
          origin: .beforeHistory, on: connection)
      }
    }
    try insert(noteID: noteID, title: title, body: body, time: time, origin: origin, on: connection)
  }

  private static func insert(
    noteID: Int64, title: String, body: String, time: Double, origin: NoteVersion.Origin,
    on connection: SQLiteConnection
  ) throws(NotesStorageError) {
    try connection.withStatement(SQL.insertNoteVersion) { statement throws(NotesStorageError) in
      try statement.bind(noteID, at: 1)
      try statement.bind(title, at: 2)
      try statement.bind(body, at: 3)
      try statement.bind(time, at: 4)
      try statement.bind(origin.rawValue, at: 5)
      try statement.step()
    }
  }

  /// Deletes every version of note `noteID` (deleted for good).
  static func forget(noteID: Int64, on connection: SQLiteConnection) throws(NotesStorageError) {
    try connection.withStatement(SQL.deleteNoteHistory) { statement throws(NotesStorageError) in
      try statement.bind(noteID, at: 1)
      try statement.step()
    }
  }

  /// Note `noteID`'s versions, newest first.
  static func versions(
    of noteID: Int64, on connection: SQLiteConnection
  ) throws(NotesStorageError) -> [NoteVersion] {
    try connection.withStatement(SQL.selectNoteVersions) {
      statement throws(NotesStorageError) -> [NoteVersion] in
      try statement.bind(noteID, at: 1)
      var versions: [NoteVersion] = []
      while try statement.step() { versions.append(version(at: statement)) }
      return versions
    }
  }

  /// The version numbered `id`, or `nil`.
  static func version(
    _ id: Int64, on connection: SQLiteConnection
  ) throws(NotesStorageError) -> NoteVersion? {
    try connection.withStatement(SQL.selectNoteVersion) {
      statement throws(NotesStorageError) -> NoteVersion? in
      try statement.bind(id, at: 1)
      return try statement.step() ? version(at: statement) : nil
    }
  }

  private static func version(at statement: Statement) -> NoteVersion {
    NoteVersion(
      id: statement.int64(at: 0), noteID: NoteID(rawValue: statement.int64(at: 1)),
      title: statement.string(at: 2), body: statement.string(at: 3),
      saved: Date(timeIntervalSinceReferenceDate: statement.double(at: 4)),
      // A value this code does not know (a newer program's) reads as unknown.
      origin: NoteVersion.Origin(rawValue: statement.string(at: 5)) ?? .beforeHistory)
  }

  /// The versions of notes `lowest` to `highest` that `NoteHistory`'s rule as of `now`
  /// deletes.
  ///
  /// Read before the write transaction that deletes them (which then finds their pages
  /// read), so that transaction holds the write lock only for the deletes. A version chosen
  /// stays one to delete whatever happens before: other writers only add newer versions,
  /// which never change an older one's hour, day or week, or delete versions (deleting one
  /// twice does nothing).
  static func thinnable(
    notes lowest: Int64, through highest: Int64, now: Date, on connection: SQLiteConnection
  ) throws(NotesStorageError) -> [Int64] {
    try connection.withStatement(SQL.thinnableNoteVersions) {
      statement throws(NotesStorageError) -> [Int64] in
      try statement.bind(now.timeIntervalSinceReferenceDate, at: 1)
      try statement.bind(NoteHistory.keepsEveryVersionFor, at: 2)
      try statement.bind(NoteHistory.keepsHourlyFor, at: 3)
      try statement.bind(NoteHistory.keepsDailyFor, at: 4)
      try statement.bind(lowest, at: 5)
      try statement.bind(highest, at: 6)
      var ids: [Int64] = []
      while try statement.step() { ids.append(statement.int64(at: 0)) }
      return ids
    }
  }

  /// Deletes the versions numbered `ids`; returns how many were there.
  static func delete(
    versions ids: [Int64], on connection: SQLiteConnection
  ) throws(NotesStorageError) -> Int {
    try connection.withStatement(SQL.deleteNoteVersion) { statement throws(NotesStorageError) in
      var deleted = 0
      for id in ids {
        statement.reset()
        try statement.bind(id, at: 1)
        try statement.step()
        deleted += Int(connection.changedRowCount)
      }
      return deleted
    }
  }
}
