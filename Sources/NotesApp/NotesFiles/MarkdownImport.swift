import Foundation
import NotesCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a folder tree of notes.
///
/// A folder of Markdown and text files read as the `LibraryDocument` that `import` saves, for
/// `notes import DIR`.
///
/// ## Guarantees
///
/// - Every folder under DIR (DIR itself included) that holds a note file or a
///   `.notebook.md` is a notebook. Its title is the `title` of its `.notebook.md` when it
///   has one (as `export --markdown` writes), else its path below DIR with `/` between the
///   parts ("Work/Projects"); DIR's own notebook is titled with DIR's name ("Imported"
///   when it has none, as `/`). `.notebook.md`'s `created` is the notebook's date.
/// - A note file is a regular file ending in `.md`, `.markdown` or `.txt`, in any case,
///   whatever its name starts with (`..md`, the page of the `.` command, is a note): only
///   `.notebook.md` is the notebook's own file. Its title is its front matter's `title`,
///   else the text of a `# Heading` on its first line, else its name without the
///   extension (the whole name when nothing comes before it). Its body is every byte after
///   the front matter (the whole file when it has none). A date the front matter lacks is
///   the file's modification time (`modified` never before `created`); `pinned` defaults
///   to false.
/// - Nothing outside DIR is read. A link is followed only to a file inside DIR (DIR with
///   its own links resolved); a link to anything outside it, a link to a folder (never
///   followed, so no walk can loop), a link that loops and a link to nothing are skipped.
///   Files are opened without following a link, so one swapped in after the walk looked
///   is refused, not read.
/// - Every file or folder that is not read is skipped and reported with its path and why:
///   other files (not a note's extension, not a regular file), those links, and hidden
///   folders (a name starting with `.`: `.git`, `.obsidian`), which are not walked.
/// - A file that cannot be read, is not UTF-8 or has front matter that does not parse is
///   reported with its path and the reason, every one of them, and nothing is returned:
///   the import saves nothing. Each entry of the document carries its file's path as its
///   `source`, so the import's own refusals (an empty title, a body too long) name it.
/// - Notebooks are listed by created date, then path; notes by created date, then path, so
///   the ids an import assigns follow the order the notes were first written.
public enum MarkdownImport {
  /// The extensions, lowercased, of the files read as notes.
  static let noteExtensions: Set = ["md", "markdown", "txt"]

  /// Whether `path` names a folder (following a link), which `import` reads as notes.
  public static func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }

  /// A file or folder under DIR that was not read, and why.
  public struct Skipped: Equatable, Sendable {
    /// Its path as messages show it (under DIR as the user wrote it), quoted.
    public var shown: String
    /// Why it was not read, such as "not a .md, .markdown or .txt file".
    public var reason: String
    /// Whether it is a folder (a hidden one, or a link to one).
    public var isFolder: Bool
  }

  /// The document of the notebooks and notes under the folder `path`.
  ///
  /// - Parameters:
  ///   - path: The folder, as the user wrote it (messages show paths under it).
  ///   - fileRead: Told how many note files were read so far, after each one.
  /// - Returns: The document, and every file and folder skipped, in the order walked.
  /// - Throws: ``FileFailure`` of kind ``FileFailure/Kind/invalidData`` listing every file
  ///   that cannot be read.
  public static func read(
    folder path: String, fileRead: @escaping (Int) -> Void = { _ in }
  ) throws(FileFailure) -> (LibraryDocument, [Skipped]) {
    var shownRoot = path
    while shownRoot.count > 1, shownRoot.hasSuffix("/") { shownRoot.removeLast() }
    let root = URL(fileURLWithPath: path).standardizedFileURL
    let rootName = root.lastPathComponent
    // Links are judged against where DIR really is, its own links followed.
    guard case .success(let realRoot) = FileKind.resolved(root.path) else {
      throw FileFailure(
        .notFound, "cannot read the folder \(DisplayText.quoted(path, limit: .max))")
    }
    var reader = Reader(shownRoot: shownRoot, realRoot: realRoot, fileRead: fileRead)
    reader.scan(realRoot, components: [])
    if !reader.issues.isEmpty {
      throw FileFailure(
        .invalidData, lines: Reasons.reported(reader.issues) + ["nothing was saved"])
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
          source: DisplayText.quoted(folder.shown, limit: .max)))
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
  /// DIR with every link in its path followed: nothing outside it is read.
  let realRoot: String
  var folders: [ScannedFolder] = []
  var skipped: [MarkdownImport.Skipped] = []
  var issues: [String] = []
  /// How many note files were read so far.
  var filesRead = 0
  /// Told `filesRead` after each note file.
  let fileRead: (Int) -> Void

  init(shownRoot: String, realRoot: String, fileRead: @escaping (Int) -> Void) {
    self.shownRoot = shownRoot
    self.realRoot = realRoot
    self.fileRead = fileRead
  }

  private func shown(_ components: [String]) -> String {
    components.isEmpty
      ? shownRoot
      : (shownRoot == "/" ? "" : shownRoot) + "/" + components.joined(separator: "/")
  }

  private mutating func report(_ components: [String], _ reason: String) {
    issues.append("\(DisplayText.quoted(shown(components), limit: .max)): \(reason)")
  }

  private mutating func skip(_ components: [String], _ reason: String, folder: Bool = false) {
    skipped.append(
      MarkdownImport.Skipped(
        shown: DisplayText.quoted(shown(components), limit: .max), reason: reason,
        isFolder: folder))
  }

  /// Whether `path`, with no link in it, is DIR or inside it.
  private func isInside(_ path: String) -> Bool {
    path == realRoot || realRoot == "/" || path.hasPrefix(realRoot + "/")
  }

  /// Reads the folder at `path` (`components` below DIR) and every folder under it.
  ///
  /// Names and `stat`, not `URL` resource values: those cost most of reading 100,000
  /// small files. `path` holds no link: only real folders are walked.
  mutating func scan(_ path: String, components: [String]) {
    let names: [String]
    do {
      names = try FileKind.names(inFolder: path)
    } catch {
      report(components, "cannot read the folder: \(error.description)")
      return
    }
    var folder = ScannedFolder(components: components, shown: shown(components))
    var hasMetadata = false
    var subfolders: [(String, [String])] = []
    for name in names.sorted() {
      let components = components + [name]
      // The file to read: the entry itself, or where a link inside DIR leads.
      var file = path + "/" + name
      var kind = FileKind(linkAt: file)
      if kind.isLink {
        switch FileKind.resolved(file) {
        case .failure(let failure):
          skip(components, Self.brokenLink(failure.code))
          continue
        case .success(let target):
          kind = FileKind(of: target)
          guard isInside(target) else {
            skip(
              components,
              "a link leading outside \(DisplayText.quoted(shownRoot, limit: .max)), to "
                + DisplayText.quoted(target, limit: .max), folder: kind.isFolder)
            continue
          }
          if kind.isFolder {
            skip(components, "a link to a folder; links to folders are not followed", folder: true)
            continue
          }
          file = target
        }
      } else if kind.isFolder {
        if name.hasPrefix(".") {
          skip(components, "a hidden folder; hidden folders are not read", folder: true)
        } else {
          subfolders.append((file, components))
        }
        continue
      }
      guard kind.isRegularFile else {
        skip(components, "not a regular file")
        continue
      }
      if name == MarkdownExport.notebookFile {
        hasMetadata = true
        guard let text = text(of: file, at: components),
          let (matter, _) = frontMatter(of: text, at: components)
        else { continue }
        folder.title = matter?.title
        folder.created = matter?.created
      } else if MarkdownImport.noteExtensions.contains(fileExtension(name)) {
        if let note = note(at: file, name: name, path: components, modified: kind.modified) {
          folder.notes.append(note)
        }
      } else {
        skip(components, "not a .md, .markdown or .txt file")
      }
    }
    if hasMetadata || !folder.notes.isEmpty { folders.append(folder) }
    for (path, components) in subfolders { scan(path, components: components) }
  }

  /// Why a link whose target cannot be resolved (`errno` `code`) is skipped.
  private static func brokenLink(_ code: Int32) -> String {
    switch code {
    case ENOENT, ENOTDIR: "a link to nothing: its target does not exist"
    case ELOOP: "a link that loops back on itself"
    default: "a link that cannot be followed: \(String(cString: strerror(code)))"
    }
  }

  /// The lowercased extension of `name`, without its dot; empty for none.
  ///
  /// A name that is only a dot and an extension (`.md`) has that extension.
  private func fileExtension(_ name: String) -> String {
    guard let dot = name.lastIndex(of: ".") else { return "" }
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
    let fallback = stem.isEmpty ? name : stem
    return LibraryDocument.NoteEntry(
      id: nil, notebookID: 0, title: matter?.title ?? MarkdownImport.heading(of: body) ?? fallback,
      body: String(body), created: created, modified: modified, pinned: matter?.pinned ?? false,
      source: DisplayText.quoted(shown(path), limit: .max))
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
