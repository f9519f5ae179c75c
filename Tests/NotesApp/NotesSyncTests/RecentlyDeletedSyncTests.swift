// Recently Deleted between devices: a note deleted on one device is in every device's
// Recently Deleted, and a restore anywhere brings it back everywhere as the same note.

import Airframe
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesServer
import NotesTestSupport
import Testing

@testable import NotesStorage
@testable import NotesSync

@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(10)))
@MainActor
struct RecentlyDeletedSyncTests {
  /// The uid the server has for `device`'s note titled `title`.
  func uid(of title: String, on device: SyncDevice) async throws -> String {
    let content = try await device.content()
    return try #require(content.notes.first { $0.value.title == title }?.key)
  }

  func dispatch(_ action: some Action<NotesState>, on device: SyncDevice) -> ActionOutcome {
    ActionDispatcher(model: device.model).dispatch(action)
  }

  @Test func aNoteDeletedOnOneDeviceIsRestoredOnAnotherAndComesBackEverywhere() async throws {
    try await withDevices(["A", "B"]) { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.createNotebook("Work")
      let onA = try a.createNote("Plan", body: "one\ntwo", in: "Work")
      for device in devices { try await device.sync() }
      let uid = try await uid(of: "Plan", on: a)
      let onB = try #require(b.note(titled: "Plan")).id

      // A deletes it: it goes to A's Recently Deleted, and, synced, to B's.
      #expect(dispatch(DeleteNote(id: onA, now: a.now), on: a).isCommitted)
      #expect(a.model.state.recentlyDeleted[onA]?.notebookTitle == "Work")
      try await a.sync()
      try await b.sync()
      #expect(b.note(titled: "Plan") == nil)
      let entry = try #require(b.model.state.recentlyDeleted[onB], "not in B's Recently Deleted")
      #expect(entry.note.body == "one\ntwo" && entry.notebookTitle == "Work")
      try await expectConverged(devices, server)

      // B restores it: back on B under its id, and on A under A's, as the same note.
      #expect(dispatch(RestoreDeletedNote(id: onB, now: b.now), on: b).isCommitted)
      try await b.sync()
      try await a.sync()
      for (device, id) in [(a, onA), (b, onB)] {
        let note = try #require(device.model.state.notes[id], "\(device.name): not back")
        #expect(note.title == "Plan" && note.body == "one\ntwo")
        #expect(device.notebookTitle(of: note) == "Work")
        #expect(device.model.state.recentlyDeleted.count == 0, "\(device.name): still deleted")
        #expect(try await self.uid(of: "Plan", on: device) == uid, "\(device.name): a new note")
      }
      try await expectConverged(devices, server)
    }
  }

  @Test func anEditElsewhereBringsBackANoteDeletedHereOutOfRecentlyDeleted() async throws {
    try await withDevices(["A", "B"]) { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.createNotebook("Work")
      let onA = try a.createNote("Plan", body: "one", in: "Work")
      for device in devices { try await device.sync() }
      #expect(dispatch(DeleteNote(id: onA, now: a.now), on: a).isCommitted)
      try b.edit("Plan") { $0.body = "one, edited on B" }
      try await b.sync()
      try await a.sync()
      // The edit wins, as before Recently Deleted: the note is back on A, and not deleted.
      let note = try #require(a.model.state.notes[onA])
      #expect(note.body == "one, edited on B")
      #expect(a.model.state.recentlyDeleted.count == 0)
      try await b.sync()
      try await expectConverged(devices, server)
    }
  }
}
