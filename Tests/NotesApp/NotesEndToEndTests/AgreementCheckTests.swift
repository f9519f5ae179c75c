// The agreement checks themselves: on a real screen of the sample library they find
// nothing to report, and they do report a database or a screen that tells a different
// story — so a passing end-to-end test means the panes agree, not that the checks are
// blind.

import AirframeTesting
import Foundation
import Testing

@Suite(.noLiveBindings, .serialized, .timeLimit(.minutes(10)))
struct AgreementCheckTests {
  /// The barrier every observation waits for: keys the program has not read yet count as
  /// activity, however still the screen is (under ThreadSanitizer a random burst can
  /// outlast a still screen, and an observation would be taken half-way through it).
  @Test func keysNotYetReadAreActivity() async throws {
    let (notes, start) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    let pid = try #require(notes.pid)
    let idle = try #require(try notes.activity())
    #expect(!idle.hasPendingInput)

    // Stopped, the program reads nothing: the key waits, and the screen cannot change.
    kill(pid, SIGSTOP)
    try notes.tmux.type("j")
    var pending = false
    for _ in 0..<100 where !pending {
      pending = try notes.activity()?.hasPendingInput == true
      if !pending { try await Task.sleep(for: .milliseconds(20)) }
    }
    let screen = try notes.tmux.styledScreen()
    kill(pid, SIGCONT)
    #expect(pending, "a key waiting to be read is not reported")
    #expect(try NotesScreen(screen).selectedListEntry == start.screen.selectedListEntry)

    // Running again, it reads and handles the key; the observation shows its effect.
    let moved = try #require(
      await notes.observe(after: "j") { $0.selectedListEntry != start.screen.selectedListEntry })
    #expect(try notes.activity()?.hasPendingInput == false)
    #expect(moved.library == start.library)
  }

  @Test func theChecksReportEveryKindOfDisagreement() async throws {
    let (notes, start) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    let screen = start.screen
    let library = start.library

    // What the screen says, read back through its highlighting.
    #expect(screen.focusedPane == .list)
    #expect(screen.selectedSidebarEntry?.title == "All notes")
    #expect(screen.selectedListEntry?.title == "Welcome to Notes")
    #expect(screen.list.count == 6)
    #expect(screen.list.filter(\.isPinned).map(\.title) == ["Welcome to Notes"])
    #expect(screen.editorLines.first == "Notes keeps notebooks and notes in one SQLite")
    #expect(Agreement.disagreements(in: screen).isEmpty)
    #expect(Agreement.disagreements(in: screen, with: library).isEmpty)

    // A database that differs in any shown way is reported.
    let welcome = try #require(library.notes.firstIndex { $0.title == "Welcome to Notes" })
    let home = try #require(library.notebooks.firstIndex { $0.title == "Home" })
    var changes: [(String, (inout Library) -> Void)] = [
      ("a notebook renamed", { $0.notebooks[home].title = "House" }),
      ("a note moved", { $0.notes[welcome].notebookID = $0.notebooks[home].id }),
      ("a note unpinned", { $0.notes[welcome].pinned = false }),
      ("a note renamed", { $0.notes[welcome].title = "Welcome" }),
      ("a body edited", { $0.notes[welcome].body = "Edited" }),
      ("a note deleted", { $0.notes.remove(at: welcome) }),
      (
        "an empty notebook added",
        { $0.notebooks.append(Library.Notebook(id: 99, title: "Zebra", created: "")) }
      ),
    ]
    changes.append(
      (
        "the newest note made the oldest",
        { library in
          let newest = library.notes.indices.filter { !library.notes[$0].pinned }
            .max { library.notes[$0].modified < library.notes[$1].modified }!
          library.notes[newest].modified = "2000-01-01T00:00:00.000Z"
        }
      ))
    for (change, apply) in changes {
      var changed = library
      apply(&changed)
      #expect(
        !Agreement.disagreements(in: screen, with: changed).isEmpty, "\(change) went unnoticed")
    }

    // A screen whose panes disagree is reported, without a database where the screen
    // alone tells. (Each edit keeps the row's length, so every character keeps its
    // attributes.)
    for (row, from, to, onScreen) in [
      (29, "6 notes", "7 notes", true), (2, "All notes        6", "All notes        5", true),
      (1, "NOTES 6", "NOTES 5", true), (0, "Welcome to Notes", "Welcome to Mars ", true),
      (1, "│ Welcome to Notes", "│ Welcome to Mars ", true),
      // Which notebook the note is in only the database knows.
      (0, "Work — Welcome", "Home — Welcome", false),
    ] {
      var styled = screen.styled
      let text = styled[row].text
      #expect(text.contains(from), "row \(row) does not show \(from)")
      let edited = text.replacingOccurrences(of: from, with: to)
      try #require(edited.count == text.count)
      styled[row].characters = zip(edited, styled[row].characters).map {
        StyledCharacter(character: $0, style: $1.style)
      }
      let editedScreen = try NotesScreen(styled)
      let problems =
        onScreen
        ? Agreement.disagreements(in: editedScreen)
        : Agreement.disagreements(in: editedScreen, with: library)
      #expect(!problems.isEmpty, "row \(row) showing \(to) instead of \(from) went unnoticed")
    }
  }
}
