// A full disk under the Notes app: typing into the editor while every write fails shows
// why in the status bar and keeps the draft, and the first key after the disk has room
// saves all of it.

import Airframe
import AirframeTesting
import CFaultVFS
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTerminalUI
import NotesTestSupport
import Testing

@testable import NotesPresentation
@testable import NotesStorage

@Suite(.noLiveBindings, .serialized)
@MainActor
struct FullDiskInTheAppTests {
  @Test func typingOnAFullDiskShowsWhyAndKeepsTheDraft() throws {
    #expect(airframe_fault_vfs_register() == 0)
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let database = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true,
      schemaVersion: NotesDatabase.supportedSchemaVersion, vfs: AIRFRAME_FAULT_VFS_NAME)
    let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
    let samples = SampleLibrary.state(now: now)
    let model = Model(try database.loadState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      for notebook in samples.notebooks.elements {
        try transaction.insert(notebook, into: \.notebooks)
      }
      for note in samples.notes.elements { try transaction.insert(note, into: \.notes) }
      transaction.set(\.lastAssignedID, to: samples.lastAssignedID)
    }
    let app = TerminalApplication(
      model: model, syncService: SimulatedSyncService(steps: 1, stepDelay: .zero),
      now: { now })
    app.handle(.enter)
    let id = try #require(app.session.editor.state.value.noteID)
    let body = try #require(model.state.notes[id]?.body)

    // The disk is full: every write fails from now on.
    airframe_fault_vfs_arm(Int32(AIRFRAME_FAULT_WRITE | AIRFRAME_FAULT_TRUNCATE), 1, 13, 1)
    for character in "abc" { app.handle(.character(character)) }
    let status = app.render(width: 200, height: 30).lines.last ?? ""
    airframe_fault_vfs_disarm()
    #expect(status.contains("The disk is full"), "the status bar says \(status)")
    #expect(model.state.notes[id]?.body == body, "the model took a write that failed")
    #expect(app.session.editor.state.value.body == body + "abc", "the draft lost keys")
    #expect(app.session.editor.state.value.isDirty)

    // Room again: the next key saves the whole draft, and the message goes.
    app.handle(.character("d"))
    #expect(model.state.notes[id]?.body == body + "abcd")
    #expect(!app.session.editor.state.value.isDirty)
    #expect(app.render(width: 120, height: 30).lines.last?.contains("full") == false)
    app.shutdown()
    database.close()
    let reopened = try NotesDatabase(path: path)
    defer { reopened.close() }
    #expect(try reopened.loadState().notes[id]?.body == body + "abcd")
  }
}
