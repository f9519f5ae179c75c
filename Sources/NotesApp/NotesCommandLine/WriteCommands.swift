import Airframe
import Foundation
import NotesCore
import NotesFiles
import NotesHost
import NotesPresentation

/// The commands that change the library.
///
/// They are `add` and `import`.
///
/// ## Guarantees
///
/// - Input (standard input, the import file, its JSON) is read and checked before the
///   database is opened: bad input exits 65 and writes nothing.
/// - Both go through the session like every other write command: one `ImportNotes`
///   action, dispatched (validated, logged, one undo step), which creates every note and
///   notebook with the Notes actions (`CreateNotebook`, `CreateNote`, so `NotesRules`) in
///   one model write: either everything is saved or nothing is, and a refusal lists every
///   reason with the item it concerns. Reads (list, show, search, export) stay direct on
///   the database, for speed.
/// - `add` needs an existing notebook (matched ignoring case) unless `--create-notebook`
///   is given; it prints the new note's id.
/// - `import` merges a notebook into an existing one of the same title (ignoring case),
///   assigns new ids, keeps titles, bodies, pinning and both dates, and prints a summary.
///   A folder is read by MarkdownImport into the same document, so it is checked and saved
///   the same way; a refused item is named by its file's path.
@MainActor
enum WriteCommands {
  /// Adds a note and prints its id.
  ///
  /// A `nil` body is read from standard input, unless that is a terminal (then empty).
  ///
  /// - Throws: ``CommandFailure``: 65 for input that is not UTF-8 or a refused note, 66 for
  ///   a missing notebook without `createNotebook`, 73 if the library may not be written,
  ///   74 for a full disk, 1 if the library cannot be saved otherwise.
  static func add(
    notebook name: String, title: String, body: String?, createNotebook: Bool,
    databasePath: String?, io: CommandIO
  ) throws(CommandFailure) {
    let body = try standardInputBody(unless: body, io: io)
    let library = try LibrarySession.openLibrary(databasePath)
    defer { library.close() }
    let key = LibrarySession.titleKey(name)
    let exists = library.session.notebooks.value.contains {
      LibrarySession.titleKey($0.title) == key
    }
    if !exists, !createNotebook {
      throw .noNotebook(name, hint: " (--create-notebook creates it)")
    }
    let add = ImportNotes(
      notebooks: [ImportNotes.NotebookItem(key: 0, title: name, created: nil, label: "")],
      notes: [
        ImportNotes.NoteItem(
          notebook: 0, title: title, body: body, created: nil, modified: nil, isPinned: false,
          label: "")
      ],
      now: Date(), name: "Add Note")
    let created: CreatedEntities
    do throws(CommandFailure) {
      created = try committed(library.session.notesImported(add))
    } catch {
      throw error.caused(by: library.lastSaveFailure)
    }
    if let id = created.id(in: \NotesState.notes) { io.write("\(id)\n") }
  }

  /// `given`, else all of standard input as text, or nothing when that is a terminal.
  private static func standardInputBody(
    unless given: String?, io: CommandIO
  ) throws(CommandFailure) -> String {
    if let given { return given }
    if io.isInputTerminal() { return "" }
    return try CommandInput.text(io.readInput(), from: "standard input")
  }

  /// Imports a `LibraryDocument` from the file at `path` (`-`: standard input), or the
  /// notes of the folder at `path` (see `MarkdownImport`).
  ///
  /// - Throws: ``CommandFailure``: 66 if the file cannot be read, 65 for bytes that are
  ///   not UTF-8, a document that is not a version 1 export, a folder with a file that
  ///   cannot be read, or any refused item, 1 if the library cannot be saved. Nothing is
  ///   saved then.
  static func importLibrary(
    from path: String, databasePath: String?, io: CommandIO
  ) throws(CommandFailure) {
    let document: LibraryDocument
    var skipped: [MarkdownImport.Skipped]?
    var progress = ProgressLine(io: io)
    defer { progress.finish() }
    if path != "-", MarkdownImport.isFolder(path) {
      progress.show("Reading files")
      (document, skipped) = try CommandFailure.files { () throws(FileFailure) in
        try MarkdownImport.read(folder: path) { files in
          progress.show("Reading files", done: files)
        }
      }
    } else if path == "-" {
      let text = try CommandInput.text(io.readInput(), from: "standard input")
      document = try CommandFailure.files { () throws(FileFailure) in
        try LibraryDocument(json: text, from: "standard input")
      }
    } else {
      document = try CommandFailure.files { () throws(FileFailure) in
        try LibraryDocument.read(contentsOf: path).document
      }
    }
    let library = try LibrarySession.openLibrary(databasePath)
    defer { library.close() }
    progress.show("Saving \(Counts.grouped(document.notes.count)) notes…")
    let counts: ImportSummary
    do throws(CommandFailure) {
      counts = try imported(document, into: library.session)
    } catch {
      throw error.caused(by: library.lastSaveFailure)
    }
    progress.finish()
    io.write(
      "imported \(Counts.phrase(counts.notes, "note")):"
        + " \(Counts.phrase(counts.newNotebooks, "new notebook")),"
        + " \(Counts.grouped(counts.mergedNotebooks)) merged into notebooks of the same title\n")
    if let skipped { io.write(skippedReport(skipped)) }
  }

  /// What `import DIR` says about the files and folders it did not read: how many, then
  /// each one's path and why, one a line.
  static func skippedReport(_ skipped: [MarkdownImport.Skipped]) -> String {
    let folders = skipped.count(where: \.isFolder)
    var text = "skipped \(Counts.phrase(skipped.count - folders, "file"))"
    if folders > 0 { text += " and \(Counts.phrase(folders, "folder"))" }
    if skipped.isEmpty { return text + "\n" }
    text += ":\n"
    for entry in skipped { text += "  \(entry.shown): \(entry.reason)\n" }
    return text
  }

  /// Imports the document's notebooks (merging into notebooks of the same title) and
  /// notes through the session, in one step: all or nothing.
  ///
  /// - Returns: How many notes it created, how many notebooks it created and how many it
  ///   merged into existing ones.
  /// - Throws: ``CommandFailure``: 65 with every refused item's reason (at most
  ///   `Reasons.limit`, then how many more), 1 if the library cannot be saved.
  static func imported(
    _ document: LibraryDocument, into session: NotesSession
  ) throws(CommandFailure) -> ImportSummary {
    document.summary(of: try committed(session.notesImported(document.importAction(now: Date()))))
  }

  /// What a committed import created; a refusal or failure as the command's failure.
  private static func committed(_ outcome: ActionOutcome) throws(CommandFailure)
    -> CreatedEntities
  {
    switch outcome {
    case .committed(_, let created): return created
    case .unchanged: return CreatedEntities()
    case .invalid(let result):
      throw CommandFailure(.invalidData, lines: Reasons.reported(result.issues.map(\.message)))
    case .rejected(let reason): throw CommandFailure(.invalidData, reason)
    case .failed, .cancelled, .superseded: throw CommandFailure(.failure, outcome.description)
    }
  }
}
