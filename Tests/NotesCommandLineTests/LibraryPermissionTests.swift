// LibraryPermissionTests: the built `notes` program, run as a user that file
// permissions apply to (UnprivilegedNotes: nobody under root), on a library it may not
// read, and exporting where it may not write: each says so in words, with the path and
// its status (66, 73).

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

@Suite(.noLiveBindings)
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
