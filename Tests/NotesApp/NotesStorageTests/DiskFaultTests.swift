// Disk faults, injected as SQLite's own tests inject them: the library is opened through
// the test VFS of CFaultVFS, which fails the Nth write, sync or truncate (or reports a
// full disk from then on), and N is swept over every such call a representative
// operation makes.
//
// After every fault: the operation either took effect whole or failed visibly (it threw,
// and the model kept its state); the next write works once the fault is gone; and the
// file, reopened without the test VFS, passes `integrity_check` and FTS5's own check of
// the index against the notes, and holds exactly what the model holds.

import Airframe
import AirframeTesting
import CFaultVFS
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

// The fault VFS's state is global: every test that arms it (here and in
// FullDiskInTheAppTests) runs on the main actor without suspending, so none interleave.
@Suite(.noLiveBindings, .serialized)
@MainActor
struct DiskFaultTests {
  typealias F = Fixtures

  /// A fault to inject: which calls, what they report, and whether it lasts.
  struct Fault: CustomTestStringConvertible, Sendable {
    let name: String
    let kinds: Int32
    let code: Int32
    /// Whether every later call fails too, as on a full disk.
    let persistent: Bool

    var testDescription: String { name }

    static let all = [
      Fault(
        name: "a failed write", kinds: Int32(AIRFRAME_FAULT_WRITE), code: ioError(3),
        persistent: false),
      Fault(
        name: "a failed sync", kinds: Int32(AIRFRAME_FAULT_SYNC), code: ioError(4),
        persistent: false),
      Fault(
        name: "a failed truncate", kinds: Int32(AIRFRAME_FAULT_TRUNCATE), code: ioError(6),
        persistent: false),
      Fault(
        name: "a full disk", kinds: Int32(AIRFRAME_FAULT_WRITE | AIRFRAME_FAULT_TRUNCATE),
        code: 13, persistent: true),
    ]

    /// SQLITE_IOERR (10) with an extended code: 3 write, 4 fsync, 6 truncate.
    private static func ioError(_ extended: Int32) -> Int32 { 10 | extended << 8 }
  }

  /// What is done while the fault is armed.
  enum Operation: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// One model write: a new note, a body edit, a rename, a pin, a move and a deletion.
    case commit
    /// A search, which first brings the full-text index up to date in a transaction.
    case indexUpdate
    /// A checkpoint that copies the write-ahead log into the file and truncates the log.
    case checkpoint

    var testDescription: String { rawValue }
  }

  init() {
    #expect(airframe_fault_vfs_register() == 0)
  }

  @Test(
    arguments: Fault.all, [NotesDatabase.Durability.survivesAppCrash, .survivesPowerLoss])
  func aFaultedCommitIsWholeOrUndone(fault: Fault, durability: NotesDatabase.Durability) throws {
    try sweep(fault, durability, .commit)
  }

  @Test(
    arguments: Fault.all, [NotesDatabase.Durability.survivesAppCrash, .survivesPowerLoss])
  func aFaultedCheckpointLosesNothing(fault: Fault, durability: NotesDatabase.Durability) throws {
    try sweep(fault, durability, .checkpoint)
  }

  @Test(
    arguments: Fault.all, [NotesDatabase.Durability.survivesAppCrash, .survivesPowerLoss])
  func aFaultedIndexUpdateIsWholeOrUndone(
    fault: Fault, durability: NotesDatabase.Durability
  ) throws {
    try sweep(fault, durability, .indexUpdate)
  }

  // MARK: - The sweep

  /// Counts the calls `operation` makes of the fault's kinds, then fails each in turn.
  private func sweep(
    _ fault: Fault, _ durability: NotesDatabase.Durability, _ operation: Operation
  ) throws {
    let calls = try withLibrary(durability) { database, model in
      // Armed for no call: it only counts.
      airframe_fault_vfs_arm(fault.kinds, 0, 0, 0)
      defer { airframe_fault_vfs_disarm() }
      try perform(operation, database, model)
      return airframe_fault_vfs_calls()
    }
    // In WAL mode a transaction truncates nothing, and under synchronous = NORMAL it syncs
    // nothing either; the checkpoint does both.
    let makesNoSuchCall =
      operation != .checkpoint
      && (fault.kinds == Int32(AIRFRAME_FAULT_TRUNCATE)
        || (fault.kinds == Int32(AIRFRAME_FAULT_SYNC) && durability == .survivesAppCrash))
    if makesNoSuchCall {
      #expect(calls == 0, "\(operation) makes \(calls) calls \(fault.name) can hit")
      return
    }
    #expect(calls > 0, "\(operation) makes no call that \(fault.name) can hit")
    for nth in 1...max(1, calls) {
      try withLibrary(durability) { database, model in
        try check(fault, nth: nth, of: calls, operation, database, model)
      }
    }
  }

  /// The change log's head: the largest sequence number it ever gave.
  private static let logHead = "SELECT max(seq) FROM change_log"

  /// Injects the fault at call `nth`, then checks everything the suite promises.
  private func check(
    _ fault: Fault, nth: Int, of calls: Int, _ operation: Operation,
    _ database: NotesDatabase, _ model: Model<NotesState>
  ) throws {
    let context = "\(fault.name) at call \(nth) of \(calls) in the \(operation)"
    let before = model.state
    let logHead = try RawDatabase.int64(database.path, Self.logHead) ?? 0
    airframe_fault_vfs_arm(fault.kinds, nth, fault.code, fault.persistent ? 1 : 0)
    var failure: (any Error)?
    do {
      try perform(operation, database, model)
    } catch {
      failure = error
    }
    let fired = airframe_fault_vfs_failures() > 0
    airframe_fault_vfs_disarm()

    if let failure {
      #expect(model.state == before, "\(context): the model changed though the write failed")
      // A model write reports the storage's reason; a search or checkpoint throws it.
      let reason =
        switch failure {
        case ModelError.storageFailed(let reason): reason
        case let error as NotesStorageError: error.description
        default: ""
        }
      #expect(!reason.isEmpty, "\(context): \(failure) is not a storage failure with a reason")
    }
    // The fault fired: the sweep stays within the operation's calls. (A success despite it
    // would be allowed if SQLite worked around the fault; the reopened file shows whether
    // it is real. In the latest sweep every injected fault failed the operation.)
    #expect(fired, "\(context): the fault did not fire")

    // Once the fault is gone, the next write works.
    #expect(throws: Never.self, "\(context): the next write fails") {
      try model.write(origin: .background("test")) { transaction in
        try transaction.update(NoteID(rawValue: 3), in: \.notes) { $0.title = "Garden, later" }
      }
    }
    #expect(throws: Never.self, "\(context): the next search fails") {
      _ = try database.search("milk")
    }
    let expected = model.state
    database.close()

    // The change log agrees with the rows: a failed commit left no entry behind, and the
    // next write logged exactly its one changed note.
    if failure != nil {
      let entries = try RawDatabase.int64(
        database.path,
        "SELECT count(*) FROM change_log WHERE seq > \(logHead) AND entity = 'note' AND row_id = 3")
      #expect(try RawDatabase.int64(database.path, Self.logHead) == logHead + 1, "\(context)")
      #expect(entries == 1, "\(context): the change log disagrees with the rows")
    }

    // The file, reopened without the test VFS: intact, and exactly what the model holds.
    #expect(try RawDatabase.integrityCheck(database.path) == "ok", "\(context)")
    let reopened = try NotesDatabase(path: database.path)
    defer { reopened.close() }
    #expect(try reopened.loadState() == expected, "\(context): the file is not the model")
    _ = try reopened.search("milk")
    #expect(throws: Never.self, "\(context): the index disagrees with the notes") {
      try RawDatabase.checkIndexMatchesNotes(database.path)
    }
  }

  /// Runs `operation` on the library.
  private func perform(
    _ operation: Operation, _ database: NotesDatabase, _ model: Model<NotesState>
  ) throws {
    switch operation {
    case .commit:
      try model.write(origin: .background("test")) { transaction in
        try transaction.insert(F.note(8, in: 1, "Plants", "water the fern"), into: \.notes)
        try transaction.update(NoteID(rawValue: 2), in: \.notes) {
          $0.body = "milk, eggs, bread and a long line " + String(repeating: "of text ", count: 400)
          $0.modified = F.date(100)
        }
        try transaction.update(NoteID(rawValue: 3), in: \.notes) { $0.title = "Garden (spring)" }
        try transaction.update(NoteID(rawValue: 4), in: \.notes) {
          $0.isPinned = true
          $0.notebookID = NotebookID(rawValue: 5)
        }
        try transaction.remove(NoteID(rawValue: 7), from: \.notes)
        transaction.set(\.lastAssignedID, to: 8)
      }
    case .indexUpdate:
      #expect(try !database.search("bread").isEmpty)
    case .checkpoint:
      try database.connection.run("PRAGMA wal_checkpoint(TRUNCATE)")
    }
  }

  /// A fresh library of two notebooks and five notes, opened through the test VFS, with
  /// changes recorded for the next index update; removed afterwards.
  private func withLibrary<Result>(
    _ durability: NotesDatabase.Durability,
    _ body: (NotesDatabase, Model<NotesState>) throws -> Result
  ) throws -> Result {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try NotesDatabase(
      path: folder.file("notes.sqlite"), durability: durability, fullTextSearch: true,
      schemaVersion: NotesDatabase.supportedSchemaVersion, vfs: AIRFRAME_FAULT_VFS_NAME)
    defer { database.close() }
    let model = Model(try database.loadState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.notebook(5, "Work"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk, eggs"), into: \.notes)
      try transaction.insert(F.note(3, in: 1, "Garden", "buy milk for the cat"), into: \.notes)
      try transaction.insert(F.note(4, in: 1, "Standup", "notes"), into: \.notes)
      try transaction.insert(F.note(7, in: 5, "Review", "it's \"quoted\""), into: \.notes)
      transaction.set(\.lastAssignedID, to: 7)
    }
    // The index reflects the notes; the operation's own changes are what it updates.
    _ = try database.search("milk")
    try model.write(origin: .background("test")) { transaction in
      try transaction.update(NoteID(rawValue: 2), in: \.notes) { $0.body = "milk and bread" }
    }
    return try body(database, model)
  }
}
