// MarkdownFilesTests: `export --markdown DIR` and `import DIR` against real libraries and
// folders: the exact round trip, plain hand-written trees, every refusal.

import Airframe
import AirframeTesting
import Foundation
import NotesCommandLine
import NotesCore
import NotesStorage
import NotesTestSupport
import Testing

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct MarkdownFilesTests {
  /// A library whose titles, bodies and dates are as awkward as the app allows.
  static func awkwardState() -> NotesState {
    let titles = [
      "Work: 2024", "a/b", "a\\b", "CON", ".hidden", "日本語 notebook", "Trailing dot.",
      String(repeating: "é", count: 150),
    ]
    let notebooks = titles.enumerated().map { index, title in
      Notebook(
        id: NotebookID(rawValue: Int64(index + 1)), title: title,
        created: Date(timeIntervalSinceReferenceDate: 700_000_000.123_456_7 + Double(index)))
    }
    let noteTitles = [
      "title: \"quoted\" # not a comment", "# heading-like", "'single'", "- dash", "---",
      "key: value", "back\\slash", "emoji 👩‍👩‍👧", "CON", "con", "Same", "Same", "same",
      String(repeating: "日", count: 200), "~", "null", "true", ".", "...",
    ]
    let bodies = [
      "", "\n", "line\r\nline\r\n", "---\ntitle: fake\n---\nbody", "\t tabs \t",
      "no final newline", "trailing\n\n\n", "日本語\u{202E}rtl\u{200B}", "\u{FEFF}bom first",
      "# A heading that is not the title\n", "---", "\r\n",
    ]
    let dates = [
      Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_789), Date(),
      Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -300_000_000.000_25),
      Date(timeIntervalSinceReferenceDate: 736_000_000.999_999_9), Date(timeIntervalSince1970: 1),
    ]
    var notes: [Note] = []
    for index in 0..<40 {
      let created = dates[index % dates.count]
      notes.append(
        Note(
          id: NoteID(rawValue: Int64(100 + index)),
          notebookID: NotebookID(rawValue: Int64(index % 3 == 0 ? 1 : index % titles.count + 1)),
          title: noteTitles[index % noteTitles.count], body: bodies[index % bodies.count],
          created: created,
          modified: created.addingTimeInterval(Double(index) * 0.000_123_4),
          isPinned: index.isMultiple(of: 4)))
    }
    return NotesState(notebooks: notebooks, notes: notes)
  }

  /// Every notebook as (title, created) and every note as its fields, comparable across
  /// libraries whatever their ids.
  static func fields(_ state: NotesState) -> (notebooks: [String: Date], notes: [String]) {
    var notebooks: [String: Date] = [:]
    for notebook in state.notebooks.elements { notebooks[notebook.title] = notebook.created }
    let notes = state.notes.elements.map { note in
      let notebook = state.notebooks[note.notebookID]?.title ?? "?"
      let created = note.created.timeIntervalSinceReferenceDate.bitPattern
      let modified = note.modified.timeIntervalSinceReferenceDate.bitPattern
      return
        "\(notebook)|\(note.title)|\(Array(note.body.utf8))|\(created)|\(modified)|\(note.isPinned)"
    }
    return (notebooks, notes.sorted())
  }

  @Test func exportThenImportReproducesEveryFieldExactly() throws {
    let source = try TestLibrary(samples: false)
    defer { source.remove() }
    try source.store(Self.awkwardState())
    let folder = source.file("export")
    let exported = source.run(["export", "--markdown", folder])
    #expect(
      exported
        == CommandResult(
          status: 0, output: "exported 40 notes in 8 notebooks to \"\(folder)\"\n", errors: ""))

    let target = try TestLibrary(samples: false)
    defer { target.remove() }
    let imported = target.run(["import", folder])
    #expect(
      imported
        == CommandResult(
          status: 0,
          output: "imported 40 notes: 8 new notebooks, 0 merged into notebooks of the same title\n"
            + "skipped 0 files\n",
          errors: ""))
    let original = Self.fields(try source.state())
    let copy = Self.fields(try target.state())
    #expect(copy.notebooks == original.notebooks)
    #expect(copy.notes.count == 40)
    for (mine, theirs) in zip(copy.notes, original.notes) { #expect(mine == theirs) }
  }

  @Test func exportNamesFoldersAndFilesSafelyAndKeepsTheNotebookInAFile() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    try library.store(Self.awkwardState())
    let folder = library.file("out")
    #expect(library.run(["export", "--markdown", folder]).status == 0)
    let files = FileManager.default
    let folders = try files.contentsOfDirectory(atPath: folder).sorted()
    #expect(folders.count == 8)
    #expect(folders.contains("Work_ 2024") && folders.contains("CON_"))
    #expect(folders.contains("a_b") && folders.contains("a_b 2"))
    #expect(folders.contains("hidden") && folders.contains("Trailing dot"))
    let work = try files.contentsOfDirectory(atPath: folder + "/Work_ 2024")
    #expect(work.contains(".notebook.md"))
    #expect(
      try String(contentsOfFile: folder + "/Work_ 2024/.notebook.md", encoding: .utf8)
        == "---\ntitle: \"Work: 2024\"\ncreated: 2023-03-08T20:26:40.1234567Z\n---\n")
    var seen: Set<String> = []
    for name in folders {
      for file in try files.contentsOfDirectory(atPath: folder + "/" + name) {
        #expect(seen.insert(name.lowercased() + "/" + file.lowercased()).inserted)
        #expect(file.utf8.count <= 255)
        #expect(!file.contains(where: { "/\\:*?\"<>|".contains($0) }))
      }
    }
    #expect(work.contains("CON_.md") && work.contains("con_ 2.md"))
    let attributes = try files.attributesOfItem(atPath: folder)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
  }

  @Test func exportedNamesNeverStartWithADashAndTheTitlesComeBack() throws {
    let source = try TestLibrary(samples: false)
    defer { source.remove() }
    let date = Date(timeIntervalSinceReferenceDate: 800_000_000)
    let notebook = Notebook(id: NotebookID(rawValue: 1), title: "--notebook", created: date)
    let titles = ["-rf", "--help", "-", "- dash"]
    let notes = titles.enumerated().map { index, title in
      Note(
        id: NoteID(rawValue: Int64(10 + index)), notebookID: notebook.id, title: title,
        body: "body \(index)", created: date, modified: date, isPinned: false)
    }
    try source.store(NotesState(notebooks: [notebook], notes: notes))
    let folder = source.file("out")
    #expect(source.run(["export", "--markdown", folder]).status == 0)
    let names = try FileManager.default.subpathsOfDirectory(atPath: folder).sorted()
    // A shell reads a name starting with "-" as an option: `rm -rf.md`, `cat --help.md`.
    #expect(
      names == [
        "__notebook", "__notebook/.notebook.md", "__notebook/_ dash.md", "__notebook/_.md",
        "__notebook/__help.md", "__notebook/_rf.md",
      ])
    let target = try TestLibrary(samples: false)
    defer { target.remove() }
    #expect(target.run(["import", folder]).status == 0)
    let state = try target.state()
    #expect(state.notebooks.elements.map(\.title) == ["--notebook"])
    #expect(state.notes.elements.map(\.title).sorted() == titles.sorted())
  }

  @Test func exportRefusesAFolderThatIsNotEmptyOrAFile() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let folder = library.file("mine")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: folder + "/precious.md"))
    let refused = library.run(["export", "--markdown", folder])
    #expect(refused.status == 73)
    #expect(refused.output == "")
    #expect(refused.errors.hasPrefix("notes: \"\(folder)\" is not empty"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["precious.md"])
    #expect(try String(contentsOfFile: folder + "/precious.md", encoding: .utf8) == "keep me")
    let file = library.file("file.md")
    try Data("a file".utf8).write(to: URL(fileURLWithPath: file))
    #expect(library.run(["export", "--markdown", file]).status == 73)
    #expect(library.run(["export", "--markdown", library.file("no/such/parent")]).status == 73)
    // Nothing was left beside them either: no staging folder.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: library.folder).filter {
        $0.hasPrefix(".")
      } == [])
    // An empty folder is fine.
    let empty = library.file("empty")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
    #expect(library.run(["export", "--markdown", empty]).status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: empty).count == 3)
  }

  /// Writes `files` (path below `root` → bytes) into a new folder `root`.
  private func tree(_ files: [String: Data], at root: String) throws {
    for (path, bytes) in files {
      let url = URL(fileURLWithPath: root + "/" + path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try bytes.write(to: url)
    }
  }

  @Test func aPlainFolderOfFilesIsImported() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let root = library.file("Journal")
    let soup = "---\ntags:\n  - food\ncreated: 2024-05-01\n---\n# Tomato soup\nSimmer.\n"
    try tree(
      [
        "top.md": Data("# Top heading\ntext\n".utf8),
        "plain.txt": Data("just text".utf8),
        "image.png": Data([0x89, 0x50]),
        ".hidden.md": Data("# Hidden".utf8),
        ".obsidian/workspace.md": Data("# ignored".utf8),
        "Recipes/Soup.md": Data(soup.utf8),
        "Recipes/notes.markdown": Data("".utf8),
        "Recipes/Desserts/Cake.TXT": Data("flour\r\n".utf8),
        "Other/readme.pdf": Data("%PDF".utf8),
      ], at: root)
    try FileManager.default.createDirectory(
      atPath: root + "/Empty", withIntermediateDirectories: false)
    let fileDate = Date(timeIntervalSince1970: 1_600_000_000)
    try FileManager.default.setAttributes(
      [.modificationDate: fileDate], ofItemAtPath: root + "/plain.txt")
    let result = library.run(["import", root + "/"])
    #expect(
      result
        == CommandResult(
          status: 0,
          output: "imported 6 notes: 3 new notebooks, 0 merged into notebooks of the same title\n"
            + "skipped 2 files and 1 folder:\n"
            + "  \"\(root)/.obsidian\": a hidden folder; hidden folders are not read\n"
            + "  \"\(root)/image.png\": not a .md, .markdown or .txt file\n"
            + "  \"\(root)/Other/readme.pdf\": not a .md, .markdown or .txt file\n",
          errors: ""))
    let state = try library.state()
    #expect(
      Set(state.notebooks.elements.map(\.title)) == ["Journal", "Recipes", "Recipes/Desserts"])
    var notes: [String: Note] = [:]
    for note in state.notes.elements { notes[note.title] = note }
    #expect(
      Set(notes.keys) == ["Top heading", "plain", "Tomato soup", "notes", "Cake", "Hidden"])
    let notebook = { (title: String) in
      notes[title].flatMap { state.notebooks[$0.notebookID]?.title }
    }
    #expect(notebook("Top heading") == "Journal" && notebook("plain") == "Journal")
    #expect(notebook("Hidden") == "Journal")
    #expect(notebook("Tomato soup") == "Recipes" && notebook("Cake") == "Recipes/Desserts")
    #expect(notes["Top heading"]?.body == "# Top heading\ntext\n")
    #expect(notes["Tomato soup"]?.body == "# Tomato soup\nSimmer.\n")
    #expect(notes["Cake"]?.body == "flour\r\n")
    #expect(notes["plain"]?.created == fileDate && notes["plain"]?.modified == fileDate)
    #expect(notes["Tomato soup"]?.created == Date(timeIntervalSince1970: 1_714_521_600))
    #expect(notes.values.allSatisfy { !$0.isPinned })
  }

  /// Bad files, each beside a good one: (path, bytes, what the message says).
  nonisolated static let badFiles: [(String, [UInt8], String)] = [
    ("Work/latin1.md", [0x63, 0x61, 0x66, 0xE9], "is not valid UTF-8"),
    ("Work/open.md", Array("---\ntitle: x\n".utf8), "front matter opened on line 1"),
    ("Work/words.md", Array("---\njust words\n---\n".utf8), "front matter line 2 is not"),
    ("Work/date.md", Array("---\ncreated: soon\n---\n".utf8), "front matter line 2: created"),
    (
      "Work/bell.md", Array("---\ntitle: \"bell\\a\"\n---\n".utf8),
      "The note title must not contain control characters."
    ),
    (
      "Work/long.md", Array("# \(String(repeating: "x", count: 201))\n".utf8),
      "The note title must be at most 200 characters."
    ),
    (
      "Work/body.md", Array("---\ntitle: Body\n---\nbell\u{07}".utf8),
      "The note body must not contain control characters other than tabs and line breaks."
    ),
    ("Work/.notebook.md", Array("---\ntitle: \"\u{1B}\"\n---\n".utf8), "control characters"),
  ]

  @Test(arguments: 0..<badFiles.count)
  func aBadFileIsRefusedWithItsPathAndNothingIsSaved(index: Int) throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    let root = library.file("notes")
    let (path, bytes, message) = Self.badFiles[index]
    try tree(["Work/good.md": Data("fine".utf8), path: Data(bytes)], at: root)
    let result = library.run(["import", root])
    #expect(result.status == 65)
    #expect(result.output == "")
    let shown = path.hasSuffix(".notebook.md") ? root + "/Work" : root + "/" + path
    #expect(result.errors.hasPrefix("notes: \"\(shown)\": "), "\(result.errors)")
    #expect(result.errors.contains(message), "\(result.errors)")
    #expect(try library.state() == before)
  }

  @Test func anUnreadableFileIsRefused() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    // Run as a user that file permissions apply to (root reads every file).
    let notes = try UnprivilegedNotes(folder: library.folder)
    let root = library.file("notes")
    try tree(["good.md": Data("fine".utf8), "secret.md": Data("x".utf8)], at: root)
    let unreadable = root + "/secret.md"
    try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: unreadable)
    let home = library.file("home")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
    try notes.own(home)
    let database = home + "/notes.sqlite"
    let result = try notes.run(["import", root, "--database", database])
    #expect(result.status == 65)
    #expect(
      result.errors.hasPrefix("notes: \"\(unreadable)\": cannot read the file: Permission denied"),
      "\(result.errors)")
    #expect(!FileManager.default.fileExists(atPath: database))
  }

  @Test func everyBadFileIsListedAtOnce() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let root = library.file("notes")
    try tree(
      ["a.md": Data([0xFF]), "b.md": Data("---\n".utf8), "c.md": Data("ok".utf8)], at: root)
    let result = library.run(["import", root])
    #expect(
      result.errors == """
        notes: "\(root)/a.md": is not valid UTF-8
        notes: "\(root)/b.md": front matter opened on line 1 has no closing --- line
        notes: nothing was saved

        """)
    #expect(!library.exists)
  }

  @Test func theBuiltProgramRoundTripsTheSamples() throws {
    let program = try #require(Programs.built("notes"), "the notes program is not built")
    let source = try TestLibrary()
    defer { source.remove() }
    let folder = source.file("md")
    let run = { (arguments: [String]) throws -> CommandResult in
      try Programs.run(
        program, arguments, input: Data(), environment: ["HOME=\(source.folder)"],
        folder: source.folder)
    }
    let exported = try run(["export", "--markdown", folder, "--database", source.path])
    #expect(exported.status == 0 && exported.errors.isEmpty)
    let copy = source.file("copy.sqlite")
    let imported = try run(["import", folder, "--database", copy])
    #expect(imported.status == 0 && imported.errors.isEmpty)
    #expect(imported.output.hasPrefix("imported 6 notes: 3 new notebooks"))
    let refused = try run(["export", "--markdown", folder, "--database", source.path])
    #expect(refused.status == 73 && refused.errors.contains("is not empty"))
    let database = try NotesDatabase(path: copy)
    defer { database.close() }
    #expect(Self.fields(try database.loadState()) == Self.fields(try source.state()))
  }
}
