import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

@testable import NotesStorage

/// Sample values with dates built from seconds since 1970, so they store exactly.
enum Fixtures {
  static func date(_ seconds: Double) -> Date {
    Date(timeIntervalSince1970: 1_700_000_000 + seconds)
  }

  static func notebook(_ id: Int64, _ title: String) -> Notebook {
    Notebook(id: NotebookID(rawValue: id), title: title, created: date(Double(id)))
  }

  static func note(
    _ id: Int64, in notebook: Int64, _ title: String, _ body: String = "", pinned: Bool = false
  ) -> Note {
    Note(
      id: NoteID(rawValue: id), notebookID: NotebookID(rawValue: notebook), title: title,
      body: body, created: date(Double(id)), modified: date(Double(id) + 0.5), isPinned: pinned)
  }

  static func noteIDs(_ ids: Int64...) -> [NoteID] { ids.map(NoteID.init(rawValue:)) }
}

/// Raw access to a database file, bypassing NotesDatabase.
enum RawDatabase {
  static func integrityCheck(_ path: String) throws -> String? {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    return try connection.string("PRAGMA integrity_check")
  }

  /// The integer the query returns.
  static func int64(_ path: String, _ sql: String) throws -> Int64? {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    return try connection.int64(sql)
  }

  static func userVersion(_ path: String) throws -> Int64? {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    return try connection.int64("PRAGMA user_version")
  }

  static func execute(_ path: String, _ script: String) throws {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    try connection.execute(script: script)
  }

  /// The number of notes whose changes the full-text index does not reflect yet.
  static func recordedChangeCount(_ path: String) throws -> Int64? {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    return try connection.int64("SELECT count(*) FROM notes_fts_pending")
  }

  /// Throws unless the full-text index holds exactly every note's current title and body.
  static func checkIndexMatchesNotes(_ path: String) throws {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    try connection.run("INSERT INTO notes_fts(notes_fts, rank) VALUES ('integrity-check', 1)")
  }

  /// The triggers of schema version 4, which record changed notes, sorted.
  static let recordingTriggers = [
    "notes_fts_pending_after_delete", "notes_fts_pending_after_insert",
    "notes_fts_pending_after_update",
  ]
  /// The triggers of schema versions 2 and 3, which update the index in every commit.
  static let version2Triggers = [
    "notes_fts_after_delete", "notes_fts_after_insert", "notes_fts_after_update",
  ]

  /// The text values the query returns, one per row.
  static func strings(_ path: String, _ sql: String) throws -> [String] {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    return try connection.withStatement(sql) { statement throws(NotesStorageError) in
      var values: [String] = []
      while try statement.step() { values.append(statement.string(at: 0)) }
      return values
    }
  }

  /// The names of the full-text index's triggers, sorted (sync's bookkeeping triggers are
  /// not listed).
  static func triggerNames(_ path: String) throws -> [String] {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    return try connection.withStatement(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name NOT LIKE '%_sync_%'"
        + " ORDER BY name"
    ) { statement throws(NotesStorageError) in
      var names: [String] = []
      while try statement.step() { names.append(statement.string(at: 0)) }
      return names
    }
  }

  /// Whether the file has a table named `name`.
  static func hasTable(_ path: String, _ name: String) throws -> Bool {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    return try connection.withStatement(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1"
    ) { statement throws(NotesStorageError) in
      try statement.bind(name, at: 1)
      return try statement.step() && statement.int64(at: 0) == 1
    }
  }

  /// Writes a library of `notes` notes (ids 2 on, in notebook 1), each with `versions`
  /// versions saved 0, 3, 6, … days and an hour before `now`, for thinning to work on.
  static func libraryWithOldHistory(
    _ path: String, notes: Int, versions: Int, now: Date
  ) throws {
    try MainActor.assumeIsolated {
      let database = try NotesDatabase(path: path)
      defer { database.close() }
      let model = Model(try database.loadState(), storage: database)
      try model.write(origin: .background("test")) { transaction in
        try transaction.insert(Fixtures.notebook(1, "Home"), into: \.notebooks)
        for id in 2..<Int64(2 + notes) {
          try transaction.insert(Fixtures.note(id, in: 1, "n\(id)", "x"), into: \.notes)
        }
        transaction.set(\.lastAssignedID, to: Int64(1 + notes))
      }
    }
    let time = now.timeIntervalSinceReferenceDate - 3_600
    try execute(
      path,
      """
      WITH RECURSIVE k(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM k WHERE n < \(versions - 1))
      INSERT INTO note_versions(note_id, title, body, began, saved, origin)
      SELECT notes.id, notes.title, 'v' || k.n, \(time) - (\(versions) - k.n) * 259200,
        \(time) - (\(versions) - k.n) * 259200, 'this-device'
      FROM notes, k ORDER BY notes.id, k.n;
      """)
  }

  /// How many versions the file keeps, read while another connection (or process) may be
  /// writing: waits for its locks as the app's connections do, so a read that meets a
  /// checkpoint or a recovery waits instead of failing with "database is locked".
  static func versionCount(_ path: String) throws -> Int64 {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    connection.waitForLocks(upTo: 5_000)
    return try connection.int64("SELECT count(*) FROM note_versions") ?? 0
  }

  /// Each kept version's note, by version id.
  static func versionNotes(_ path: String) throws -> [Int64: Int64] {
    var notes: [Int64: Int64] = [:]
    for pair in try strings(path, "SELECT id || ' ' || note_id FROM note_versions") {
      let parts = pair.split(separator: " ").compactMap { Int64($0) }
      notes[parts[0]] = parts[1]
    }
    return notes
  }

  static func bytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }
}

/// The seeded generator the randomized tests share (SplitMix64).
typealias SeededRandom = SeededRandomNumberGenerator
