// FolderImportSkipTests: what `import DIR` does not read, and says so: links leading out of
// DIR, links to folders, broken and looping links, other files and hidden folders; and the
// files whose names merely start with a dot, which are notes.

import Airframe
import AirframeTesting
import Foundation
import NotesCommandLine
import NotesCore
import NotesStorage
import NotesTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.noLiveBindings)
@MainActor
struct FolderImportSkipTests {
  /// Writes `files` (path below `root` → text) into the folder `root`.
  private func tree(_ files: [String: String], at root: String) throws {
    for (path, text) in files {
      let url = URL(fileURLWithPath: root + "/" + path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
  }

  private func link(_ path: String, to destination: String) throws {
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: destination)
  }

  @Test func aLinkLeadingOutOfTheFolderIsSkippedAndNamedNeverRead() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    // A private file beside the folder, and a folder someone else made that links to it.
    let secret = library.file("id_ed25519")
    try Data("PRIVATE KEY".utf8).write(to: URL(fileURLWithPath: secret))
    try tree(["outside/other.md": "# Other\nalso private\n"], at: library.folder)
    let root = library.file("shared")
    try tree(["good.md": "# Good\nfine\n", "sub/inner.md": "# Inner\nkept\n"], at: root)
    try link(root + "/key.md", to: secret)
    try link(root + "/relative.md", to: "../outside/other.md")
    try link(root + "/sub/up.md", to: "../../id_ed25519")
    try link(root + "/folder", to: library.folder + "/outside")
    try link(root + "/etc", to: "/etc")
    // Inside the folder: a link to a file is read, a link to a folder is not followed.
    try link(root + "/alias.md", to: "sub/inner.md")
    try link(root + "/again", to: ".")

    let result = library.run(["import", root])
    #expect(result.status == 0, "\(result.errors)")
    let state = try library.state()
    #expect(!state.notes.elements.contains { $0.body.contains("PRIVATE") })
    #expect(!state.notes.elements.contains { $0.body.contains("also private") })
    #expect(state.notes.elements.map(\.title).sorted() == ["Good", "Inner", "Inner"])
    let outside = "a link leading outside \"\(root)\", to "
    #expect(
      result.output == """
        imported 3 notes: 2 new notebooks, 0 merged into notebooks of the same title
        skipped 3 files and 3 folders:
          "\(root)/again": a link to a folder; links to folders are not followed
          "\(root)/etc": \(outside)"/etc"
          "\(root)/folder": \(outside)"\(library.folder)/outside"
          "\(root)/key.md": \(outside)"\(secret)"
          "\(root)/relative.md": \(outside)"\(library.folder)/outside/other.md"
          "\(root)/sub/up.md": \(outside)"\(secret)"

        """)
  }

  @Test func theFolderItselfMayBeALink() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    try tree(["real/a.md": "# A\n"], at: library.folder)
    try link(library.file("real/self.md"), to: library.file("real/a.md"))
    try link(library.file("named"), to: library.file("real"))
    let result = library.run(["import", library.file("named")])
    #expect(result.status == 0)
    #expect(result.output.hasSuffix("skipped 0 files\n"), "\(result.output)")
    #expect(try library.state().notes.count == 2)
  }

  @Test func brokenAndLoopingLinksAndPipesAreSkippedWithoutWaiting() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let root = library.file("notes")
    try tree(["good.md": "fine"], at: root)
    try link(root + "/gone.md", to: "nowhere.md")
    try link(root + "/one.md", to: "two.md")
    try link(root + "/two.md", to: "one.md")
    // Reading a pipe would wait for a writer that never comes.
    #expect(mkfifo(root + "/pipe.md", 0o600) == 0)
    let result = library.run(["import", root])
    #expect(
      result
        == CommandResult(
          status: 0,
          output: """
            imported 1 note: 1 new notebook, 0 merged into notebooks of the same title
            skipped 4 files:
              "\(root)/gone.md": a link to nothing: its target does not exist
              "\(root)/one.md": a link that loops back on itself
              "\(root)/pipe.md": not a regular file
              "\(root)/two.md": a link that loops back on itself

            """,
          errors: ""))
  }

  @Test func aNameStartingWithADotIsANoteAndEverySkippedFileIsNamed() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let root = library.file("pages")
    // tldr-pages names the page of the `.` command `..md`.
    try tree(
      [
        "common/..md": "# .\n\n> Source a file.\n", "common/ls.md": "# ls\n",
        "common/.hidden.md": "plain", "common/.md": "no name", "common/.txt.txt": "text",
        "common/.notebook.md": "---\ntitle: \"Common\"\n---\n", "common/.DS_Store": "",
        "common/image.png": "", ".git/HEAD.md": "ref", ".obsidian/app.md": "{}",
      ], at: root)
    let result = library.run(["import", root])
    #expect(result.status == 0, "\(result.errors)")
    let state = try library.state()
    var titles: [String: String] = [:]
    for note in state.notes.elements {
      titles[note.title] = state.notebooks[note.notebookID]?.title
    }
    #expect(
      titles == [
        ".": "Common", "ls": "Common", ".hidden": "Common", ".md": "Common", ".txt": "Common",
      ])
    #expect(
      result.output == """
        imported 5 notes: 1 new notebook, 0 merged into notebooks of the same title
        skipped 2 files and 2 folders:
          "\(root)/.git": a hidden folder; hidden folders are not read
          "\(root)/.obsidian": a hidden folder; hidden folders are not read
          "\(root)/common/.DS_Store": not a .md, .markdown or .txt file
          "\(root)/common/image.png": not a .md, .markdown or .txt file

        """)
  }

  @Test func aNotebookFileLeadingOutOfTheFolderIsNotRead() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    try tree(["meta.md": "---\ntitle: \"Stolen\"\n---\n", "in/a.md": "# A\n"], at: library.folder)
    try link(library.file("in/.notebook.md"), to: library.file("meta.md"))
    let result = library.run(["import", library.file("in")])
    #expect(result.status == 0)
    #expect(try library.state().notebooks.elements.map(\.title) == ["in"])
    let notebookFile = library.file("in/.notebook.md")
    #expect(result.output.contains("\"\(notebookFile)\": a link leading outside"))
  }
}
