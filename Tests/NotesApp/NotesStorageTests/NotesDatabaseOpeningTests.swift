import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

@Suite(.noLiveBindings)
@MainActor
struct NotesDatabaseOpeningTests {
  @Test func aNewFileIsCreatedInMissingFoldersInWALMode() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("a/b/notes.sqlite")
    let database = try NotesDatabase(path: path)
    #expect(try database.connection.string("PRAGMA journal_mode") == "wal")
    #expect(try database.connection.int64("PRAGMA foreign_keys") == 1)
    #expect(
      try database.connection.int64("PRAGMA user_version")
        == Int64(NotesDatabase.supportedSchemaVersion))
    #expect(database.searchMethod == .fullText)
    #expect(try database.loadState() == NotesState())
    database.close()
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func aCorruptFileIsRejectedAndLeftUnchanged() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    var generator = SystemRandomNumberGenerator()
    let garbage = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
    try garbage.write(to: URL(fileURLWithPath: path))

    #expect(throws: NotesStorageError.notADatabase(path: path)) {
      try NotesDatabase(path: path)
    }
    #expect(try RawDatabase.bytes(path) == garbage)
    #expect(try folder.contents() == ["notes.sqlite"])
  }

  @Test func aNewerSchemaIsRejectedAndLeftUnchanged() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    try NotesDatabase(path: path).close()
    try RawDatabase.execute(path, "PRAGMA user_version = 99")
    let before = try RawDatabase.bytes(path)

    #expect(
      throws: NotesStorageError.newerSchema(
        found: 99, supported: NotesDatabase.supportedSchemaVersion)
    ) {
      try NotesDatabase(path: path)
    }
    #expect(try RawDatabase.bytes(path) == before)
    #expect(try folder.contents() == ["notes.sqlite"])
    #expect(
      NotesStorageError.newerSchema(found: 99, supported: NotesDatabase.supportedSchemaVersion)
        .description.contains("newer"))
  }

  @Test func aPathUnderARegularFileIsAnUnwritableLocation() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let blocker = folder.file("blocker")
    try Data("not a folder".utf8).write(to: URL(fileURLWithPath: blocker))
    let path = blocker + "/sub/notes.sqlite"

    do {
      _ = try NotesDatabase(path: path)
      Issue.record("Opening should have failed")
    } catch {
      guard case .unwritableLocation(let failedPath, let reason) = error else {
        Issue.record("Unexpected error \(error)")
        return
      }
      #expect(failedPath == path)
      #expect(reason.contains("blocker is a file"))
    }
    #expect(try folder.contents() == ["blocker"])
  }

  @Test(.enabled(if: getuid() != 0, "root can write to read-only folders"))
  func aReadOnlyFolderIsAnUnwritableLocation() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
    let path = folder.file("notes.sqlite")
    #expect(
      throws: NotesStorageError.unwritableLocation(
        path: path, reason: "the folder \(folder.path) is read-only")
    ) {
      try NotesDatabase(path: path)
    }
    #expect(try folder.contents().isEmpty)
  }

  @Test func aFolderIsNotADatabaseFile() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    #expect(
      throws: NotesStorageError.cannotOpen(path: folder.path, reason: "it is a folder, not a file")
    ) {
      try NotesDatabase(path: folder.path)
    }
  }

  @Test func errorsReadAsSentences() {
    let errors: [NotesStorageError] = [
      .cannotOpen(path: "/x", reason: "why"), .notADatabase(path: "/x"),
      .newerSchema(found: 3, supported: 2), .unwritableLocation(path: "/x", reason: "why"),
      .closed, .outOfSync(table: "notes", id: 1, reason: "why"),
      .sqlite(code: 787, message: "FOREIGN KEY constraint failed"),
    ]
    for error in errors {
      #expect(error.description.hasSuffix("."))
      #expect(error.description.first?.isUppercase == true)
    }
  }
}
