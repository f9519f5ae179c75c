import Airframe
import AirframeTesting
import Foundation
import NotesCommandLine
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@Suite(.noLiveBindings)
@MainActor
struct AddCommandTests {
  @Test func addsANoteAndPrintsItsID() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let result = library.run(["add", "--notebook", "work", "--title", "  Plan  ", "--body", "a\nb"])
    #expect(result == CommandResult(status: 0, output: "10\n", errors: ""))
    let note = try #require(try library.state().notes[NoteID(rawValue: 10)])
    #expect(note.title == "Plan")
    #expect(note.body == "a\nb")
    #expect(note.notebookID == NotebookID(rawValue: 3))
    #expect(!note.isPinned)
    #expect(
      library.output("list", "--notebook", "Work").hasPrefix(
        "4\tWork\tWelcome to Notes\n10\tWork\tPlan\n"))
  }

  @Test func readsTheBodyFromStandardInputExactly() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let body = "first line\n\ttabbed\r\nünïcødé 三体\n"
    let result = library.run(
      ["add", "--notebook", "Home", "--title", "Piped"], input: Data(body.utf8))
    #expect(result == CommandResult(status: 0, output: "10\n", errors: ""))
    #expect(try library.state().notes[NoteID(rawValue: 10)]?.body == body)
  }

  @Test func doesNotReadATerminalOrWhenBodyIsGiven() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let terminal = CapturedIO(input: Data("typed".utf8), isTerminal: true)
    #expect(
      library.run(["add", "--notebook", "Home", "--title", "T"], captured: terminal).status == 0)
    #expect(terminal.inputReads == 0)
    #expect(try library.state().notes[NoteID(rawValue: 10)]?.body == "")
    let piped = CapturedIO(input: Data("ignored".utf8), isTerminal: false)
    #expect(
      library.run(["add", "--notebook", "Home", "--title", "U", "--body", ""], captured: piped)
        .status == 0)
    #expect(piped.inputReads == 0)
    #expect(try library.state().notes[NoteID(rawValue: 11)]?.body == "")
  }

  @Test func invalidUTF8OnStandardInputSavesNothing() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    let result = library.run(
      ["add", "--notebook", "Home", "--title", "T"], input: Data([0x68, 0x69, 0xFF, 0xC3]))
    #expect(
      result == .standardInputNotUTF8)
    #expect(try library.state() == before)
  }

  @Test func invalidInputDoesNotCreateTheDatabase() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    #expect(
      library.run(["add", "--notebook", "N", "--title", "T"], input: Data([0xFE])).status == 65)
    #expect(!library.exists)
  }

  @Test func aMissingNotebookIsNotFoundUnlessCreationIsAsked() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    #expect(
      library.run(["add", "--notebook", "Garden", "--title", "Roses"])
        == CommandResult(
          status: 66, output: "",
          errors: "notes: no notebook named \"Garden\" (--create-notebook creates it)\n"))
    #expect(try library.state() == before)
    let created = library.run([
      "add", "--notebook", " Garden ", "--title", "Roses", "--create-notebook",
    ])
    #expect(created == CommandResult(status: 0, output: "11\n", errors: ""))
    let state = try library.state()
    #expect(state.notebooks[NotebookID(rawValue: 10)]?.title == "Garden")
    #expect(state.notes[NoteID(rawValue: 11)]?.notebookID == NotebookID(rawValue: 10))
    // An existing notebook is used, not created again.
    #expect(
      library.run(["add", "--notebook", "garden", "--title", "Tulips", "--create-notebook"]).output
        == "12\n")
    #expect(try library.state().notebooks.count == 4)
  }

  @Test(arguments: [
    (["--title", ""], ["The note title must not be empty."]),
    (["--title", "   "], ["The note title must not be empty."]),
    (
      ["--title", String(repeating: "x", count: 1 << 20)],
      ["The note title must be at most 200 characters."]
    ),
    (["--title", "\u{1B}[2J"], ["The note title must not contain control characters."]),
    (["--title", "a\tb"], ["The note title must not contain control characters."]),
    (
      ["--title", "", "--body", "\u{1B}[31mred"],
      [
        "The note title must not be empty.",
        "The note body must not contain control characters other than tabs and line breaks.",
      ]
    ),
    (
      ["--title", "T", "--body", String(repeating: "é", count: 1 << 20)],
      ["The note body must be at most 1000000 characters."]
    ),
  ])
  func refusedNotesPrintEveryReasonAndSaveNothing(options: [String], reasons: [String]) throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    let result = library.run(["add", "--notebook", "Home"] + options)
    #expect(result.status == 65)
    #expect(result.output == "")
    #expect(result.errors == reasons.map { "notes: \($0)\n" }.joined())
    #expect(try library.state() == before)
  }

  @Test func aRefusedNewNotebookSavesNeitherNotebookNorNote() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    let result = library.run(["add", "--notebook", "Bad\u{7}", "--title", "", "--create-notebook"])
    #expect(result.status == 65)
    #expect(
      result.errors == """
        notes: The notebook title must not contain control characters.
        notes: The note title must not be empty.

        """)
    #expect(try library.state() == before)
  }

  @Test func aHugeBodyFromStandardInputIsRefused() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    let input = Data(repeating: UInt8(ascii: "a"), count: 1_000_001)
    let result = library.run(["add", "--notebook", "Home", "--title", "Big"], input: input)
    #expect(result.status == 65)
    #expect(result.errors == "notes: The note body must be at most 1000000 characters.\n")
    #expect(try library.state() == before)
    let fits = library.run(
      ["add", "--notebook", "Home", "--title", "Big"], input: input.dropLast())
    #expect(fits.status == 0)
  }

  @Test func sqlSpecialTextIsStoredVerbatim() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let title = "Robert'); DROP TABLE notes; -- 100% \"sure\""
    let result = library.run([
      "add", "--notebook", "Home", "--title", title, "--body", "'; DELETE FROM notebooks; --",
    ])
    #expect(result.status == 0)
    let state = try library.state()
    #expect(state.notes.count == 7)
    #expect(state.notebooks.count == 3)
    #expect(state.notes[NoteID(rawValue: 10)]?.title == title)
    #expect(state.notes[NoteID(rawValue: 10)]?.body == "'; DELETE FROM notebooks; --")
  }
}
