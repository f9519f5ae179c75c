// A library opened only for reading: nothing on disk changes (no -wal or -shm file, no
// migration, no checkpoint, no change of mode), it reads what every writer committed, a
// search still sees changes its index misses, a commit is refused, and a file that
// changes under an unlocked read is refused rather than read half-changed.
//
// These run as whoever runs the tests (root in CI, who may write every file), so they ask
// for read-only access explicitly; NotesCommandLineTests' ReadOnlyLibraryTests run the
// program as a user the file's permissions refuse.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

@Suite(.noLiveBindings)
@MainActor
struct ReadOnlyLibraryTests {
  typealias F = Fixtures

  /// A closed library holding notebook 1 with notes 10 ("Groceries") and 11 ("Plumber").
  private func library(in folder: TemporaryFolder) throws -> String {
    let path = folder.file("notes.sqlite")
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    try commit(to: database) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(10, in: 1, "Groceries", "milk and eggs"), into: \.notes)
      try transaction.insert(F.note(11, in: 1, "Plumber", "call on Tuesday"), into: \.notes)
    }
    return path
  }

  private func commit(
    to database: NotesDatabase, _ body: (inout Transaction<NotesState>) throws -> Void
  ) throws {
    let model = Model(try database.loadState(), storage: database)
    try model.write(origin: .background("test"), body)
  }

  @Test func aLibraryReadOnlyIsReadAndNothingOnDiskChanges() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = try library(in: folder)
    chmod(path, 0o640)
    let before = try RawDatabase.bytes(path)
    let written = try NotesDatabase(path: path, access: .readOnly)
    defer { written.close() }
    #expect(written.isReadOnly)
    let state = try written.loadState()
    #expect(state.notes.elements.map(\.title).sorted() == ["Groceries", "Plumber"])
    #expect(try written.search("tues") == F.noteIDs(11))
    #expect(try written.allNotes().notes.count == 2)
    // A commit is refused before it touches the file.
    let model = Model(state, storage: written)
    #expect(throws: ModelError.self) {
      try model.write(origin: .background("test")) {
        try $0.insert(F.note(12, in: 1, "New"), into: \.notes)
      }
    }
    #expect(
      written.lastCommitFailure
        == .unwritableLocation(path: path, reason: "it was opened only for reading"))
    #expect(model.state == state)
    written.close()
    // No -wal or -shm file was made, the mode was left as it was, the bytes are the same.
    #expect(try folder.contents() == ["notes.sqlite"])
    #expect(PrivateFiles.mode(of: path) == 0o640)
    #expect(try RawDatabase.bytes(path) == before)
  }

  @Test func aMissingLibraryIsNotCreatedForReading() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    #expect(throws: NotesStorageError.missing(path: path)) {
      try NotesDatabase(path: path, access: .readOnly)
    }
    #expect(try folder.contents().isEmpty)
  }

  @Test func aSearchReadOnlySeesChangesTheIndexMisses() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = try library(in: folder)
    // Another writer changed a title and left the index behind (it records the change).
    try RawDatabase.execute(path, "UPDATE notes SET title = 'Zebra crossing' WHERE id = 10")
    #expect(try RawDatabase.recordedChangeCount(path) == 1)
    let before = try RawDatabase.bytes(path)
    let database = try NotesDatabase(path: path, access: .readOnly)
    #expect(try database.search("zebra") == F.noteIDs(10))
    #expect(try database.search("groceries").isEmpty)
    #expect(try database.search("milk") == F.noteIDs(10))
    database.close()
    #expect(try RawDatabase.recordedChangeCount(path) == 1)
    #expect(try RawDatabase.bytes(path) == before)
    #expect(try folder.contents() == ["notes.sqlite"])
  }

  @Test func aLibraryOpenElsewhereIsReadThroughItsLog() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = try library(in: folder)
    // A writer keeps the library open: its commits are in the write-ahead log.
    let writer = try NotesDatabase(path: path)
    defer { writer.close() }
    try commit(to: writer) { try $0.insert(F.note(12, in: 1, "Logged"), into: \.notes) }
    let reader = try NotesDatabase(path: path, access: .readOnly)
    defer { reader.close() }
    #expect(try reader.loadState().notes[NoteID(rawValue: 12)]?.title == "Logged")
    // The reader takes its locks through the -shm file: later commits reach it too.
    try commit(to: writer) { try $0.insert(F.note(13, in: 1, "Later"), into: \.notes) }
    #expect(try reader.loadState().notes.count == 4)
    #expect(try reader.search("later") == F.noteIDs(13))
  }

  @Test func aFileChangedUnderAnUnlockedReadIsRefused() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = try library(in: folder)
    // Nothing had it open, so it is read without locks (immutable).
    let reader = try NotesDatabase(path: path, access: .readOnly)
    defer { reader.close() }
    #expect(try reader.loadState().notes.count == 2)
    let writer = try NotesDatabase(path: path)
    try commit(to: writer) { try $0.insert(F.note(12, in: 1, "Meanwhile"), into: \.notes) }
    // Closing checkpoints the writer's commit into the file the reader reads.
    writer.close()
    #expect(throws: NotesStorageError.changedWhileRead(path: path)) {
      try reader.loadState()
    }
  }

  @Test func anOlderLibraryIsReadAsItIs() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let old = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true, schemaVersion: 2)
    try commit(to: old) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(10, in: 1, "Kept", "as it was"), into: \.notes)
    }
    old.close()
    let before = try RawDatabase.bytes(path)
    let reader = try NotesDatabase(path: path, access: .readOnly)
    let note = try #require(reader.loadState().notes[NoteID(rawValue: 10)])
    #expect(note == F.note(10, in: 1, "Kept", "as it was"))
    #expect(try reader.search("kept") == F.noteIDs(10))
    reader.close()
    #expect(try RawDatabase.userVersion(path) == 2)
    #expect(try RawDatabase.bytes(path) == before)
  }

  @Test func aPathWithCharactersAURIReservesIsReadOnlyToo() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let odd = folder.file("a b?c#d%20e&mode=rw")
    try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: false)
    let path = odd + "/notes.sqlite"
    let database = try NotesDatabase(path: path)
    try commit(to: database) { try $0.insert(F.notebook(1, "Odd"), into: \.notebooks) }
    database.close()
    let reader = try NotesDatabase(path: path, access: .readOnly)
    defer { reader.close() }
    #expect(try reader.loadState().notebooks.elements.map(\.title) == ["Odd"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: odd) == ["notes.sqlite"])
  }

  @Test func readWriteIfAllowedWritesALibraryThatCanBeWritten() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("new/notes.sqlite")
    let database = try NotesDatabase(path: path, access: .readWriteIfAllowed)
    defer { database.close() }
    #expect(!database.isReadOnly)
    try commit(to: database) { try $0.insert(F.notebook(1, "Home"), into: \.notebooks) }
    #expect(try database.loadState().notebooks.count == 1)
  }
}
