import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTerminalUI
import NotesTestSupport
import Testing

@testable import NotesPresentation

/// Each gesture of the terminal app, driven by key presses, checked on the screen and in
/// the model; after every step all panes agree.
@Suite(.noLiveBindings)
@MainActor
struct GestureTests {
  @Test func createNotebookThenNoteThenType() throws {
    let app = makeApp()
    app.press(.character("N"))
    app.type("Travel")
    #expect(app.screen()[22].hasPrefix(" New notebook title: Travel"))
    app.press(.enter)
    #expect(app.session.model.state.notebooks.count == 4)
    #expect(app.screen()[0].hasPrefix(" Travel "))
    app.expectPanesAgree()

    app.press(.character("n"))
    app.type("Packing list")
    app.press(.enter)
    #expect(app.focus == .editor)
    let id = NoteID(rawValue: app.session.model.state.lastAssignedID)
    #expect(app.session.model.state.notes[id]?.title == "Packing list")
    app.type("Socks")
    app.press(.enter)
    app.type("Passport")
    #expect(app.session.model.state.notes[id]?.body == "Socks\nPassport")
    let lines = app.screen()
    #expect(lines.contains { $0.contains("│ Socks") })
    #expect(lines.contains { $0.contains("│ Passport") })
    #expect(lines[0].hasPrefix(" Travel — Packing list"))
    #expect(lines.contains { $0.hasPrefix(" Travel           1 │") })
    app.expectPanesAgree()

    // The typing run undoes as one step, then the note, then the notebook.
    app.press(.escape, .character("u"))
    #expect(app.session.model.state.notes[id]?.body == "")
    app.press(.character("u"))
    #expect(app.session.model.state.notes[id] == nil)
    app.expectPanesAgree()
    app.press(.character("U"))
    #expect(app.session.model.state.notes[id]?.body == "")
    app.press(.control("r"))
    #expect(app.session.model.state.notes[id]?.body == "Socks\nPassport")
    app.expectPanesAgree()
    app.shutdown()
  }

  @Test func renameNoteInPlace() {
    let app = makeApp()
    app.press(.character("r"))
    app.press(.control("u"))
    app.type("Hello")
    // The field replaces the selected row while it is edited.
    #expect(app.screen()[2].contains("│ Hello▏"))
    app.press(.enter)
    #expect(app.session.model.state.notes[NoteID(rawValue: 4)]?.title == "Hello")
    #expect(app.screen()[0].hasPrefix(" Work — Hello"))
    app.expectPanesAgree()
    app.shutdown()
  }

  @Test func invalidTitleIsReportedAndChangesNothing() {
    let app = makeApp()
    let revision = app.session.model.revision
    app.press(.character("r"), .control("u"), .enter)
    #expect(app.session.model.revision == revision)
    #expect(app.interaction != .browsing)
    #expect(app.screen()[23].contains("empty"))
    app.press(.escape, .character("N"))
    app.type("work")
    app.press(.enter)
    #expect(app.session.model.revision == revision)
    #expect(app.screen()[23].lowercased().contains("already"))
    app.press(.escape)
    #expect(app.interaction == .browsing)
    #expect(app.session.model.revision == revision)
    app.shutdown()
  }

  @Test func moveNoteUpdatesBothCounts() {
    let app = makeApp()
    // The selected note (Welcome) is in Work; the picker lists Home and Ideas.
    app.press(.character("m"), .down, .enter)
    #expect(
      app.session.model.state.notes[NoteID(rawValue: 4)]?.notebookID == NotebookID(rawValue: 2))
    let lines = app.screen()
    #expect(lines.contains { $0.hasPrefix(" Ideas            3 │") })
    #expect(lines.contains { $0.hasPrefix(" Work             1 │") })
    app.expectPanesAgree()
    app.shutdown()
  }

  @Test func deletingANotebookWithNotesAsksFirst() {
    let app = makeApp()
    app.press(.tab, .tab, .down)  // sidebar, "Home"
    #expect(app.session.sidebar.selectedNotebook.value == NotebookID(rawValue: 1))
    app.press(.character("d"))
    #expect(app.screen().contains { $0.contains("Delete \"Home\" and its 2 notes?") })
    app.press(.character("n"))
    #expect(app.session.model.state.notebooks[NotebookID(rawValue: 1)] != nil)
    #expect(!app.screen().contains { $0.contains("Delete \"Home\"") })
    app.press(.character("d"), .character("y"))
    #expect(app.session.model.state.notebooks[NotebookID(rawValue: 1)] == nil)
    #expect(app.session.model.state.notes.count == 4)
    app.expectPanesAgree()
    app.press(.character("u"))
    #expect(app.session.model.state.notes.count == 6)
    app.expectPanesAgree()
    app.shutdown()
  }

  @Test func deleteNoteAndSearchAsYouType() {
    let app = makeApp()
    app.press(.character("/"))
    app.type("gro")
    #expect(app.screen()[1].contains("NOTES 1 "))
    app.type("x")
    #expect(app.screen()[1].contains("NOTES 0 "))
    app.press(.backspace, .enter)
    #expect(app.session.noteList.search == "gro")
    app.press(.down, .character("d"))
    #expect(app.session.model.state.notes.count == 5)
    #expect(app.screen()[1].contains("NOTES 0 "))
    app.press(.escape)
    #expect(app.screen()[1].contains("NOTES 5 "))
    app.expectPanesAgree()
    app.shutdown()
  }

  @Test func theListKeepsASelectionWhileItHasRows() {
    let app = makeApp()
    app.press(.down, .down)  // the third note: "Book list"
    #expect(app.session.noteList.lens.selection.value == NoteID(rawValue: 8))
    app.press(.character("d"))
    // Its neighbour moves into its place and is selected and shown.
    #expect(app.session.noteList.lens.selection.value == NoteID(rawValue: 7))
    #expect(app.screen()[1].contains("│ Weekend"))
    app.press(.tab, .tab, .down)  // the sidebar: Home
    #expect(app.session.noteList.lens.selection.value == app.session.noteList.lens.row(at: 0).id)
    app.expectPanesAgree()
    app.shutdown()
  }

  @Test func recentlyDeletedRestoresANoteAndDeletesOneForGoodAfterAsking() {
    let app = makeApp()
    app.press(.down, .down)  // the third note: "Book list"
    let book = NoteID(rawValue: 8)
    #expect(app.session.noteList.lens.selection.value == book)
    app.press(.character("d"), .down, .character("d"))
    #expect(app.session.recentlyDeleted.count == 2)
    // T selects the sidebar's last entry and gives its list the keyboard.
    app.press(.character("T"))
    #expect(app.session.sidebarSelection.value == .recentlyDeleted)
    #expect(app.focus == .list)
    let shown = app.screen(height: 30)
    #expect(shown[0].hasPrefix(" Recently Deleted "))
    #expect(shown.contains { $0.contains("│ Ideas · ") })
    #expect(shown.contains { $0.contains("Notes here go for good") })
    #expect(shown.contains { $0.contains("30 days.") }, "\(shown.joined(separator: "\n"))")
    app.expectPanesAgree()
    // Enter restores the highlighted note: down to Book list (the latest deletion is first;
    // both here have the session's fixed time, and then the larger id is). The sidebar
    // stays on Recently Deleted, for the next one.
    let row = app.session.recentlyDeleted.firstIndex { $0.id == book } ?? 0
    for _ in 0..<row { app.press(.down) }
    #expect(app.screen(height: 30)[1].contains("│ Book list — deleted: Enter restores it"))
    app.press(.enter)
    #expect(app.session.recentlyDeleted.count == 1)
    #expect(app.session.sidebarSelection.value == .recentlyDeleted)
    #expect(app.screen().last?.contains("Restored “Book list” to “Ideas”") == true)
    app.expectPanesAgree()
    // x asks first; anything but y keeps it; y deletes it for good.
    app.press(.character("x"))
    #expect(app.screen(height: 30)[28].contains("for good? y: delete"))
    app.press(.character("n"))
    #expect(app.interaction == .browsing)
    #expect(app.session.recentlyDeleted.count == 1)
    app.press(.character("x"), .character("y"))
    #expect(app.session.recentlyDeleted.isEmpty)
    #expect(app.screen().contains { $0.contains("Recently Deleted is empty.") })
    app.expectPanesAgree()
    // Esc goes back to the notes, where Book list is listed again.
    app.press(.escape)
    #expect(app.session.sidebarSelection.value == .allNotes)
    #expect(app.focus == .list)
    #expect(app.session.list.row(for: book) != nil)
    // E asks whether to empty it; y does, and Undo puts the notes back.
    app.press(.character("d"), .down, .character("d"))
    #expect(app.session.recentlyDeleted.count == 2)
    app.press(.character("T"), .character("E"))
    #expect(
      app.screen(height: 30)[28].contains(
        "Delete all 2 notes in Recently Deleted for good? y: delete"))
    app.press(.escape)
    #expect(app.session.recentlyDeleted.count == 2)
    app.press(.character("E"), .character("y"))
    #expect(app.session.recentlyDeleted.isEmpty)
    #expect(app.screen().last?.contains("Deleted 2 notes for good") == true)
    app.press(.character("u"))
    #expect(app.session.recentlyDeleted.count == 2)
    app.expectPanesAgree()
    app.press(.character("E"), .character("y"))
    // Empty, T says so instead of opening it; the sidebar still reaches it.
    app.press(.backTab, .home, .character("T"))
    #expect(app.session.sidebarSelection.value == .allNotes)
    #expect(app.screen().last?.contains("Recently Deleted is empty.") == true)
    app.press(.end)
    #expect(app.session.sidebarSelection.value == .recentlyDeleted)
    app.expectPanesAgree()
    app.shutdown()
  }

  @Test func recentlyDeletedIsReadOnlyAndTheNoteCommandsWaitForTheNotes() {
    let app = makeApp()
    app.press(.character("d"), .character("T"))
    // The editor cannot take the keyboard, and no note command acts on the hidden list.
    app.press(.tab)
    #expect(app.focus == .sidebar)
    app.press(.backTab)
    #expect(app.focus == .list)
    app.press(.backTab, .tab)
    #expect(app.focus == .list)
    app.press(.character("p"))
    #expect(
      app.screen().last?.contains(
        "Recently Deleted is shown: choose All notes or a notebook first.") == true)
    app.press(.character("m"), .character("H"))
    #expect(app.interaction == .browsing)
    // A search is the notes': it goes back to "All notes".
    app.press(.character("/"))
    #expect(app.session.sidebarSelection.value == .allNotes)
    app.press(.escape)
    app.expectPanesAgree()
    app.shutdown()
  }

  @Test func recentlyDeletedKeepsItsHighlightOnItsNoteWhileOthersComeAndGo() {
    let app = makeApp()
    app.press(.character("d"), .character("d"), .character("T"), .down)
    let highlighted = app.session.recentlyDeletedEntry(at: 1).id
    // Another window of the library deletes a note, which heads Recently Deleted.
    let other = NotesSession(library: app.session.library)
    #expect(other.noteDeleted().isCommitted)
    #expect(app.highlightedDeletedIndex == 2)
    #expect(app.session.recentlyDeletedEntry(at: 2).id == highlighted)
    // Restored, the note leaves; the one now in its place is highlighted.
    app.press(.enter)
    #expect(app.session.recentlyDeletedIndex(of: highlighted) == nil)
    #expect(app.highlightedDeletedIndex == 1)
    app.expectPanesAgree()
    other.close()
    app.shutdown()
  }

  @Test func recentlyDeletedShowsTheEntriesAroundTheHighlightedOneInASmallWindow() {
    let app = makeApp()
    app.session.notebookSelected(NotebookID(rawValue: 1))
    for number in 1...4 { #expect(app.session.noteCreated(titled: "Extra \(number)").isCommitted) }
    app.session.notebookSelected(nil)
    // Every note deleted: ten entries, most recent first.
    while app.session.selectedNote.value != nil { app.press(.character("d")) }
    let count = app.session.recentlyDeletedCount
    #expect(count == 10)
    app.press(.character("T"))
    for _ in 0..<(count - 1) { app.press(.down) }
    // Ten rows: room for two entries in the list (and how long they are kept), the last
    // ones.
    let shown = app.screen(height: 10)
    let last = app.session.recentlyDeletedEntry(at: count - 1).note.title
    let first = app.session.recentlyDeletedEntry(at: 0).note.title
    #expect(shown.contains { $0.contains("│ \(last) ") }, "\(shown.joined(separator: "\n"))")
    #expect(!shown.contains { $0.contains("│ \(first) ") })
    app.press(.enter)
    #expect(app.session.recentlyDeletedCount == count - 1)
    // The highlight stays on the last one there is.
    #expect(app.highlightedDeletedIndex == count - 2)
    app.session.notebookSelected(nil)
    #expect(app.session.list.rows.map(\.title) == [last])
    app.expectPanesAgree()
    app.shutdown()
  }

  @Test func theFocusedPaneIsTheSessionsAndNamesDeleteAndRename() {
    let app = makeApp()
    func label(_ command: SessionCommand) -> String? {
      app.session.menu.value.first { $0.name == command.name }?.label
    }
    #expect(app.session.focusedPane.value == .list)
    #expect(label(.delete) == "Delete Note")
    app.press(.tab, .tab)  // list → editor → sidebar
    #expect(app.session.focusedPane.value == .sidebar)
    #expect(label(.delete) == "Delete Notebook")
    #expect(label(.rename) == "Rename Notebook")
    // The palette's Delete row says what d does here.
    app.press(.character(":"))
    #expect(
      app.screen(height: 30).contains {
        $0.contains("Delete Notebook") && $0.contains("d or Delete")
      })
    app.press(.escape)
    app.press(.tab)
    #expect(app.session.focusedPane.value == .list)
    #expect(label(.rename) == "Rename Note")
    app.shutdown()
  }

  @Test func paletteShowsDisabledCommandsWithTheirReasonAndRefusesThem() {
    let app = makeApp()
    app.press(.character(":"))
    let lines = app.screen(height: 30)
    #expect(lines.contains { $0.contains("Undo") && $0.contains("— Nothing to undo.") })
    #expect(lines.contains { $0.contains("Delete Notebook") && $0.contains("— Select a notebook") })
    // Move down to "Undo" and run it: refused with the reason.
    let undo = SessionCommand.allCases.firstIndex(of: .undo)!
    for _ in 0..<undo { app.press(.down) }
    app.press(.enter)
    #expect(app.interaction == .browsing)
    #expect(app.screen()[23].contains("Nothing to undo."))
    // Once there is a step to undo, the palette names it.
    app.press(.character("d"), .character(":"))
    #expect(app.screen(height: 30).contains { $0.contains("Undo Delete Note") })
    app.shutdown()
  }

  @Test func helpListsEveryKeyBinding() {
    let app = makeApp()
    app.press(.character("?"))
    let lines = app.screen(height: 30)
    for binding in KeyBindings.all {
      #expect(lines.contains { $0.contains(binding.keys) && $0.contains(binding.action) })
    }
    app.press(.character("x"))
    #expect(app.interaction == .browsing)
    app.shutdown()
  }

  @Test func syncProgressReachesTitleAndStatusOnceTheSyncHasLastedTheirDelay() async throws {
    let clock = TestScheduler()
    let model = Model(SampleLibrary.state(now: fixedDate))
    let sync = SyncDriver(
      model: model,
      service: SimulatedSyncService(steps: 2, stepDelay: .seconds(1), scheduler: clock),
      scheduler: clock)
    let session = NotesSession(model: model, sync: sync, now: { fixedDate }, scheduler: clock)
    let app = TerminalApplication(session: session)
    app.press(.character("s"))
    // The model says syncing at once; the bars wait half a second, so a sync of one edit
    // never shows. This one takes two seconds.
    #expect(app.session.isSyncing)
    #expect(!app.screen()[23].contains("Syncing") && !app.screen()[0].contains("Syncing"))
    // The sync's step and the two bars' delays sleep on the test's clock.
    try await clock.waitForSleepers(3, within: .seconds(60))
    await clock.advance(by: .milliseconds(500))
    #expect(app.screen()[23].contains("Syncing 0%"))
    #expect(app.screen()[0].contains("Syncing 0%"))
    await clock.advance(by: .milliseconds(500))
    #expect(app.screen()[23].contains("Syncing 50%"))
    await clock.advance(by: .seconds(1))
    #expect(!app.session.isSyncing)
    #expect(app.screen()[23].contains("Synced"))
    #expect(!app.screen()[0].contains("Sync"))
    app.shutdown()
  }

  @Test func quitSavesTheDraftAndEndsEveryBinding() {
    let app = makeApp()
    app.press(.enter)
    #expect(app.focus == .editor)
    app.type("!")
    app.press(.control("q"))
    #expect(app.isFinished)
    app.shutdown()
    #expect(app.session.model.state.notes[NoteID(rawValue: 4)]?.body.hasSuffix("palette.!") == true)
  }
}

/// Search as you type, as people type it: quotes and punctuation never hide words.
@Suite(.noLiveBindings)
@MainActor
struct SearchGestureTests {
  /// The titles the list shows after typing `query` in the search prompt.
  func titles(searching query: String) -> [String] {
    let app = makeApp()
    app.press(.character("/"))
    app.type(query)
    let titles = (0..<app.session.noteList.lens.count).map {
      app.session.noteList.lens.row(at: $0).title
    }
    app.shutdown()
    return titles
  }

  @Test(arguments: ["notes\"", "\"notes\"", "notes'", "(notes)", "no"])
  func quotesAroundAWordFindWhatTheWordFinds(_ query: String) {
    let plain = titles(searching: query.filter { $0.isLetter })
    #expect(!plain.isEmpty)
    #expect(titles(searching: query) == plain)
  }

  @Test func everyWordMustMatchSomewhereInTitleOrBody() {
    #expect(titles(searching: "welcome sqlite") == ["Welcome to Notes"])
    #expect(titles(searching: "welcome, milk").isEmpty)
    // A search with no letter or digit is searched for as it is.
    #expect(titles(searching: "\"'").isEmpty)
    #expect(titles(searching: "★").isEmpty)
  }
}

/// The note open in the editor deleted elsewhere (here, by another session of the library,
/// as by another window): the editor keeps it, says so, and takes no keys into any note.
@Suite(.noLiveBindings)
@MainActor
struct DeletedElsewhereTests {
  @Test func theEditorKeepsANoteDeletedElsewhereAndTypesIntoNoOtherNote() throws {
    let app = makeApp()
    app.press(.enter)
    #expect(app.focus == .editor)
    let open = try #require(app.session.selectedNote.value)
    let other = NotesSession(library: app.session.library)
    #expect(other.noteSelected(open))
    #expect(other.noteDeleted().isCommitted)
    other.close()
    let notes = app.session.model.state.notes

    let screen = app.screen()
    #expect(screen.contains { $0.contains("— deleted elsewhere") })
    #expect(screen[23].contains("was deleted elsewhere — Ctrl-K keeps it as a new note"))
    app.type("typed after the deletion")
    #expect(app.session.model.state.notes == notes, "a key reached a note")
    #expect(app.screen()[23].contains("The note was deleted."))
    // Ctrl-K keeps it as a new note, open where it was.
    let title = app.session.editorState.value.title
    app.press(.control("k"))
    let kept = try #require(app.session.selectedNote.value)
    #expect(kept != open)
    #expect(app.session.model.state.notes[kept]?.title == title)
    #expect(app.focus == .editor)
    #expect(!app.session.editorState.value.isDeleted)
    #expect(app.session.undoRequested().isCommitted)
    // Down in the list chooses a note again; it opens in the editor.
    app.press(.escape)
    #expect(app.focus == .list)
    app.press(.down)
    let chosen = try #require(app.session.selectedNote.value)
    #expect(app.session.editorState.value.noteID == chosen)
    #expect(!app.session.editorState.value.isDeleted)
    app.shutdown()
  }
}
