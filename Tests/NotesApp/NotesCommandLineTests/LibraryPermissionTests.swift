// LibraryPermissionTests: the built `notes` program, run as a user that file
// permissions apply to (UnprivilegedNotes: nobody under root), on a library it may read
// but not write, on one it may not read, and exporting where it may not write. Reads work
// and change nothing on disk; writes are refused in words with status 73 and change
// nothing; an unreadable library is "permission denied", status 66.

import Airframe
import AirframeTesting
import Foundation
import NotesCommandLine
@_spi(Instrumentation) import NotesCore
import NotesStorage
import NotesTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct LibraryPermissionTests {
  /// The samples in a library at `lib/notes.sqlite` in the test's folder, the folder and
  /// the file the user's; returns the library's path.
  private func userLibrary(
    in library: TestLibrary, _ notes: UnprivilegedNotes, name: String = "lib"
  ) throws -> String {
    let folder = library.file(name)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let path = folder + "/notes.sqlite"
    let database = try NotesDatabase(path: path)
    let model = Model(try database.loadState(), storage: database)
    let samples = SampleLibrary.state(now: TestLibrary.sampleDate)
    try model.write(origin: .background("test")) { transaction in
      for notebook in samples.notebooks.elements {
        try transaction.insert(notebook, into: \.notebooks)
      }
      for note in samples.notes.elements { try transaction.insert(note, into: \.notes) }
      transaction.set(\.lastAssignedID, to: samples.lastAssignedID)
    }
    database.close()
    try notes.own(folder)
    return path
  }

  /// Every file in `folder` with its bytes: what "nothing changed" compares.
  private func snapshot(_ folder: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    }
    return files
  }

  /// The read commands, and what each printed on the library while it was writable.
  private static let reads: [[String]] = [
    ["list"], ["list", "--notebook", "home", "--json"], ["search", "coffee"], ["show", "6"],
    ["export", "--json"], ["sync", "status"], ["sync", "status", "--json"],
  ]

  /// Runs every read command on `path`; returns what each printed.
  private func runReads(
    _ notes: UnprivilegedNotes, on path: String
  ) throws -> [CommandResult] {
    try Self.reads.map { try notes.run($0 + ["--database", path]) }
  }

  @Test(arguments: ["a read-only file", "a read-only folder"])
  func aLibraryThisUserMayNotWriteIsReadAndNothingChanges(protection: String) throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let notes = try UnprivilegedNotes(folder: library.folder)
    let path = try userLibrary(in: library, notes)
    let folder = library.file("lib")
    let writable = try runReads(notes, on: path)
    #expect(writable.allSatisfy { $0.status == 0 && $0.errors.isEmpty }, "\(writable)")
    #expect(writable[0].output.contains("\tHome\tGroceries\n"))
    let protected = protection == "a read-only file" ? path : folder
    chmod(protected, protection == "a read-only file" ? 0o444 : 0o555)
    defer { chmod(protected, protection == "a read-only file" ? 0o600 : 0o700) }
    let before = try snapshot(folder)

    #expect(try runReads(notes, on: path) == writable)
    let exports = library.file("exports")
    try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: false)
    try notes.own(exports)
    let exported = try notes.run(["export", "--markdown", exports + "/md", "--database", path])
    #expect(
      exported
        == CommandResult(
          status: 0, output: "exported 6 notes in 3 notebooks to \"\(exports)/md\"\n",
          errors: ""))
    // Not a -wal or -shm file was made, and the library's bytes are the same.
    #expect(try snapshot(folder) == before)
  }

  @Test(arguments: ["a read-only file", "a read-only folder"])
  func aChangeToALibraryThisUserMayNotWriteIsRefusedInWords(protection: String) throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let notes = try UnprivilegedNotes(folder: library.folder)
    let path = try userLibrary(in: library, notes)
    let folder = library.file("lib")
    let document = library.file("import.json")
    try Data(#"{"version": 1, "notebooks": [], "notes": []}"#.utf8).write(
      to: URL(fileURLWithPath: document))
    let readOnlyFile = protection == "a read-only file"
    chmod(readOnlyFile ? path : folder, readOnlyFile ? 0o444 : 0o555)
    defer { chmod(readOnlyFile ? path : folder, readOnlyFile ? 0o600 : 0o700) }
    let before = try snapshot(folder)
    let reason =
      readOnlyFile
      ? "the file is read-only"
      : "its folder \(folder) is read-only (SQLite needs to write its journal files there)"
    let refusal = CommandResult(
      status: 73, output: "", errors: "notes: Cannot save notes at \(path): \(reason).\n")
    let changes: [[String]] = [
      ["add", "--notebook", "Home", "--title", "New", "--body", "x"], ["rename", "6", "Other"],
      ["pin", "6"], ["delete", "6"], ["edit", "6", "--body", "-"], ["notebook", "add", "Trips"],
      ["notebook", "delete", "Home", "--yes"], ["import", document], ["sync"],
      ["sync", "acknowledge"],
    ]
    for change in changes {
      let result = try notes.run(change + ["--database", path])
      #expect(result == refusal, "\(change)")
    }
    #expect(try snapshot(folder) == before)
  }

  @Test func aLibraryThisUserMayNotReadIsPermissionDenied() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let notes = try UnprivilegedNotes(folder: library.folder)
    let path = try userLibrary(in: library, notes)
    // Another user's library: not the user's, and private to its owner.
    let other = library.file("other")
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
    try FileManager.default.moveItem(atPath: path, toPath: other + "/notes.sqlite")
    let theirs = other + "/notes.sqlite"
    // Under root the test's own files are another user's; otherwise no mode lets it read.
    #expect(getuid() != 0 || chown(theirs, 0, 0) == 0)
    chmod(theirs, getuid() == 0 ? 0o600 : 0)
    let denied = { (path: String) in
      CommandResult(
        status: 66, output: "",
        errors: "notes: Cannot read the notes database at \(path): permission denied (this "
          + "user may not read it, or may not enter a folder on its path).\n")
    }
    #expect(try notes.run(["list", "--database", theirs]) == denied(theirs))
    #expect(
      try notes.run(["add", "--notebook", "N", "--title", "T", "--database", theirs])
        == denied(theirs))
    // A library in a folder the user may not enter.
    chmod(theirs, 0o644)
    chmod(other, 0o700)
    if getuid() != 0 { chmod(other, 0) }
    defer { chmod(other, 0o700) }
    #expect(try notes.run(["search", "x", "--database", theirs]) == denied(theirs))
  }

  @Test func aLibraryLeftOpenInAReadOnlyFolderIsReadThroughItsLog() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let notes = try UnprivilegedNotes(folder: library.folder)
    let path = try userLibrary(in: library, notes)
    let folder = library.file("lib")
    // Another program has it open: its latest commit is only in the write-ahead log.
    let writer = try NotesDatabase(path: path)
    let model = Model(try writer.loadState(), storage: writer)
    try model.write(origin: .background("test")) {
      try $0.update(NoteID(rawValue: 6), in: \.notes) { $0.title = "Logged only" }
    }
    defer { writer.close() }
    try notes.own(folder)
    chmod(folder, 0o555)
    defer { chmod(folder, 0o700) }
    let listed = try notes.run(["list", "--notebook", "Home", "--database", path])
    #expect(listed.status == 0, "\(listed.errors)")
    #expect(listed.output.contains("6\tHome\tLogged only\n"), "\(listed.output)")
    #expect(try notes.run(["search", "logged", "--database", path]).output.hasPrefix("6\t"))
  }

  @Test func aLibraryNotClosedCleanlyInAReadOnlyFolderSaysWhatToDo() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let notes = try UnprivilegedNotes(folder: library.folder)
    let path = try userLibrary(in: library, notes)
    let writer = try NotesDatabase(path: path)
    let model = Model(try writer.loadState(), storage: writer)
    try model.write(origin: .background("test")) {
      try $0.update(NoteID(rawValue: 6), in: \.notes) { $0.title = "Logged only" }
    }
    // What a crash leaves: the file and its log, without the -shm file SQLite reads it by.
    let copy = library.file("crashed")
    try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
    for suffix in ["", "-wal"] {
      try FileManager.default.copyItem(
        atPath: path + suffix, toPath: copy + "/notes.sqlite" + suffix)
    }
    writer.close()
    try notes.own(copy)
    chmod(copy, 0o555)
    defer { chmod(copy, 0o700) }
    let before = try snapshot(copy)
    let result = try notes.run(["list", "--database", copy + "/notes.sqlite"])
    #expect(result.status == 1)
    #expect(
      result.errors.hasPrefix(
        "notes: Cannot open the notes database at \(copy)/notes.sqlite: it was left open or "
          + "not closed cleanly"), "\(result.errors)")
    #expect(result.errors.contains("open it once where it can be written"))
    #expect(try snapshot(copy) == before)
  }

  @Test func companionFilesLeftReadOnlyByAReaderDoNotStopTheNextWriter() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let notes = try UnprivilegedNotes(folder: library.folder)
    let path = try userLibrary(in: library, notes)
    // A log left beside a read-only library: the reader reads through it, and SQLite
    // makes the -shm file it needs with the library's read-only mode.
    try Data().write(to: URL(fileURLWithPath: path + "-wal"))
    try notes.own(path + "-wal")
    chmod(path, 0o444)
    #expect(try notes.run(["list", "--database", path]).status == 0)
    #expect(FileManager.default.fileExists(atPath: path + "-shm"))
    // Writable again: the next change saves.
    chmod(path, 0o600)
    let added = try notes.run(
      ["add", "--notebook", "Home", "--title", "After", "--body", "x", "--database", path])
    #expect(added.status == 0 && added.errors.isEmpty, "\(added.errors)")
    #expect(try notes.run(["search", "after", "--database", path]).output.contains("After"))
  }

  @Test func anExportWhereThisUserMayNotWriteSaysSoInWords() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let notes = try UnprivilegedNotes(folder: library.folder)
    let path = try userLibrary(in: library, notes)
    let locked = library.file("locked")
    try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
    chmod(locked, 0o555)
    defer { chmod(locked, 0o700) }
    let result = try notes.run(["export", "--markdown", locked + "/md", "--database", path])
    #expect(
      result
        == CommandResult(
          status: 73, output: "",
          errors: "notes: cannot write the export to \"\(locked)/md\": this user may not write "
            + "in its folder \"\(locked)\" (Permission denied)\n"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: locked).isEmpty)
  }
}
