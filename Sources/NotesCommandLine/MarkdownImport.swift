// MarkdownImport: a folder of Markdown and text files read as the `LibraryDocument` that
// `import` saves, for `notes import DIR`.
//
// Guarantees
// - Every folder under DIR (DIR itself included) that holds a note file or a
//   `.notebook.md` is a notebook. Its title is the `title` of its `.notebook.md` when it
//   has one (as `export --markdown` writes), else its path below DIR with `/` between the
//   parts ("Work/Projects"); DIR's own notebook is titled with DIR's name ("Imported"
//   when it has none, as `/`). `.notebook.md`'s `created` is the notebook's date.
// - A note file is a regular file (or a link to one) ending in `.md`, `.markdown` or
//   `.txt`, in any case. Its title is its front matter's `title`, else the text of a
//   `# Heading` on its first line, else its name without the extension. Its body is every
//   byte after the front matter (the whole file when it has none). A date the front
//   matter lacks is the file's modification time (`modified` never before `created`);
//   `pinned` defaults to false.
// - Other files, and links to folders, are skipped and counted. Hidden files and folders
//   (a name starting with `.`) other than `.notebook.md` are skipped without a count, so
//   `.git` or `.obsidian` never adds notes.
// - A file that cannot be read, is not UTF-8 or has front matter that does not parse is
//   reported with its path and the reason, every one of them, and nothing is returned:
//   the import saves nothing. Each entry of the document carries its file's path as its
//   `source`, so the import's own refusals (an empty title, a body too long) name it.
// - Notebooks are listed by created date, then path; notes by created date, then path, so
//   the ids an import assigns follow the order the notes were first written.

import Foundation
import NotesCore

/// Reads a folder tree of notes.
enum MarkdownImport {
  /// The extensions, lowercased, of the files read as notes.
  static let noteExtensions: Set = ["md", "markdown", "txt"]

  /// Whether `path` names a folder (following a link), which `import` reads as notes.
  static func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }

  /// The document of the notebooks and notes under the folder `path`.
  ///
  /// - Parameters:
  ///   - path: The folder, as the user wrote it (messages show paths under it).
  ///   - fileRead: Told how many note files were read so far, after each one.
  /// - Returns: The document, and how many files were skipped as not notes.
  /// - Throws: ``CommandFailure`` with exit code 65 listing every file that cannot be read.
  static func read(
    folder path: String, fileRead: @escaping (Int) -> Void = { _ in }
  ) throws(CommandFailure) -> (LibraryDocument, Int) {
    var shownRoot = path
    while shownRoot.count > 1, shownRoot.hasSuffix("/") { shownRoot.removeLast() }
    let root = URL(fileURLWithPath: path).standardizedFileURL
    let rootName = root.lastPathComponent
    var reader = Reader(shownRoot: shownRoot, fileRead: fileRead)
    reader.scan(root.path, components: [])
    if !reader.issues.isEmpty {
      var lines = reader.issues.prefix(ActionRun.reportLimit).map { $0 }
      if reader.issues.count > ActionRun.reportLimit {
        lines.append("… and \(reader.issues.count - ActionRun.reportLimit) more")
      }
      throw CommandFailure(.invalidData, lines: lines + ["nothing was saved"])
    }
    let folders = reader.folders.sorted {
      ($0.created ?? .distantFuture, $0.shown) < ($1.created ?? .distantFuture, $1.shown)
    }
    var notebooks: [LibraryDocument.NotebookEntry] = []
    var notes: [LibraryDocument.NoteEntry] = []
    for folder in folders {
      let id = Int64(notebooks.count + 1)
      let fallback =
        folder.components.isEmpty
        ? (rootName.isEmpty || rootName == "/" ? "Imported" : rootName)
        : folder.components.joined(separator: "/")
      notebooks.append(
        LibraryDocument.NotebookEntry(
          id: id, title: folder.title ?? fallback, created: folder.created,
          source: TerminalText.quoted(folder.shown, limit: .max)))
      for var note in folder.notes {
        note.notebookID = id
        notes.append(note)
      }
    }
    notes.sort {
      ($0.created ?? .distantPast, $0.source ?? "") < ($1.created ?? .distantPast, $1.source ?? "")
    }
    var document = LibraryDocument(NotesState())
    document.notebooks = notebooks
    document.notes = notes
    return (document, reader.skipped)
  }

  /// The title a `# Heading` on the first line of `body` gives, if it has one.
  static func heading(of body: Substring) -> String? {
    let line = body.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" }
    guard line.hasPrefix("# ") || line.hasPrefix("#\t") else { return nil }
    var text = line.dropFirst(2).trimmingCharacters(in: .whitespaces)
    // A closing run of #s (`# Title #`) is not part of the heading.
    if let last = text.lastIndex(where: { $0 != "#" }), last < text.index(before: text.endIndex),
      text[last] == " " || text[last] == "\t"
    {
      text = String(text[...last]).trimmingCharacters(in: .whitespaces)
    }
    return text.isEmpty ? nil : text
  }
}

/// A notebook's folder as read.
private struct ScannedFolder {
  /// The folder's path below DIR, one name each.
  var components: [String]
  /// Its path as messages show it.
  var shown: String
  /// The title and date its `.notebook.md` gives.
  var title: String?
  var created: Date?
  /// Its notes, each with its file's path as `source`.
  var notes: [LibraryDocument.NoteEntry] = []
}

/// The walk over DIR: folders, notes, skipped files and problems.
private struct Reader {
  let shownRoot: String
  var folders: [ScannedFolder] = []
  var skipped = 0
  var issues: [String] = []
  /// How many note files were read so far.
  var filesRead = 0
  /// Told `filesRead` after each note file.
  let fileRead: (Int) -> Void

  init(shownRoot: String, fileRead: @escaping (Int) -> Void) {
    self.shownRoot = shownRoot
    self.fileRead = fileRead
  }

  private func shown(_ components: [String]) -> String {
    components.isEmpty
      ? shownRoot
      : (shownRoot == "/" ? "" : shownRoot) + "/" + components.joined(separator: "/")
  }

  private mutating func report(_ components: [String], _ reason: String) {
    issues.append("\(TerminalText.quoted(shown(components), limit: .max)): \(reason)")
  }

  /// Reads the folder at `path` (`components` below DIR) and every folder under it.
  ///
  /// Names and `stat`, not `URL` resource values: those cost most of reading 100,000
  /// small files.
  mutating func scan(_ path: String, components: [String]) {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: path)
    } catch {
      report(components, "cannot read the folder: \(error.localizedDescription)")
      return
    }
    var folder = ScannedFolder(components: components, shown: shown(components))
    var hasMetadata = false
    var subfolders: [(String, [String])] = []
    for name in names.sorted() {
      let entry = path + "/" + name
      let components = components + [name]
      if name == MarkdownExport.notebookFile {
        hasMetadata = true
        guard let text = text(of: entry, at: components),
          let (matter, _) = frontMatter(of: text, at: components)
        else { continue }
        folder.title = matter?.title
        folder.created = matter?.created
        continue
      }
      if name.hasPrefix(".") { continue }
      // stat follows a link: a link to a file is read, a link to a folder skipped.
      let kind = FileKind(of: entry)
      if kind.isFolder {
        if FileKind(linkAt: entry).isLink {
          skipped += 1
        } else {
          subfolders.append((entry, components))
        }
      } else if kind.isRegularFile, MarkdownImport.noteExtensions.contains(fileExtension(name)) {
        if let note = note(at: entry, name: name, path: components, modified: kind.modified) {
          folder.notes.append(note)
        }
      } else {
        skipped += 1
      }
    }
    if hasMetadata || !folder.notes.isEmpty { folders.append(folder) }
    for (path, components) in subfolders { scan(path, components: components) }
  }

  /// The lowercased extension of `name`, without its dot; empty for none.
  private func fileExtension(_ name: String) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return name[name.index(after: dot)...].lowercased()
  }

  /// The note entry of the file at `url`, or `nil` after reporting why it cannot be read.
  private mutating func note(
    at file: String, name: String, path: [String], modified fileDate: Date?
  ) -> LibraryDocument.NoteEntry? {
    filesRead += 1
    fileRead(filesRead)
    guard let text = text(of: file, at: path),
      let (matter, body) = frontMatter(of: text, at: path)
    else { return nil }
    let fileDate = fileDate ?? Date()
    let created = matter?.created ?? min(fileDate, matter?.modified ?? fileDate)
    let modified = matter?.modified ?? max(fileDate, created)
    let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
    return LibraryDocument.NoteEntry(
      id: nil, notebookID: 0, title: matter?.title ?? MarkdownImport.heading(of: body) ?? stem,
      body: String(body), created: created, modified: modified, pinned: matter?.pinned ?? false,
      source: TerminalText.quoted(shown(path), limit: .max))
  }

  /// The file's text, or `nil` after reporting that it cannot be read or is not UTF-8.
  private mutating func text(of file: String, at path: [String]) -> String? {
    let bytes: [UInt8]
    do {
      bytes = try FileKind.contents(of: file)
    } catch {
      report(path, "cannot read the file: \(error.description)")
      return nil
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      report(path, "is not valid UTF-8")
      return nil
    }
    return text
  }

  /// The front matter and body of `text`, or `nil` after reporting why it does not parse.
  private mutating func frontMatter(
    of text: String, at path: [String]
  ) -> (FrontMatter?, Substring)? {
    do {
      return try FrontMatter.split(text)
    } catch {
      report(path, "front matter \(error.message)")
      return nil
    }
  }
}
