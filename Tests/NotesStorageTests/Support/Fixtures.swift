import Foundation
import NotesCore
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

  static func bytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }
}
