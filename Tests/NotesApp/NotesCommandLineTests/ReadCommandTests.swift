import Airframe
import AirframeTesting
import Foundation
import NotesCommandLine
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@Suite(.noLiveBindings)
@MainActor
struct ReadCommandTests {
  /// `list` of the samples: by notebook, pinned first, then newest first.
  private let sampleList = """
    7\tHome\tWeekend
    6\tHome\tGroceries
    9\tIdeas\tApp ideas
    8\tIdeas\tBook list
    4\tWork\tWelcome to Notes
    5\tWork\tMeeting agenda

    """

  @Test func listsEveryNoteInAStableOrder() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    #expect(library.run(["list"]) == CommandResult(status: 0, output: sampleList, errors: ""))
  }

  /// The order `list` promises, over notes with many ties (shared dates, pins, notebook
  /// titles that sort apart from their ids), against a plain comparison of the notes.
  @Test func listsByNotebookTitleThenPinThenDateThenID() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    var random = SeededRandomNumberGenerator(seed: 7)
    let start = TestLibrary.sampleDate
    let notebooks = ["work", "Archive", "home", "Zebra"].enumerated().map {
      Notebook(id: NotebookID(rawValue: Int64($0.offset + 1)), title: $0.element, created: start)
    }
    let notes = (1...300).map { index in
      let modified = start.addingTimeInterval(Double(Int.random(in: 0..<4, using: &random)))
      return Note(
        id: NoteID(rawValue: Int64(100 + index)),
        notebookID: notebooks.randomElement(using: &random)!.id, title: "Note \(index)",
        created: start, modified: modified, isPinned: Bool.random(using: &random))
    }
    try library.store(NotesState(notebooks: notebooks, notes: notes))
    let title = Dictionary(uniqueKeysWithValues: notebooks.map { ($0.id, $0.title) })
    let expected = notes.sorted { left, right in
      let (leftBook, rightBook) = (title[left.notebookID]!, title[right.notebookID]!)
      if leftBook.lowercased() != rightBook.lowercased() {
        return leftBook.lowercased() < rightBook.lowercased()
      }
      if left.isPinned != right.isPinned { return left.isPinned }
      if left.modified != right.modified { return left.modified > right.modified }
      return left.id < right.id
    }
    #expect(
      library.output("list")
        == expected.map { "\($0.id)\t\(title[$0.notebookID]!)\t\($0.title)\n" }.joined())
  }

  @Test func listsOneNotebookMatchedIgnoringCase() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    #expect(
      library.output("list", "--notebook", "hOME") == "7\tHome\tWeekend\n6\tHome\tGroceries\n")
    #expect(
      library.run(["list", "--notebook", "Garden"])
        == CommandResult(status: 66, output: "", errors: "notes: no notebook named \"Garden\"\n"))
  }

  @Test func listsAsJSON() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let result = library.run(["list", "--notebook", "Ideas", "--json"])
    #expect(result.status == 0)
    let listed = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
    #expect(listed.map { $0["id"] as? Int } == [9, 8])
    #expect(listed.first?["notebook"] as? String == "Ideas")
    #expect(listed.first?["title"] as? String == "App ideas")
    #expect(listed.first?["body"] as? String == "A terminal notes app where every pane agrees.")
    #expect(listed.first?["created"] as? String == "2023-11-14T22:12:20.000Z")
    #expect(listed.first?["modified"] as? String == "2023-11-14T22:12:20.000Z")
    #expect(listed.first?["pinned"] as? Bool == false)
    #expect(
      Set(listed.first?.keys ?? [:].keys) == [
        "id", "notebook", "title", "body", "created", "modified", "pinned",
      ])
  }

  @Test func anEmptyLibraryIsCreatedWithoutSamples() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    #expect(!library.exists)
    #expect(library.run(["list"]) == CommandResult(status: 0, output: "", errors: ""))
    #expect(library.exists)
    #expect(try library.state() == NotesState())
    #expect(library.output("list", "--json").filter { !$0.isWhitespace } == "[]")
  }

  @Test func showsANote() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    #expect(
      library.output("show", "6") == """
        ID: 6
        Title: Groceries
        Notebook: Home
        Created: 2023-11-14T22:09:20.000Z
        Modified: 2023-11-14T22:09:20.000Z
        Pinned: no

        Milk
        Eggs
        Coffee beans
        Tomatoes

        """)
    #expect(library.output("show", "4").contains("Pinned: yes\n"))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(library.output("show", "8", "--json").utf8))
        as? [String: Any])
    #expect(json["body"] as? String == "Dune\nThe Left Hand of Darkness\n三体")
  }

  @Test func unknownNoteIsNotFound() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    #expect(
      library.run(["show", "999"])
        == CommandResult(status: 66, output: "", errors: "notes: no note with id 999\n"))
    // A notebook's id is not a note's.
    #expect(library.run(["show", "1"]).status == 66)
  }

  @Test func searchPrintsMatchesLikeList() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    #expect(library.output("search", "milk") == "6\tHome\tGroceries\n")
    #expect(library.output("search", "dune 三体") == "8\tIdeas\tBook list\n")
    let json = library.output("search", "--json", "agenda")
    #expect(
      json.contains("\"title\" : \"Meeting agenda\"")
        || json.contains("\"title\":\"Meeting agenda\""))
    #expect(library.run(["search", "zebra"]) == CommandResult(status: 0, output: "", errors: ""))
  }

  @Test func searchTreatsSQLAndPatternCharactersAsText() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    for query in ["'; DROP TABLE notes; --", "%", "\"", "50% off", "_", "\" OR 1=1 --", "*"] {
      #expect(library.run(["search", query]) == CommandResult(status: 0, output: "", errors: ""))
    }
    let added = library.run([
      "add", "--notebook", "Home", "--title", "50% \"off\"; DROP TABLE notes; --", "--body", "'%'",
    ])
    #expect(added.status == 0)
    let id = added.output.trimmingCharacters(in: .newlines)
    #expect(library.output("search", "50%") == "\(id)\tHome\t50% \"off\"; DROP TABLE notes; --\n")
    #expect(
      library.output("search", "\"off\"") == "\(id)\tHome\t50% \"off\"; DROP TABLE notes; --\n")
    #expect(try library.state().notes.count == before.notes.count + 1)
  }

  @Test func printsStoredControlCharactersAsReplacements() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    // Written around the validators, as another program could.
    let date = TestLibrary.sampleDate
    try library.store(
      NotesState(
        notebooks: [Notebook(id: NotebookID(rawValue: 1), title: "A\tB", created: date)],
        notes: [
          Note(
            id: NoteID(rawValue: 2), notebookID: NotebookID(rawValue: 1),
            title: "\u{1B}[2Jwiped\nline", body: "ok\tkept\n\u{7}bell", created: date),
          // DEL and a C1 control (NEL) are control characters too; é and 三 are not.
          Note(
            id: NoteID(rawValue: 3), notebookID: NotebookID(rawValue: 1),
            title: "d\u{7F}e\u{85}l é 三", created: date),
        ]))
    #expect(
      library.output("list")
        == "2\tA\u{FFFD}B\t\u{FFFD}[2Jwiped\u{FFFD}line\n3\tA\u{FFFD}B\td\u{FFFD}e\u{FFFD}l é 三\n")
    #expect(library.output("show", "2").hasSuffix("\n\nok\tkept\n\u{FFFD}bell\n"))
    #expect(library.output("list", "--json").contains("\\u001b[2Jwiped\\nline"))
  }

  @Test func helpAndVersionPrintToStandardOutput() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let help = library.run(["--help"])
    #expect(help.status == 0 && help.errors.isEmpty)
    #expect(help.output == NotesCommandLine.usage)
    for word in [
      "list", "add", "show", "search", "export", "import", "--database", "64", "65", "66",
    ] {
      #expect(help.output.contains(word))
    }
    #expect(library.run(["--version"]).output == "notes \(NotesCommandLine.version)\n")
    #expect(!library.exists)
  }

  @Test func aFileThatIsNotADatabaseFailsWithTheStorageError() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    try Data("not a database, just text".utf8).write(to: URL(fileURLWithPath: library.path))
    let result = library.run(["list"])
    #expect(result.status == 1)
    #expect(result.errors.hasPrefix("notes: The file at \(library.path) is not a notes database"))
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: library.path))
        == Data("not a database, just text".utf8))
  }
}
