// WriteCommands: `add` and `import`, the commands that change the library.
//
// Guarantees
// - Input (standard input, the import file, its JSON) is read and checked before the
//   database is opened: bad input exits 65 and writes nothing.
// - Every note and notebook is created by the Notes actions (`CreateNotebook`,
//   `CreateNote`), validated by `NotesRules`, all in one model write: either everything
//   is saved or nothing is, and a refusal lists every reason with the item it concerns.
// - `add` needs an existing notebook (matched ignoring case) unless `--create-notebook`
//   is given; it prints the new note's id.
// - `import` merges a notebook into an existing one of the same title (ignoring case),
//   assigns new ids, keeps titles, bodies, pinning and both dates, and prints a summary.
//   A folder is read by MarkdownImport into the same document, so it is checked and saved
//   the same way; a refused item is named by its file's path.

import Airframe
import Foundation
import NotesCore

/// The commands that change the library.
@MainActor
enum WriteCommands {
  /// Adds a note and prints its id.
  ///
  /// A `nil` body is read from standard input, unless that is a terminal (then empty).
  ///
  /// - Throws: ``CommandFailure``: 65 for input that is not UTF-8 or a refused note, 66 for
  ///   a missing notebook without `createNotebook`, 1 if the library cannot be saved.
  static func add(
    notebook name: String, title: String, body: String?, createNotebook: Bool,
    databasePath: String?, io: CommandIO
  ) throws(CommandFailure) {
    let body = try standardInputBody(unless: body, io: io)
    let session = try LibrarySession(databasePath: databasePath)
    defer { session.close() }
    let existing = try session.notebook(named: name)
    if existing == nil, !createNotebook {
      throw .noNotebook(name, hint: " (--create-notebook creates it)")
    }
    let now = Date()
    let id = try session.commit { transaction, run -> NoteID? in
      var notebookID = existing?.id
      if notebookID == nil {
        let create = CreateNotebook(title: name, now: now)
        if let created = try run.run(create, item: nil, in: &transaction) {
          notebookID = created.id(in: \NotesState.notebooks)
        } else {
          // Still report what is wrong with the note itself.
          let issues =
            NotesRules.titleIssues(title, field: "note title") + NotesRules.bodyIssues(body)
          for issue in issues { run.record(issue.message, item: nil) }
        }
      }
      guard let notebookID else { return nil }
      let note = CreateNote(notebookID: notebookID, title: title, body: body, now: now)
      return try run.run(note, item: nil, in: &transaction)?.id(in: \NotesState.notes)
    }
    if let id { io.write("\(id)\n") }
  }

  /// `given`, else all of standard input as text, or nothing when that is a terminal.
  private static func standardInputBody(
    unless given: String?, io: CommandIO
  ) throws(CommandFailure) -> String {
    if let given { return given }
    if io.isInputTerminal() { return "" }
    return try CommandInput.text(io.readInput(), from: "standard input")
  }

  /// Imports a ``LibraryDocument`` from the file at `path` (`-`: standard input), or the
  /// notes of the folder at `path` (see ``MarkdownImport``).
  ///
  /// - Throws: ``CommandFailure``: 66 if the file cannot be read, 65 for bytes that are
  ///   not UTF-8, a document that is not a version 1 export, a folder with a file that
  ///   cannot be read, or any refused item, 1 if the library cannot be saved. Nothing is
  ///   saved then.
  static func importLibrary(
    from path: String, databasePath: String?, io: CommandIO
  ) throws(CommandFailure) {
    let document: LibraryDocument
    var skipped: Int?
    if path != "-", MarkdownImport.isFolder(path) {
      (document, skipped) = try MarkdownImport.read(folder: path)
    } else {
      let source = path == "-" ? "standard input" : TerminalText.quoted(path, limit: .max)
      let text = try CommandInput.text(try CommandInput.bytes(of: path, io: io), from: source)
      document = try LibraryDocument(json: text, from: source)
    }
    let session = try LibrarySession(databasePath: databasePath)
    defer { session.close() }
    let counts = try session.commit { transaction, run in
      try insert(document, into: &transaction, run: &run)
    }
    io.write(
      "imported \(plural(counts.notes, "note")): \(plural(counts.created, "new notebook")), "
        + "\(counts.merged) merged into notebooks of the same title\n")
    if let skipped {
      io.write("skipped \(plural(skipped, "file")) not ending in .md, .markdown or .txt\n")
    }
  }

  /// Creates the document's notebooks (or finds one of the same title) and its notes.
  ///
  /// - Returns: How many notes it created, how many notebooks it created and how many it
  ///   merged into existing ones.
  /// - Throws: What an action's `perform` throws; refusals are recorded in `run`.
  static func insert(
    _ document: LibraryDocument, into transaction: inout Transaction<NotesState>,
    run: inout ActionRun
  ) throws -> (notes: Int, created: Int, merged: Int) {
    let now = Date()
    var counts = (notes: 0, created: 0, merged: 0)
    var byTitle: [String: NotebookID] = [:]
    for notebook in transaction.state.notebooks.elements {
      byTitle[LibrarySession.titleKey(notebook.title)] = notebook.id
    }
    var byDocumentID: [Int64: NotebookID] = [:]
    var listed: Set<Int64> = []
    for (index, entry) in document.notebooks.enumerated() {
      let item = entry.source ?? "notebooks[\(index)]"
      guard listed.insert(entry.id).inserted else {
        run.record("another notebook has the id \(entry.id) too", item: item)
        continue
      }
      let key = LibrarySession.titleKey(entry.title)
      if let existing = byTitle[key] {
        byDocumentID[entry.id] = existing
        counts.merged += 1
        continue
      }
      let action = CreateNotebook(title: entry.title, now: entry.created ?? now)
      guard
        let id = try run.run(action, item: item, in: &transaction)?.id(in: \NotesState.notebooks)
      else { continue }
      byTitle[key] = id
      byDocumentID[entry.id] = id
      counts.created += 1
    }
    for (index, entry) in document.notes.enumerated() {
      let item = entry.source ?? "notes[\(index)]"
      guard let notebookID = byDocumentID[entry.notebookID] else {
        // A listed notebook that was refused has been reported already.
        if !listed.contains(entry.notebookID) {
          run.record("no notebook in the document has the id \(entry.notebookID)", item: item)
        }
        continue
      }
      let created = entry.created ?? now
      let action = CreateNote(
        notebookID: notebookID, title: entry.title, body: entry.body ?? "", now: created)
      guard let id = try run.run(action, item: item, in: &transaction)?.id(in: \NotesState.notes)
      else { continue }
      try transaction.update(id, in: \.notes) {
        $0.modified = entry.modified ?? created
        $0.isPinned = entry.pinned ?? false
      }
      counts.notes += 1
    }
    return counts
  }

  private static func plural(_ count: Int, _ noun: String) -> String {
    count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
  }
}
