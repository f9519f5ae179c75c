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

  /// Opens the library at `path` as a program would some days after a fixed start.
  static func opener(_ path: String) -> (_ after: Double) throws -> NotesLibrary {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
    return { days in
      try NotesLibrary.open(path: path, samples: .whenNew, now: { start + days * 86_400 })
    }
  }

  @Test func openingALibraryDeletesWhatRecentlyDeletedKeptTooLongWithItsHistory() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let open = Self.opener(folder.file("notes.sqlite"))
    var library = try open(0)
    let note = try #require(library.session.selectedNote.value)
    // A history: the text before, and the edit.
    #expect(library.session.bodyTyped("edited").isCommitted)
    let database = try NotesDatabase(path: folder.file("notes.sqlite"))
    defer { database.close() }
    #expect(library.session.noteDeleted().isCommitted)
    library.close()

    // Within the 30 days, it stays.
    #expect(RecentlyDeleted.defaultDays == 30)
    library = try open(29)
    #expect(library.session.recentlyDeleted.map(\.id) == [note])
    library.close()
    // Past them, it goes, with its history.
    let kept = try database.history(of: note)
    #expect(!kept.isEmpty)
    library = try open(31)
    #expect(library.session.recentlyDeleted.isEmpty)
    #expect(try database.recentlyDeletedNotes().isEmpty)
    #expect(try database.history(of: note).isEmpty)
    library.close()
  }

  /// How long Recently Deleted keeps notes is the library's: set by one program, it holds in
  /// another process, after a relaunch, and at the next open's clean-up; undo sets it back.
  @Test func howLongRecentlyDeletedKeepsNotesIsASettingOfTheLibrary() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let open = Self.opener(folder.file("notes.sqlite"))
    var library = try open(0)
    let session = library.session
    #expect(session.recentlyDeletedDays == 30)
    // Out of range: refused with the range, nothing changes.
    for days in [0, 366, -1] {
      guard case .invalid(let reasons) = session.deletedNotesKept(forDays: days) else {
        Issue.record("\(days) days were not refused")
        continue
      }
      #expect(
        reasons.issues.map(\.message) == [
          "Recently Deleted keeps notes from 1 to 365 days, not \(days)."
        ])
      #expect(session.recentlyDeletedDays == 30)
    }
    #expect(session.deletedNotesKept(forDays: 3).isCommitted)
    #expect(session.recentlyDeletedDays == 3)
    #expect(session.undoRequested().isCommitted)
    #expect(session.recentlyDeletedDays == 30)
    #expect(session.redoRequested().isCommitted)
    // Another process sees it.
    let other = try open(0)
    #expect(other.session.recentlyDeletedDays == 3)
    #expect(other.session.deletedNotesKept(forDays: 7).isCommitted)
    #expect(library.catchUp())
    #expect(session.recentlyDeletedDays == 7)
    other.close()

    let note = try #require(session.selectedNote.value)
    #expect(session.noteDeleted().isCommitted)
    library.close()
    // Within the 7 days, it stays; past them, the next open deletes it for good.
    library = try open(6)
    #expect(library.session.recentlyDeletedDays == 7)
    #expect(library.session.recentlyDeleted.map(\.id) == [note])
    library.close()
    library = try open(8)
    #expect(library.session.recentlyDeleted.isEmpty)
    library.close()
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

/// Where the programs keep what their windows showed.
@Suite
struct ViewStateStoreTests {
  let view = SavedViewState(
    notebook: NotebookID(rawValue: 2), search: "milk", sort: .title, note: NoteID(rawValue: 5))

  @Test func eachProgramsWindowsOnEachLibraryComeBack() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = ViewStateStore(path: folder.file("state/airframe-notes/windows.json"))
    #expect(store.windows(of: "desktop", library: "/a.sqlite").isEmpty)
    let windows = [
      SavedWindow(view: view, size: .init(width: 800, height: 500)),
      SavedWindow(view: view, isMaximized: true),
    ]
    store.save(windows, of: "desktop", library: "/a.sqlite")
    store.save([SavedWindow(view: view)], of: "terminal", library: "/a.sqlite")
    store.save([SavedWindow(view: view)], of: "desktop", library: "/b.sqlite")
    #expect(store.windows(of: "desktop", library: "/a.sqlite") == windows)
    #expect(store.windows(of: "terminal", library: "/a.sqlite") == [SavedWindow(view: view)])
    // Saving none forgets the entry and keeps the others.
    store.save([], of: "desktop", library: "/b.sqlite")
    #expect(store.windows(of: "desktop", library: "/b.sqlite").isEmpty)
    #expect(store.windows(of: "desktop", library: "/a.sqlite") == windows)
  }

  @Test func aMalformedFileReadsAsNothingSavedAndIsReplacedWhole() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("windows.json")
    try Data("{ not json".utf8).write(to: URL(fileURLWithPath: path))
    let store = ViewStateStore(path: path)
    #expect(store.windows(of: "terminal", library: "/a.sqlite").isEmpty)
    store.save([SavedWindow(view: view)], of: "terminal", library: "/a.sqlite")
    #expect(store.windows(of: "terminal", library: "/a.sqlite") == [SavedWindow(view: view)])
  }

  @Test func theFileKeepsTheLatestLibrariesOnly() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = ViewStateStore(path: folder.file("windows.json"))
    let count = ViewStateStore.entryLimit + 6
    for index in 0..<count {
      store.save([SavedWindow(view: view)], of: "desktop", library: "/\(index).sqlite")
    }
    #expect(store.windows(of: "desktop", library: "/0.sqlite").isEmpty)
    #expect(store.windows(of: "desktop", library: "/5.sqlite").isEmpty)
    #expect(store.windows(of: "desktop", library: "/6.sqlite").count == 1)
    #expect(store.windows(of: "desktop", library: "/\(count - 1).sqlite").count == 1)
  }

  @Test func theStandardFileFollowsXDGStateHomeElseHome() {
    #expect(
      ViewStateStore.standard(environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/u"]).path
        == "/state/airframe-notes/windows.json")
    // A relative XDG_STATE_HOME is ignored, as the XDG specification asks.
    #expect(
      ViewStateStore.standard(environment: ["XDG_STATE_HOME": "state", "HOME": "/home/u"]).path
        == "/home/u/.local/state/airframe-notes/windows.json")
  }
}
