import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
@_spi(Instrumentation) import NotesHost
import NotesStorage
import NotesTestSupport
import Testing

@testable import NotesPresentation

/// `NotesLibrary`: the one way a program opens a library, starts it and closes it.
@Suite(.noLiveBindings)
@MainActor
struct NotesLibraryTests {
  @Test func aNewLibraryGetsTheSamplesOnlyWhenAskedAndAnOldOneNever() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let apps = try NotesLibrary.open(path: folder.file("apps.sqlite"), samples: .whenNew)
    #expect(apps.session.noteCount > 0)
    #expect(apps.session.notebooks.value.count > 0)
    apps.close()
    let script = try NotesLibrary.open(path: folder.file("script.sqlite"), samples: .never)
    #expect(script.session.noteCount == 0)
    script.close()
    // An existing empty library stays empty, even for the apps.
    let reopened = try NotesLibrary.open(path: folder.file("script.sqlite"), samples: .whenNew)
    #expect(reopened.session.noteCount == 0)
    #expect(reopened.location.path == folder.file("script.sqlite"))
    reopened.close()
  }

  @Test func closingSavesTheDraftBeforeTheDatabaseClosesAndTwiceIsHarmless() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let library = try NotesLibrary.open(path: path, samples: .whenNew)
    library.start()
    #expect(!library.isSyncingLive)
    let note = try #require(library.session.selectedNote.value)
    let body = library.session.editorState.value.body
    // A draft that only the close can save: an edit without the save a key press makes.
    library.session.editor.userEditedBody("draft " + body)
    #expect(library.session.editorState.value.isDirty)
    library.close()
    library.close()
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    #expect(try database.loadState().notes[note]?.body == "draft " + body)
  }

  @Test func anotherWritersCommitReachesTheSessionThroughTheWatcher() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let library = try NotesLibrary.open(path: path, samples: .whenNew)
    defer { library.close() }
    library.start(watching: .polling(every: .seconds(3_600)))
    let other = try NotesLibrary.open(path: path, samples: .never)
    #expect(other.session.notebookCreated(titled: "From elsewhere").isCommitted)
    other.close()
    #expect(!library.session.notebooks.value.contains { $0.title == "From elsewhere" })
    #expect(library.catchUp())
    #expect(library.session.notebooks.value.contains { $0.title == "From elsewhere" })
    #expect(library.model.state.notebooks.elements.contains { $0.title == "From elsewhere" })
  }

  @Test func aFileThatCannotBeOpenedThrowsAndLeavesNothingOpen() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("not-a-library.sqlite")
    try Data("this is not SQLite, only text long enough to look like a header".utf8)
      .write(to: URL(fileURLWithPath: path))
    #expect(throws: (any Error).self) {
      _ = try NotesLibrary.open(path: path, samples: .whenNew)
    }
  }
}

/// A library with a session for each of several presentations.
@Suite(.noLiveBindings)
@MainActor
struct LibrarySessionsTests {
  @Test func eachSessionStartsWhereItsOpenerIsAndTheLibrarySavesEveryDraftAsItCloses()
    throws
  {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let library = try NotesLibrary.open(path: path, samples: .whenNew)
    let first = library.openSession()
    first.notebookSelected(NotebookID(rawValue: 2))
    let second = library.openSession(showing: first)
    #expect(second.selectedNotebook.value == NotebookID(rawValue: 2))
    #expect(second.selectedNote.value == first.selectedNote.value)
    let two = try #require(second.selectedNote.value)
    first.notebookSelected(nil)
    let one = try #require(first.list.rows.first { $0.id != two }).id
    #expect(first.noteSelected(one))
    #expect(second.selectedNote.value == two)
    #expect(one != two)
    // Drafts only the close can save: edits without the save a key press makes.
    first.editor.userEditedBody("first draft")
    second.editor.userEditedBody("second draft")
    library.close()
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    let notes = try database.loadState().notes
    #expect(notes[one]?.body == "first draft")
    #expect(notes[two]?.body == "second draft")
  }
}
