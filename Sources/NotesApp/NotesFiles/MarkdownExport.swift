import Airframe
import Foundation
public import NotesCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes the library as Markdown files.
///
/// The library as a folder of Markdown files that other tools read: what
/// `notes export --markdown DIR` and every presentation's Export command write.
///
/// ## Guarantees
///
/// - DIR gets one folder per notebook and one `.md` file per note: its front matter (title,
///   created, modified, pinned; see FrontMatter), then the body byte for byte. Each folder
///   holds a `.notebook.md` with the notebook's exact title and created date, so what a
///   folder name cannot carry still round-trips through `import DIR`.
/// - Names come from titles through `FileNames`: safe on every common file system and
///   unique in their folder ignoring case. Notebooks and notes are named in id order, so
///   the same library always makes the same names.
/// - DIR must not exist, or be an empty folder, and its parent must exist and be writable
///   by this user: anything else is refused (``FileFailure/Kind/cannotCreate``) before a
///   file is written, and nothing is touched.
/// - A failure says what happened in words, with DIR's path: a folder or file this user
///   may not write (``FileFailure/Kind/cannotCreate``), a full disk or another error the
///   system gives (``FileFailure/Kind/ioError``).
/// - Everything is written into a new hidden folder beside DIR, which is renamed to DIR
///   only once every file is written. A failure removes it, so DIR never holds half an
///   export. DIR is private to the user (0700), like the library itself.
public enum MarkdownExport {
  /// The name of the file in each notebook's folder that holds the notebook's own fields.
  public static let notebookFile = ".notebook.md"

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
  static func plan(_ state: NotesState) -> (folders: [Folder], orphans: Int) {
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
  static func fileText(of note: Note) -> String {
    FrontMatter(
      title: note.title, created: note.created, modified: note.modified, pinned: note.isPinned
    ).text + note.body
  }

  /// The text of a notebook's `.notebook.md`: front matter only.
  static func metadataText(of notebook: Notebook) -> String {
    FrontMatter(title: notebook.title, created: notebook.created).text
  }

  /// Writes `state` as Markdown files into the folder `path`.
  ///
  /// Runs on any thread: it reads only `state`, a value, and the file system.
  ///
  /// - Parameters:
  ///   - state: The library, as it was when the export was asked for.
  ///   - path: The folder, as the user wrote it (messages show it).
  /// - Returns: How many notes and notebooks it wrote.
  /// - Throws: ``FileFailure``: ``FileFailure/Kind/cannotCreate`` if `path` exists and is
  ///   not an empty folder, if its parent folder is missing or may not be written, or if a
  ///   file may not be written; ``FileFailure/Kind/ioError`` for a full disk or another
  ///   failed write. Nothing is left at `path` then.
  public static func write(
    _ state: NotesState, to path: String
  ) throws(FileFailure) -> ExportSummary {
    try checkTarget(path)
    let target = URL(fileURLWithPath: path).standardizedFileURL
    let (folders, orphans) = plan(state)
    let parent = target.deletingLastPathComponent()
    let staging = parent.appendingPathComponent(
      ".\(target.lastPathComponent).export-\(UUID().uuidString)")
    do throws(SystemFailure) {
      try createFolder(staging, mode: 0o700)
      for folder in folders {
        let url = staging.appendingPathComponent(folder.name, isDirectory: true)
        try createFolder(url, mode: 0o755)
        try write(metadataText(of: folder.notebook), to: url.appendingPathComponent(notebookFile))
        for file in folder.files {
          try write(fileText(of: file.note), to: url.appendingPathComponent(file.name))
        }
      }
      flushToDisk(staging)
      // rename(2) replaces an empty folder at the target, and fails if it is not empty.
      guard rename(staging.path, target.path) == 0 else { throw SystemFailure() }
    } catch {
      try? FileManager.default.removeItem(at: staging)
      throw error.failure(exporting: path)
    }
    return ExportSummary(
      notes: folders.reduce(0) { $0 + $1.files.count }, notebooks: folders.count,
      notesWithoutNotebook: orphans)
  }

  /// Checks that an export can be written to the folder `path`: it is missing or an empty
  /// folder, in a folder that exists and this user may write.
  ///
  /// ``write(_:to:)`` checks it too; the command line checks first, so a refused target
  /// never opens the library.
  ///
  /// - Parameter path: The folder, as the user wrote it.
  /// - Throws: ``FileFailure`` of kind ``FileFailure/Kind/cannotCreate`` saying why not.
  public static func checkTarget(_ path: String) throws(FileFailure) {
    let target = URL(fileURLWithPath: path).standardizedFileURL
    let files = FileManager.default
    var isFolder: ObjCBool = false
    if files.fileExists(atPath: target.path, isDirectory: &isFolder) {
      guard isFolder.boolValue else {
        throw FileFailure(
          .cannotCreate, "\(shown(path)) is a file; an export needs a new or empty folder")
      }
      let contents = (try? files.contentsOfDirectory(atPath: target.path)) ?? [""]
      guard contents.isEmpty else {
        throw FileFailure(
          .cannotCreate,
          "\(shown(path)) is not empty; an export writes only into a new or empty "
            + "folder, so no file of yours is overwritten")
      }
    }
    let parent = target.deletingLastPathComponent().path
    guard files.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
      throw FileFailure(.cannotCreate, "no folder \(shown(parent)) to export into")
    }
    // The export is written beside DIR, then moved into place.
    guard access(parent, W_OK | X_OK) == 0 else {
      throw FileFailure(
        .cannotCreate,
        "cannot write the export to \(shown(path)): this user may not write in its folder "
          + "\(shown(parent)) (\(String(cString: strerror(errno))))")
    }
  }

  /// Creates the folder `url` with `mode`, whatever the umask takes away.
  private static func createFolder(_ url: URL, mode: mode_t) throws(SystemFailure) {
    guard mkdir(url.path, mode) == 0, chmod(url.path, mode) == 0 else { throw SystemFailure() }
  }

  /// Writes `text` into a new file at `url` (never over an existing one).
  ///
  /// No `fsync` per file (Foundation's `Data.write` makes one, and a sync per file would
  /// be most of an export's time): ``flushToDisk(_:)`` makes the whole folder durable
  /// once, before the rename.
  private static func write(_ text: String, to url: URL) throws(SystemFailure) {
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw SystemFailure() }
    var text = text
    let failure = text.withUTF8 { bytes -> SystemFailure? in
      var offset = 0
      while offset < bytes.count {
        let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0, errno == EINTR { continue }
        // A write of nothing, on a regular file, is a full disk.
        guard written > 0 else { return written == 0 ? SystemFailure(ENOSPC) : SystemFailure() }
        offset += written
      }
      return nil
    }
    // close(2) reports a write that failed late (a full disk over NFS).
    let closed = close(descriptor) == 0 ? nil : SystemFailure()
    if let failure = failure ?? closed { throw failure }
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
    DisplayText.quoted(path, limit: .max)
  }
}

#if canImport(Glibc)
  private let systemWrite = Glibc.write
#elseif canImport(Darwin)
  private let systemWrite = Darwin.write
#endif

/// A system call of the export that failed, with its `errno`.
struct SystemFailure: Error {
  /// The `errno` value.
  let code: Int32

  /// The failure `errno` names now, or `code`.
  init(_ code: Int32 = errno) { self.code = code }

  /// The command's failure for an export to `path` that met this: in words, with the
  /// status its cause calls for.
  func failure(exporting path: String) -> FileFailure {
    let target = "cannot write the export to \(DisplayText.quoted(path, limit: .max))"
    switch code {
    case ENOSPC, EDQUOT:
      return FileFailure(.ioError, "\(target): the disk is full; nothing was written")
    case ENOTEMPTY, EEXIST:
      return FileFailure(
        .cannotCreate, "\(target): something else was put there meanwhile; nothing was written")
    case EACCES, EPERM, EROFS:
      return FileFailure(
        .cannotCreate,
        "\(target): this user may not write there (\(String(cString: strerror(code)))); "
          + "nothing was written")
    default:
      return FileFailure(
        .ioError, "\(target): \(String(cString: strerror(code))); nothing was written")
    }
  }
}

/// What an export wrote.
public struct ExportSummary: Equatable, Sendable {
  /// How many notes it wrote.
  public var notes: Int
  /// How many notebooks it wrote, each a folder.
  public var notebooks: Int
  /// How many notes it left out because their notebook is gone.
  public var notesWithoutNotebook: Int

  /// A summary.
  public init(notes: Int, notebooks: Int, notesWithoutNotebook: Int) {
    self.notes = notes
    self.notebooks = notebooks
    self.notesWithoutNotebook = notesWithoutNotebook
  }
}
