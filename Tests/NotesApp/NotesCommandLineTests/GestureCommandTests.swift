import Airframe
import AirframeTesting
import Foundation
import NotesCommandLine
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

/// The commands that change one notebook or note, each run as the built `notes` program on
/// the sample library: what they save, what they print, and that a refusal saves nothing.
///
/// The samples: notebooks Home (1), Ideas (2) and Work (3); notes 4 "Welcome to Notes"
/// (Work, pinned), 5 "Meeting agenda" (Work), 6 "Groceries" and 7 "Weekend" (Home),
/// 8 "Book list" and 9 "App ideas" (Ideas).
@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct GestureCommandTests {
  private func notes(
    _ arguments: [String], input: Data = Data(), environment: [String] = [],
    in library: TestLibrary
  ) throws -> CommandResult {
    let program = try #require(Programs.built("notes"), "the notes program is not built")
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return try Programs.run(
      program, arguments + ["--database", library.path], input: input,
      environment: ["HOME=\(library.folder)", "PATH=\(path)"] + environment,
      folder: library.folder)
  }

  private let groceries = NoteID(rawValue: 6)
  private let home = NotebookID(rawValue: 1)
  private let work = NotebookID(rawValue: 3)

  @Test func notebookAddPrintsTheNewIdAndRefusesADuplicateName() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    #expect(
      try notes(["notebook", "add", "Trips"], in: library)
        == CommandResult(status: 0, output: "10\n", errors: ""))
    #expect(try library.state().notebooks[NotebookID(rawValue: 10)]?.title == "Trips")
    let before = try library.state()
    let duplicate = try notes(["notebook", "add", " trips "], in: library)
    #expect(duplicate.status == 65)
    #expect(duplicate.errors.contains("Trips"))
    #expect(try library.state() == before)
  }

  @Test func notebookRenameMatchesTheNameIgnoringCase() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    #expect(try notes(["notebook", "rename", "home", "House"], in: library).status == 0)
    #expect(try library.state().notebooks[home]?.title == "House")
    #expect(try notes(["notebook", "rename", "Nowhere", "X"], in: library).status == 66)
    let refused = try notes(["notebook", "rename", "House", "work"], in: library)
    #expect(refused.status == 65)
    #expect(try library.state().notebooks[home]?.title == "House")
  }

  @Test func notebookDeleteNeedsYesWhenItHasNotes() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    let refused = try notes(["notebook", "delete", "Home"], in: library)
    #expect(refused.status == 65)
    #expect(
      refused.errors
        == "notes: the notebook \"Home\" has 2 notes; --yes deletes it with its notes\n")
    #expect(try library.state() == before)
    #expect(try notes(["notebook", "delete", "Home", "--yes"], in: library).status == 0)
    let after = try library.state()
    #expect(after.notebooks[home] == nil)
    #expect(after.notes.count == 4)
    // An empty notebook needs no --yes.
    #expect(try notes(["notebook", "add", "Empty"], in: library).status == 0)
    #expect(try notes(["notebook", "delete", "empty"], in: library).status == 0)
    #expect(try library.state().notebooks.count == 2)
  }

  @Test func renameMoveAndDeleteANote() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    #expect(try notes(["rename", "6", "Shopping"], in: library).status == 0)
    #expect(try library.state().notes[groceries]?.title == "Shopping")
    #expect(try notes(["move", "6", "work"], in: library).status == 0)
    #expect(try library.state().notes[groceries]?.notebookID == work)
    #expect(try notes(["move", "6", "Work"], in: library).status == 0)  // already there
    #expect(try notes(["move", "6", "Nowhere"], in: library).status == 66)
    #expect(try notes(["delete", "6"], in: library).status == 0)
    #expect(try library.state().notes[groceries] == nil)
    let missing = try notes(["delete", "6"], in: library)
    #expect(missing == CommandResult(status: 66, output: "", errors: "notes: no note with id 6\n"))
  }

  @Test func deleteMovesANoteToRecentlyDeletedAndRestoreBringsItBack() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    #expect(
      try notes(["delete", "6"], in: library)
        == CommandResult(
          status: 0,
          output: "moved 6 \"Groceries\" to Recently Deleted; `notes restore 6` brings it back\n",
          errors: ""))
    let trash = try notes(["trash"], in: library)
    #expect(trash.status == 0)
    #expect(trash.output.hasPrefix("6\tHome\tGroceries\t20"), "\(trash.output)")
    let listed = try notes(["trash", "--json"], in: library)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
    #expect(json.count == 1 && json[0]["id"] as? Int == 6 && json[0]["deleted"] != nil)

    // Home deleted too, now empty: the restore recreates it.
    #expect(try notes(["delete", "7"], in: library).status == 0)
    #expect(try notes(["notebook", "delete", "Home"], in: library).status == 0)
    #expect(
      try notes(["restore", "6"], in: library)
        == CommandResult(status: 0, output: "restored 6 \"Groceries\" to \"Home\"\n", errors: ""))
    let restored = try library.state()
    let note = try #require(restored.notes[groceries])
    #expect(
      note
        == Note(
          id: groceries, notebookID: note.notebookID, title: "Groceries",
          body: before.notes[groceries]!.body, created: before.notes[groceries]!.created,
          modified: before.notes[groceries]!.modified, isPinned: false))
    #expect(restored.notebooks[note.notebookID]?.title == "Home")
    #expect(
      try notes(["restore", "6"], in: library)
        == CommandResult(
          status: 66, output: "", errors: "notes: no note with id 6 in Recently Deleted\n"))

    // Emptying asks for --yes, then goes for good.
    let unconfirmed = try notes(["trash", "empty"], in: library)
    #expect(unconfirmed.status == 65)
    #expect(
      unconfirmed.errors == "notes: Recently Deleted holds 1 note; --yes deletes it for good\n")
    #expect(try library.state().recentlyDeleted.count == 1)
    #expect(
      try notes(["trash", "empty", "--yes"], in: library)
        == CommandResult(status: 0, output: "deleted 1 note for good\n", errors: ""))
    #expect(try library.state().recentlyDeleted.count == 0)
    #expect(try notes(["trash"], in: library) == CommandResult(status: 0, output: "", errors: ""))
  }

  @Test func trashKeepPrintsAndSetsHowLongDeletedNotesAreKept() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    #expect(
      try notes(["trash", "keep"], in: library)
        == CommandResult(status: 0, output: "Recently Deleted keeps notes 30 days\n", errors: ""))
    #expect(
      try notes(["trash", "keep", "1"], in: library)
        == CommandResult(status: 0, output: "Recently Deleted keeps notes 1 day\n", errors: ""))
    #expect(try library.state().recentlyDeletedDays == 1)
    // Out of range: refused (65), and nothing changes.
    #expect(
      try notes(["trash", "keep", "400"], in: library)
        == CommandResult(
          status: 65, output: "",
          errors: "notes: Recently Deleted keeps notes from 1 to 365 days, not 400.\n"))
    #expect(try library.state().recentlyDeletedDays == 1)
    #expect(try notes(["trash", "keep", "x"], in: library).status == 64)
  }

  @Test func aRefusedRenameSavesNothingAndSaysWhy() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    let empty = try notes(["rename", "6", "  "], in: library)
    #expect(empty.status == 65)
    #expect(empty.errors == "notes: The note title must not be empty.\n")
    let long = try notes(["rename", "6", String(repeating: "x", count: 201)], in: library)
    #expect(long.status == 65)
    #expect(try library.state() == before)
  }

  @Test func pinAndUnpinSetThePinWhateverItWas() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    #expect(try notes(["pin", "6"], in: library).status == 0)
    #expect(try library.state().notes[groceries]?.isPinned == true)
    #expect(try notes(["pin", "6"], in: library).status == 0)  // stays pinned
    #expect(try library.state().notes[groceries]?.isPinned == true)
    #expect(try notes(["unpin", "6"], in: library).status == 0)
    #expect(try library.state().notes[groceries]?.isPinned == false)
    #expect(try notes(["unpin", "6"], in: library).status == 0)
    #expect(try library.state().notes[groceries]?.isPinned == false)
    #expect(try notes(["pin", "99"], in: library).status == 66)
  }

  @Test func editSavesWhatTheEditorWrote() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let edited = try notes(
      ["edit", "6"], environment: ["EDITOR=sed -i 's/Milk/Oat milk/'"], in: library)
    #expect(edited == CommandResult(status: 0, output: "", errors: ""))
    #expect(try library.state().notes[groceries]?.body.hasPrefix("Oat milk\nEggs") == true)
    // $VISUAL comes first; an editor that fails saves nothing.
    let before = try library.state()
    let failed = try notes(
      ["edit", "6"], environment: ["VISUAL=false", "EDITOR=sed -i s/Eggs/Ham/"], in: library)
    #expect(failed.status == 1)
    #expect(failed.errors.contains("nothing was saved"))
    #expect(try library.state() == before)
    // No editor at all: a usage error naming the way out.
    let none = try notes(["edit", "6"], in: library)
    #expect(none.status == 64)
    #expect(none.errors.contains("--body -"))
  }

  /// An editor command that records its file's path, the file's and its folder's modes in
  /// `seen`, then runs `action` (shell), then appends a line to the file.
  ///
  /// The script is read by `/bin/sh`, not executed itself: another test's child process,
  /// forked while the script was being written, may still hold it open for writing, and
  /// executing a file open for writing fails ("Text file busy").
  private func editor(in library: TestLibrary, _ action: String = "") throws -> String {
    let script = library.file("editor.sh")
    let text = """
      #!/bin/sh
      stat -c %a "$(dirname "$1")" > \(library.file("seen"))
      stat -c %a "$1" >> \(library.file("seen"))
      printf '%s\\n' "$1" >> \(library.file("seen"))
      \(action)
      printf '\\nseen by the editor' >> "$1"

      """
    try Data(text.utf8).write(to: URL(fileURLWithPath: script))
    return "/bin/sh \(script)"
  }

  @Test func editWritesTheBodyToAPrivateUnguessableFileRemovedWhateverHappens() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let temporary = library.file("tmp")
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
    var folders: Set<String> = []
    for run in 0..<2 {
      let script = try editor(in: library)
      let edited = try notes(
        ["edit", "6"], environment: ["EDITOR=\(script)", "TMPDIR=\(temporary)"], in: library)
      #expect(edited.status == 0, "\(edited.errors)")
      let seen = try #require(FileManager.default.contents(atPath: library.file("seen")))
        .split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
      #expect(seen.count == 3)
      #expect(seen.first == "700", "the folder is the owner's only")
      #expect(seen.dropFirst().first == "600", "the file is the owner's only")
      guard let file = seen.last else { continue }
      let folder = (file as NSString).deletingLastPathComponent
      #expect(folder.hasPrefix(temporary + "/notes-edit-"))
      // Not the process id: a name no one can make beforehand.
      #expect(folder.count == (temporary + "/notes-edit-").count + 8)
      folders.insert(folder)
      #expect(!FileManager.default.fileExists(atPath: folder), "run \(run) left \(folder)")
      #expect(try library.state().notes[groceries]?.body.hasSuffix("seen by the editor") == true)
    }
    #expect(folders.count == 2)
    // An editor that fails, and one interrupted by Ctrl-C (the interrupt reaches the whole
    // foreground group: notes ignores it while the editor runs, the editor does not):
    // nothing is saved, and nothing is left behind.
    let before = try library.state()
    let interrupt = """
      notes=$(awk '{print $4}' /proc/$PPID/stat)
      kill -INT "$notes" "$PPID" $$
      """
    for (action, status) in [("exit 3", "3"), (interrupt, "130")] {
      let script = try editor(in: library, action)
      let failed = try notes(
        ["edit", "6"], environment: ["EDITOR=\(script)", "TMPDIR=\(temporary)"], in: library)
      #expect(failed.status == 1, "\(failed.errors)")
      #expect(failed.errors.contains("exited with status \(status); nothing was saved"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
      #expect(try library.state() == before)
    }
  }

  @Test func editReadsTheBodyFromStandardInput() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let result = try notes(
      ["edit", "6", "--body", "-"], input: Data("Bread\nButter\n".utf8), in: library)
    #expect(result.status == 0)
    #expect(try library.state().notes[groceries]?.body == "Bread\nButter\n")
    let before = try library.state()
    let invalid = try notes(
      ["edit", "6", "--body", "-"], input: Data([0x41, 0xFF]), in: library)
    #expect(invalid == .standardInputNotUTF8)
    #expect(try library.state() == before)
    #expect(try notes(["edit", "6", "--body", "text"], in: library).status == 64)
  }

  @Test func helpListsEveryCommand() throws {
    for command in [
      "list", "add", "show", "search", "export", "import", "rename ID", "move ID", "pin ID",
      "unpin ID", "delete ID", "edit ID", "notebook add", "notebook rename", "notebook delete",
      "server init",
    ] {
      #expect(NotesCommandLine.usage.contains("  \(command)"), "help lists \(command)")
    }
  }
}
