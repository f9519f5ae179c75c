import Airframe
import AirframeTesting
import Foundation
import NotesCommandLine
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@Suite(.noLiveBindings)
@MainActor
struct ImportExportTests {
  /// The notes of `state` by title, as (notebook title, body, pinned, created, modified).
  private func contents(_ state: NotesState) -> [String: [String]] {
    var result: [String: [String]] = [:]
    for note in state.notes.elements {
      let notebook = state.notebooks[note.notebookID]?.title ?? "?"
      result[note.title, default: []].append(
        "\(notebook)|\(note.body)|\(note.isPinned)|\(millis(note.created))|\(millis(note.modified))"
      )
    }
    return result.mapValues { $0.sorted() }
  }

  private func millis(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  /// Writes `text` to a file in the library's folder and returns its path.
  private func write(_ text: String, to name: String, in library: TestLibrary) throws -> String {
    let path = library.file(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func exportThenImportIntoAnEmptyLibraryReproducesIt() throws {
    let source = try TestLibrary()
    defer { source.remove() }
    // A note with a body ending in a line break, dated now (with milliseconds).
    #expect(
      source.run(["add", "--notebook", "Ideas", "--title", "Fresh", "--body", "new\n"]).status == 0)
    let export = source.run(["export", "--json"])
    #expect(export.status == 0 && export.errors.isEmpty)
    let file = try write(export.output, to: "export.json", in: source)

    let target = try TestLibrary(samples: false)
    defer { target.remove() }
    let imported = target.run(["import", file])
    #expect(
      imported
        == CommandResult(
          status: 0,
          output: "imported 7 notes: 3 new notebooks, 0 merged into notebooks of the same title\n",
          errors: ""))
    let original = try source.state()
    let copy = try target.state()
    #expect(contents(copy) == contents(original))
    #expect(Set(copy.notebooks.elements.map(\.title)) == ["Home", "Ideas", "Work"])
    #expect(
      copy.notebooks.elements.map { millis($0.created) }
        == original.notebooks.elements.map { millis($0.created) })
    // The copy lists in the same order; only the ids differ.
    let withoutIDs = { (list: String) in list.split(separator: "\n").map { $0.drop { $0 != "\t" } }
    }
    #expect(withoutIDs(target.output("list")) == withoutIDs(source.output("list")))
  }

  @Test func importFromStandardInputMergesNotebooksByTitle() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let document = """
      {"version": 1,
       "notebooks": [{"id": 7, "title": "WORK"},
                     {"id": 8, "title": "Garden", "created": "2024-01-02T03:04:05Z"}],
       "notes": [
         {"notebookID": 7, "title": "Imported", "pinned": true,
          "created": "2024-01-02T03:04:05.250+01:00"},
         {"id": 99, "notebookID": 8, "title": "Roses", "body": "red",
          "created": "2024-01-01T00:00:00Z", "modified": "2024-02-01T00:00:00Z",
          "extra": "ignored"}
       ]}
      """
    let result = library.run(["import", "-"], input: Data(document.utf8))
    #expect(
      result.output
        == "imported 2 notes: 1 new notebook, 1 merged into notebooks of the same title\n")
    let state = try library.state()
    #expect(state.notebooks.count == 4)
    let imported = try #require(state.notes.elements.first { $0.title == "Imported" })
    #expect(imported.notebookID == NotebookID(rawValue: 3))
    #expect(imported.isPinned)
    #expect(imported.body == "")
    #expect(millis(imported.created) == 1_704_161_045_250)
    #expect(imported.modified == imported.created)
    let roses = try #require(state.notes.elements.first { $0.title == "Roses" })
    #expect(roses.id != NoteID(rawValue: 99))
    #expect(state.notebooks[roses.notebookID]?.title == "Garden")
    #expect(millis(roses.modified) == 1_706_745_600_000)
  }

  @Test(arguments: [
    ("[1, 2", "not valid JSON"),
    ("[1, 2]", "the document must be an object"),
    ("{\"notebooks\": [], \"notes\": []}", "is not a notes export: it has no \"version\""),
    (
      "{\"version\": 2, \"notebooks\": [], \"notes\": []}",
      "is export version 2; this notes reads version 1"
    ),
    ("{\"version\": 1, \"notes\": []}", "notebooks is missing"),
    (
      "{\"version\": 1, \"notebooks\": [], \"notes\": [{\"notebookID\": 1}]}",
      "notes[0].title is missing"
    ),
    (
      "{\"version\": 1, \"notebooks\": [{\"id\": \"one\", \"title\": \"A\"}], \"notes\": []}",
      "notebooks[0].id must be a whole number"
    ),
    (
      "{\"version\": 1, \"notebooks\": [{\"id\": 1, \"title\": \"A\","
        + " \"created\": \"yesterday\"}], \"notes\": []}",
      "notebooks[0].created: \"yesterday\" is not an ISO 8601 date and time"
    ),
  ])
  func malformedDocumentsAreRefusedBeforeOpening(text: String, message: String) throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let file = try write(text, to: "bad.json", in: library)
    let result = library.run(["import", file])
    #expect(result.status == 65)
    #expect(result.output == "")
    #expect(result.errors.hasPrefix("notes: \"\(file)\""))
    #expect(result.errors.contains(message))
    #expect(!library.exists)
  }

  @Test func invalidItemsAreAllReportedAndNothingIsSaved() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    let hugeTitle = String(repeating: "t", count: 1 << 20)
    let document = """
      {"version": 1,
       "notebooks": [{"id": 1, "title": "Fine"}, {"id": 2, "title": "\\u001b[2J"},
                     {"id": 1, "title": "Again"}],
       "notes": [
         {"notebookID": 1, "title": "ok"},
         {"notebookID": 1, "title": ""},
         {"notebookID": 2, "title": "in the refused notebook"},
         {"notebookID": 5, "title": "nowhere"},
         {"notebookID": 1, "title": "\(hugeTitle)", "body": "\\u0007"}
       ]}
      """
    let result = library.run(["import", "-"], input: Data(document.utf8))
    #expect(result.status == 65)
    #expect(result.output == "")
    #expect(
      result.errors == """
        notes: notebooks[1]: The notebook title must not contain control characters.
        notes: notebooks[2]: another notebook has the id 1 too
        notes: notes[1]: The note title must not be empty.
        notes: notes[3]: no notebook in the document has the id 5
        notes: notes[4]: The note title must be at most 200 characters.
        notes: notes[4]: The note body must not contain control characters other than tabs \
        and line breaks.

        """)
    #expect(try library.state() == before)
  }

  @Test func invalidUTF8InAFileOrOnStandardInputSavesNothing() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    var bytes = Data("{\"version\": 1, \"notebooks\": [{\"id\": 1, \"title\": \"".utf8)
    bytes += Data([0xC0, 0xAF])
    bytes += Data("\"}], \"notes\": []}".utf8)
    let path = library.file("latin1.json")
    try bytes.write(to: URL(fileURLWithPath: path))
    #expect(
      library.run(["import", path])
        == CommandResult(
          status: 65, output: "",
          errors: "notes: \"\(path)\" is not valid UTF-8; nothing was saved\n"))
    #expect(
      library.run(["import", "-"], input: bytes) == .standardInputNotUTF8)
    #expect(try library.state() == before)
  }

  @Test func aMissingFileIsNotFound() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let path = library.file("absent.json")
    #expect(
      library.run(["import", path])
        == CommandResult(status: 66, output: "", errors: "notes: no such file: \"\(path)\"\n"))
    // A folder is read as Markdown files (see MarkdownFilesTests): here, none.
    #expect(library.run(["import", library.folder]).output.hasPrefix("imported 0 notes"))
  }

  @Test func manyRefusalsAreCounted() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let notes = Array(repeating: "{\"notebookID\": 1, \"title\": \"\"}", count: 25)
    let document =
      "{\"version\": 1, \"notebooks\": [{\"id\": 1, \"title\": \"X\"}],"
      + " \"notes\": [\(notes.joined(separator: ","))]}"
    let result = library.run(["import", "-"], input: Data(document.utf8))
    #expect(result.status == 65)
    let lines = result.errors.split(separator: "\n")
    #expect(lines.count == 21)
    #expect(lines.last == "notes: … and 5 more")
  }
}
