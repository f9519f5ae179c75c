import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesPresentation

/// A history that a test fills in, as the library's storage would.
@MainActor
final class KeptVersions: NoteHistoryReader {
  var versions: [NoteID: [NoteVersion]] = [:]

  func history(of id: NoteID) throws -> [NoteVersion] { versions[id] ?? [] }
}

/// Note history through a session: what it reads, what a restore changes and says, and
/// the command's availability.
@Suite(.noLiveBindings, .timeLimit(.minutes(2)))
@MainActor
struct NoteHistorySessionTests {
  let home = NotebookID(rawValue: 1)

  /// A session over the sample library whose history is `kept`; the caller closes both.
  func makeSession(kept: KeptVersions) -> (NotesSession, LibrarySession) {
    let model = Model(SampleLibrary.state(now: fixedDate))
    let sync = SyncDriver(model: model, service: SimulatedSyncService(steps: 2, stepDelay: .zero))
    let library = LibrarySession(model: model, sync: sync, now: { fixedDate }, history: kept)
    return (NotesSession(library: library, shortcut: { $0 == .undo ? "u" : "" }), library)
  }

  @Test func aRestoredVersionIsTheNotesTextAgainAsOneUndoableStep() throws {
    let kept = KeptVersions()
    let (session, library) = makeSession(kept: kept)
    defer {
      session.close()
      library.close()
    }
    session.notebookSelected(home)
    let groceries = try #require(session.list.rows.first { $0.title == "Groceries" }).id
    #expect(session.noteSelected(groceries))
    let saved = Date(timeIntervalSinceReferenceDate: 700_000_000)
    let old = NoteVersion(
      id: 3, noteID: groceries, title: "Shopping", body: "milk\neggs", saved: saved,
      origin: .anotherDevice)
    kept.versions[groceries] = [old]
    #expect(try session.history(of: groceries) == [old])

    let before = session.editorState.value.body
    #expect(session.bodyTyped(before + "\nbread").isCommitted)
    #expect(session.noteVersionRestored(old).isCommitted)
    #expect(session.editorState.value.title == "Shopping")
    #expect(session.editorState.value.body == "milk\neggs")
    #expect(session.status.value.message?.hasPrefix("Restored the version of ") == true)
    #expect(session.status.value.message?.hasSuffix(" — u to undo") == true)
    session.expectProjectionsAgree(after: "restoring a version")

    // One step of its own: the typing before it is another.
    #expect(session.undoRequested().isCommitted)
    #expect(session.editorState.value.body == before + "\nbread")
    #expect(session.editorState.value.title == "Groceries")
    #expect(session.undoRequested().isCommitted)
    #expect(session.editorState.value.body == before)
  }

  @Test func aVersionOfANoteNotThereIsRefusedAndHistoryNeedsASelectedNote() throws {
    let kept = KeptVersions()
    let (session, library) = makeSession(kept: kept)
    defer {
      session.close()
      library.close()
    }
    let missing = NoteVersion(
      id: 1, noteID: NoteID(rawValue: 999), title: "Gone", body: "", saved: fixedDate,
      origin: .thisDevice)
    #expect(!session.noteVersionRestored(missing).isCommitted)
    #expect(session.status.value.message != nil)

    // An empty notebook: no note selected.
    let created = session.notebookCreated(titled: "Empty")
    let empty = try #require(created.createdID(in: \NotesState.notebooks))
    session.notebookSelected(empty)
    #expect(session.selectedNote.value == nil)
    #expect(session.availability(of: .noteHistory).value != .enabled)
    session.notebookSelected(home)
    let first = try #require(session.list.rows.first).id
    #expect(session.noteSelected(first))
    #expect(session.availability(of: .noteHistory).value == .enabled)
  }
}
