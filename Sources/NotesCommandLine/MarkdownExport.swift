// MarkdownExport: `notes export --markdown DIR`, the library as a folder of Markdown files
// that other tools read.
//
// Guarantees
// - DIR gets one folder per notebook and one `.md` file per note: its front matter (title,
//   created, modified, pinned; see FrontMatter), then the body byte for byte. Each folder
//   holds a `.notebook.md` with the notebook's exact title and created date, so what a
//   folder name cannot carry still round-trips through `import DIR`.
// - Names come from titles through `FileNames`: safe on every common file system and
//   unique in their folder ignoring case. Notebooks and notes are named in id order, so
//   the same library always makes the same names.
// - DIR must not exist, or be an empty folder, and its parent must exist: anything else is
//   refused with exit code 73 before the library is opened, and nothing is touched.
// - Everything is written into a new hidden folder beside DIR, which is renamed to DIR
//   only once every file is written. A failure removes it, so DIR never holds half an
//   export. DIR is private to the user (0700), like the library itself.

import Airframe
import Foundation
import NotesCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes the library as Markdown files.
@MainActor
enum MarkdownExport {
  /// The name of the file in each notebook's folder that holds the notebook's own fields.
  nonisolated static let notebookFile = ".notebook.md"

  /// One folder of the export: a notebook, its metadata file and its notes' files.
  struct Folder {
    /// The folder's name.
    var name: String
    /// The notebook.
    var notebook: Notebook
    /// Each note with its file's name, in id order.
    var files: [(name: String, note: Note)]
  }

  /// The folders an export of `state` makes, in notebook id order, with their names.
  ///
  /// - Parameter state: The library.
  /// - Returns: The folders, and how many notes had no notebook (and are left out).
  nonisolated static func plan(_ state: NotesState) -> (folders: [Folder], orphans: Int) {
    var folderNames = FileNames()
    var folders: [Folder] = []
    var index: [NotebookID: Int] = [:]
    for notebook in state.notebooks.elements.sorted(by: { $0.id < $1.id }) {
      index[notebook.id] = folders.count
      folders.append(
        Folder(
          name: folderNames.name(for: notebook.title, fileExtension: ""), notebook: notebook,
          files: []))
    }
    var fileNames = Array(repeating: FileNames(), count: folders.count)
    var orphans = 0
    for note in state.notes.elements.sorted(by: { $0.id < $1.id }) {
      guard let position = index[note.notebookID] else {
        orphans += 1
        continue
      }
      let name = fileNames[position].name(for: note.title, fileExtension: "md")
      folders[position].files.append((name, note))
    }
    return (folders, orphans)
  }

  /// The text of a note's file: its front matter, then its body.
  nonisolated static func fileText(of note: Note) -> String {
    FrontMatter(
      title: note.title, created: note.created, modified: note.modified, pinned: note.isPinned
    ).text + note.body
  }

  /// The text of a notebook's `.notebook.md`: front matter only.
  nonisolated static func metadataText(of notebook: Notebook) -> String {
    FrontMatter(title: notebook.title, created: notebook.created).text
  }

  /// Exports the library at `databasePath` into the folder `path`, and prints a summary.
  ///
  /// - Throws: ``CommandFailure``: 73 if `path` exists and is not an empty folder, if its
  ///   parent folder is missing, or if a file cannot be written (nothing is left then);
  ///   1 if the library cannot be read.
  static func export(
    to path: String, databasePath: String?, io: CommandIO
  ) throws(CommandFailure) {
    let target = URL(fileURLWithPath: path).standardizedFileURL
    try checkTarget(target, shown: path)
    let session = try LibrarySession(databasePath: databasePath)
    let state: NotesState
    do {
      defer { session.close() }
      state = try session.state
    }
    let (folders, orphans) = plan(state)
    let parent = target.deletingLastPathComponent()
    let staging = parent.appendingPathComponent(
      ".\(target.lastPathComponent).export-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(
        at: staging, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o700])
      for folder in folders {
        let url = staging.appendingPathComponent(folder.name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        try write(metadataText(of: folder.notebook), to: url.appendingPathComponent(notebookFile))
        for file in folder.files {
          try write(fileText(of: file.note), to: url.appendingPathComponent(file.name))
        }
      }
      flushToDisk(staging)
      // rename(2) replaces an empty folder at the target, and fails if it is not empty.
      guard rename(staging.path, target.path) == 0 else {
        throw CommandFailure(
          .cannotCreate,
          "cannot move the export into \(shown(path)): \(String(cString: strerror(errno)))")
      }
    } catch {
      try? FileManager.default.removeItem(at: staging)
      if let failure = error as? CommandFailure { throw failure }
      throw CommandFailure(.cannotCreate, "cannot write the export to \(shown(path)): \(error)")
    }
    let notes = folders.reduce(0) { $0 + $1.files.count }
    var summary =
      "exported \(notes == 1 ? "1 note" : "\(notes) notes") in "
      + "\(folders.count == 1 ? "1 notebook" : "\(folders.count) notebooks") to \(shown(path))"
    if orphans > 0 { summary += " (\(orphans) without a notebook left out)" }
    io.write(summary + "\n")
  }

  /// Throws unless `target` is missing or an empty folder, in a folder that exists.
  private static func checkTarget(_ target: URL, shown path: String) throws(CommandFailure) {
    let files = FileManager.default
    var isFolder: ObjCBool = false
    if files.fileExists(atPath: target.path, isDirectory: &isFolder) {
      guard isFolder.boolValue else {
        throw CommandFailure(
          .cannotCreate, "\(shown(path)) is a file; export --markdown needs a new or empty folder")
      }
      let contents = (try? files.contentsOfDirectory(atPath: target.path)) ?? [""]
      guard contents.isEmpty else {
        throw CommandFailure(
          .cannotCreate,
          "\(shown(path)) is not empty; export --markdown writes only into a new or empty "
            + "folder, so no file of yours is overwritten")
      }
    }
    let parent = target.deletingLastPathComponent().path
    guard files.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
      throw CommandFailure(.cannotCreate, "no folder \(shown(parent)) to export into")
    }
  }

  /// Writes `text` into a new file at `url` (never over an existing one).
  ///
  /// No `fsync` per file (Foundation's `Data.write` makes one, and a sync per file would
  /// be most of an export's time): ``flushToDisk(_:)`` makes the whole folder durable
  /// once, before the rename.
  private static func write(_ text: String, to url: URL) throws {
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw POSIXFailure(url: url) }
    defer { close(descriptor) }
    var text = text
    try text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { throw POSIXFailure(url: url) }
        offset += written
      }
    }
  }

  /// Waits until every file written under `folder` is on disk: one `syncfs` of its file
  /// system (`sync` where there is none), not one `fsync` per file.
  private static func flushToDisk(_ folder: URL) {
    #if canImport(Glibc)
      // Glibc's module map leaves syncfs out (it is a GNU extension); libc has it.
      typealias SyncFileSystem = @convention(c) (Int32) -> Int32
      let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      if descriptor >= 0, let symbol = dlsym(dlopen(nil, RTLD_NOW), "syncfs") {
        _ = unsafeBitCast(symbol, to: SyncFileSystem.self)(descriptor)
        close(descriptor)
        return
      }
      if descriptor >= 0 { close(descriptor) }
    #endif
    sync()
  }

  private static func shown(_ path: String) -> String {
    TerminalText.quoted(path, limit: .max)
  }
}

#if canImport(Glibc)
  private let systemWrite = Glibc.write
#elseif canImport(Darwin)
  private let systemWrite = Darwin.write
#endif

/// A system call that failed on a file, with the system's reason.
private struct POSIXFailure: Error, CustomStringConvertible {
  /// What it failed on and why.
  let description: String

  /// The failure `errno` names, on the file at `url`.
  init(url: URL) {
    description = "\(url.path): \(String(cString: strerror(errno)))"
  }
}
