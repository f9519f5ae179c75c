// Recently Deleted in the library file: a deleted note keeps its row (and uid) in
// `deleted_notes`, survives a relaunch, reaches another process, and a restore puts it back
// as the same entity.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

@Suite(.noLiveBindings, .timeLimit(.minutes(2)))
@MainActor
struct RecentlyDeletedStorageTests {
  typealias F = Fixtures
  let now = Date(timeIntervalSinceReferenceDate: 2_000)
  let groceries = NoteID(rawValue: 2)

  /// Two processes on a library holding notebook 1 "Home" with note 2 "Groceries".
  func withTwoProcesses(_ body: (LibraryProcess, LibraryProcess, String) throws -> Void) throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let a = try LibraryProcess(path: path)
    defer { a.close() }
    try a.model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk"), into: \.notes)
      transaction.set(\.lastAssignedID, to: 2)
    }
    let b = try LibraryProcess(path: path)
    defer { b.close() }
    try body(a, b, path)
  }

  func uid(_ path: String, _ table: String, _ id: NoteID) throws -> [String] {
    try RawDatabase.strings(path, "SELECT uid FROM \(table) WHERE id = \(id.rawValue)")
  }

  @Test func aDeletedNoteKeepsItsRowAndUIDAndReachesEveryProcessAndARelaunch() throws {
    try withTwoProcesses { a, b, path in
      let uid = try uid(path, "notes", groceries)
      #expect(uid.count == 1)
      #expect(a.dispatcher.dispatch(DeleteNote(id: groceries, now: now)).isCommitted)
      #expect(try self.uid(path, "notes", groceries).isEmpty)
      #expect(try self.uid(path, "deleted_notes", groceries) == uid)
      // Sync learns of the deletion, as before Recently Deleted.
      #expect(
        try RawDatabase.int64(path, "SELECT count(*) FROM sync_pending WHERE uid = '\(uid[0])'")
          == 1)

      #expect(try b.catchUp())
      #expect(b.model.state == a.model.state)
      let entry = try #require(b.model.state.recentlyDeleted[groceries])
      #expect(entry.note.body == "milk" && entry.notebookTitle == "Home" && entry.deleted == now)
      let reopened = try NotesDatabase(path: path)
      defer { reopened.close() }
      #expect(try reopened.loadState() == a.model.state)
    }
  }

  @Test func aRestoredNoteIsTheSameEntityAgainInItsNotebookOrARecreatedOne() throws {
    try withTwoProcesses { a, b, path in
      let uid = try uid(path, "notes", groceries)
      // Its notebook deleted too (with the note): the restore recreates "Home".
      let home = NotebookID(rawValue: 1)
      #expect(
        a.dispatcher.dispatch(DeleteNotebook(id: home, deletingNotes: true, now: now))
          .isCommitted)
      #expect(a.model.state.notebooks.count == 0)
      #expect(try b.catchUp())
      #expect(b.dispatcher.dispatch(RestoreDeletedNote(id: groceries, now: now)).isCommitted)
      let note = try #require(b.model.state.notes[groceries])
      #expect(b.model.state.notebooks[note.notebookID]?.title == "Home")
      #expect(note.notebookID != home, "a new notebook, not the deleted one's id")
      #expect(try self.uid(path, "notes", groceries) == uid)
      #expect(try self.uid(path, "deleted_notes", groceries).isEmpty)
      #expect(try a.catchUp())
      #expect(a.model.state == b.model.state)

      // Undone: back in Recently Deleted, and the recreated notebook gone again.
      #expect(b.dispatcher.undo().isCommitted)
      #expect(b.model.state.notes.count == 0 && b.model.state.notebooks.count == 0)
      #expect(try self.uid(path, "deleted_notes", groceries) == uid)
    }
  }

  @Test func deletingForGoodRemovesTheRowsAndUndoPutsTheEntriesBack() throws {
    try withTwoProcesses { a, b, path in
      #expect(a.dispatcher.dispatch(DeleteNote(id: groceries, now: now)).isCommitted)
      #expect(a.dispatcher.dispatch(DeleteForGood(.all)).isCommitted)
      let rows = try RawDatabase.int64(path, "SELECT count(*) FROM deleted_notes")
      #expect(rows == 0)
      #expect(try b.catchUp())
      #expect(b.model.state.recentlyDeleted.count == 0)
      #expect(a.dispatcher.undo().isCommitted)
      #expect(a.model.state.recentlyDeleted[groceries]?.note.title == "Groceries")
      #expect(try RawDatabase.int64(path, "SELECT count(*) FROM deleted_notes") == 1)
      // Only what has been there longer than the limit goes on its own: the cut-off is the
      // limit before today.
      func cutOff(onDay today: Date) -> Date {
        today.addingTimeInterval(-RecentlyDeleted.keptFor(days: RecentlyDeleted.defaultDays))
      }
      let atTheLimit = now.addingTimeInterval(
        RecentlyDeleted.keptFor(days: RecentlyDeleted.defaultDays))
      #expect(
        !a.dispatcher.dispatch(DeleteForGood(.deletedBefore(cutOff(onDay: atTheLimit)))).isCommitted
      )
      #expect(a.model.state.recentlyDeleted.count == 1)
      let past = atTheLimit.addingTimeInterval(1)
      #expect(a.dispatcher.dispatch(DeleteForGood(.deletedBefore(cutOff(onDay: past)))).isCommitted)
      #expect(a.model.state.recentlyDeleted.count == 0)
    }
  }

  /// How many days the library keeps deleted notes is read back as stored, and a value the
  /// app does not allow (another program's) reads as the default: nothing fails to open.
  @Test func theDaysKeptAreReadAsStoredOrAsTheDefaultWhenOutOfRange() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    try NotesDatabase(path: path).close()
    func days() throws -> Int {
      let database = try NotesDatabase(path: path)
      defer { database.close() }
      return try database.loadState().recentlyDeletedDays
    }
    #expect(try days() == 30)
    for (stored, read) in [("12", 12), ("0", 30), ("366", 30), ("'a week'", 30), ("NULL", 30)] {
      try RawDatabase.execute(
        path, "INSERT OR REPLACE INTO meta(key, value) VALUES ('recentlyDeletedDays', \(stored))")
      #expect(try days() == read, "stored \(stored)")
    }
  }
}
