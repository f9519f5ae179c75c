// The library is private on disk: folder 0700, the file and its companions 0600, whatever
// the umask; an existing library loses group and other access and keeps a stricter mode.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.noLiveBindings, .serialized)
@MainActor
struct PrivateFilesTests {
  typealias F = Fixtures

  /// The permission bits of every file of the library that exists, by suffix.
  private func modes(_ path: String) -> [String: mode_t] {
    var modes: [String: mode_t] = [:]
    for suffix in [""] + PrivateFiles.companionSuffixes {
      modes[suffix] = PrivateFiles.mode(of: path + suffix)
    }
    return modes
  }

  /// Commits one note through a model on `database`.
  private func commitNote(_ id: Int64, to database: NotesDatabase) throws {
    let model = Model(try database.loadState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      if transaction.state.notebooks.count == 0 {
        try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      }
      try transaction.insert(F.note(id, in: 1, "Note \(id)", "private text"), into: \.notes)
      transaction.set(\.lastAssignedID, to: id)
    }
  }

  // umask is the process's: only widening ones, so a test running beside this one
  // cannot be left with files it cannot write.
  @Test(arguments: [mode_t(0o000), 0o022])
  func aNewLibraryIsPrivateWhateverTheUmask(umaskWhileCreating: mode_t) throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("data/airframe-notes/notes.sqlite")

    let previous = umask(umaskWhileCreating)
    let database: NotesDatabase
    do {
      defer { umask(previous) }
      database = try NotesDatabase(path: path)
      try commitNote(1, to: database)
    }
    defer { database.close() }

    #expect(PrivateFiles.mode(of: folder.file("data")) == 0o700)
    #expect(PrivateFiles.mode(of: folder.file("data/airframe-notes")) == 0o700)
    // In WAL mode the -wal and -shm files exist once the library has been written.
    #expect(modes(path) == ["": 0o600, "-wal": 0o600, "-shm": 0o600])

    // After a checkpoint the write-ahead log is written again from the start.
    try database.connection.run("PRAGMA wal_checkpoint(TRUNCATE)")
    try commitNote(2, to: database)
    #expect(modes(path) == ["": 0o600, "-wal": 0o600, "-shm": 0o600])
  }

  @Test func aWorldReadableLibraryLosesGroupAndOtherAccessWhenOpened() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let first = try NotesDatabase(path: path)
    try commitNote(1, to: first)
    // As an older version left it: readable by every account, companions included.
    for suffix in ["", "-wal", "-shm"] { chmod(path + suffix, 0o644) }
    #expect(modes(path) == ["": 0o644, "-wal": 0o644, "-shm": 0o644])

    let second = try NotesDatabase(path: path)
    defer { second.close() }
    #expect(modes(path) == ["": 0o600, "-wal": 0o600, "-shm": 0o600])
    #expect(try second.loadState().notes.count == 1)
    first.close()
  }

  @Test func anExistingStricterModeIsKept() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    try NotesDatabase(path: path).close()
    // Owner read and write plus group read: only the group bit goes.
    chmod(path, 0o640)
    let database = try NotesDatabase(path: path)
    #expect(PrivateFiles.mode(of: path) == 0o600)
    database.close()
    // Already private: left exactly as it is, and the folder, which existed, too.
    let folderMode = PrivateFiles.mode(of: folder.path)
    try NotesDatabase(path: path).close()
    #expect(PrivateFiles.mode(of: path) == 0o600)
    #expect(PrivateFiles.mode(of: folder.path) == folderMode)
  }

  @Test func aFileThatIsNotALibraryKeepsItsMode() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o644)
    #expect(throws: NotesStorageError.notADatabase(path: path)) {
      try NotesDatabase(path: path)
    }
    #expect(PrivateFiles.mode(of: path) == 0o644)
  }
}
