// What the storage says when the disk fails it: a full disk, reported by SQLite as
// SQLITE_FULL or as an I/O error whose cause is ENOSPC (growing the -shm file on a full
// disk is SQLITE_IOERR_SHMSIZE, code 4874), is "the disk is full", with the path; any
// other I/O error says what failed; a library this user may not read says so.
// Faults come from CFaultVFS, as in DiskFaultTests.

import Airframe
import AirframeTesting
import CFaultVFS
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

#if canImport(Glibc)
  import Glibc
#endif

// The fault VFS's state is global: like DiskFaultTests, every test that arms it runs on
// the main actor without suspending, so none interleave.
@Suite(.noLiveBindings, .serialized)
@MainActor
struct StorageErrorWordsTests {
  typealias F = Fixtures

  /// SQLITE_IOERR (10) with an extended code: 3 write, 19 growing the -shm file.
  private static func ioError(_ extended: Int32) -> Int32 { 10 | extended << 8 }

  init() {
    #expect(airframe_fault_vfs_register() == 0)
  }

  /// Opens a library through the fault VFS, arms `fault`, makes one commit and returns
  /// what it failed with.
  private func failedCommit(
    _ kinds: Int32, code: Int32, systemError: Int32
  ) throws -> (NotesStorageError?, String, String) {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let database = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true,
      schemaVersion: NotesDatabase.supportedSchemaVersion, vfs: AIRFRAME_FAULT_VFS_NAME)
    defer { database.close() }
    let model = Model(try database.loadState(), storage: database)
    airframe_fault_vfs_arm_errno(kinds, 1, code, 1, systemError)
    defer { airframe_fault_vfs_disarm() }
    var message = ""
    do {
      try model.write(origin: .background("test")) {
        try $0.insert(F.notebook(1, "Home"), into: \.notebooks)
      }
      Issue.record("the commit did not fail")
    } catch {
      message = "\(error)"
    }
    #expect(airframe_fault_vfs_failures() > 0)
    #expect(model.state.notebooks.count == 0)
    return (database.lastCommitFailure, message, path)
  }

  @Test func aFullDiskSaysSoWithThePath() throws {
    let (failure, message, path) = try failedCommit(
      Int32(AIRFRAME_FAULT_WRITE | AIRFRAME_FAULT_TRUNCATE), code: 13, systemError: ENOSPC)
    #expect(failure == .diskFull(path: path))
    #expect(
      message.contains(
        "The disk is full: the notes database at \(path) cannot be written, so nothing was "
          + "saved."), "\(message)")
  }

  @Test func anIOErrorFromAFullDiskIsAFullDisk() throws {
    let (failure, message, path) = try failedCommit(
      Int32(AIRFRAME_FAULT_WRITE), code: Self.ioError(3), systemError: ENOSPC)
    #expect(failure == .diskFull(path: path))
    #expect(!message.contains("SQLite code"), "\(message)")
  }

  @Test func aSharedMemoryFileThatCannotGrowOnAFullDiskIsAFullDisk() throws {
    #expect(Self.ioError(19) == 4874)
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    try NotesDatabase(path: path).close()
    // The -shm file is made and grown when the library is first read after opening.
    airframe_fault_vfs_arm_errno(Int32(AIRFRAME_FAULT_SHM_MAP), 1, Self.ioError(19), 1, ENOSPC)
    defer { airframe_fault_vfs_disarm() }
    #expect(throws: NotesStorageError.diskFull(path: path)) {
      let database = try NotesDatabase(
        path: path, durability: .survivesAppCrash, fullTextSearch: true,
        schemaVersion: NotesDatabase.supportedSchemaVersion, vfs: AIRFRAME_FAULT_VFS_NAME)
      database.close()
    }
  }

  @Test func anotherIOErrorSaysWhatFailed() throws {
    let (failure, message, path) = try failedCommit(
      Int32(AIRFRAME_FAULT_WRITE), code: Self.ioError(3), systemError: EIO)
    #expect(failure == .ioFailure(path: path, reason: "disk I/O error, SQLite code 778"))
    #expect(
      message.contains(
        "The disk failed reading or writing the notes database at \(path) (disk I/O error, "
          + "SQLite code 778); nothing was saved."), "\(message)")
    // Where SQLite kept the system's errno, its words are the reason.
    let recorded = SQLiteConnection.error(
      Self.ioError(3), message: "disk I/O error", systemError: EIO, path: path)
    #expect(recorded == .ioFailure(path: path, reason: "Input/output error, SQLite code 778"))
  }

  @Test func everyErrorReadsAsASentenceNamingItsPath() {
    let errors: [NotesStorageError] = [
      .permissionDenied(path: "/x"), .missing(path: "/x"), .diskFull(path: "/x"),
      .ioFailure(path: "/x", reason: "Input/output error, SQLite code 778"),
      .changedWhileRead(path: "/x"), .unwritableLocation(path: "/x", reason: "why"),
    ]
    for error in errors {
      #expect(error.description.hasSuffix("."))
      #expect(error.description.first?.isUppercase == true)
      #expect(error.description.contains("/x"))
      #expect(!error.description.contains("SQLite code 4874"))
    }
  }

  @Test func sqliteCodesBecomeTheirCauses() {
    let path = "/x/notes.sqlite"
    let error = { (code: Int32, system: Int32) in
      SQLiteConnection.error(code, message: "m", systemError: system, path: path)
    }
    #expect(error(13, 0) == .diskFull(path: path))
    #expect(error(Self.ioError(19), ENOSPC) == .diskFull(path: path))
    #expect(error(Self.ioError(3), EDQUOT) == .diskFull(path: path))
    #expect(error(14, EACCES) == .permissionDenied(path: path))
    #expect(error(3, 0) == .permissionDenied(path: path))
    let reason = "it is open read-only, as this user may not write the file or its folder"
    #expect(error(8, 0) == .unwritableLocation(path: path, reason: reason))
  }
}
