// ReadCommands: `list`, `show`, `search` and `export`, which print the library and change
// nothing in it.
//
// Guarantees
// - Plain lists print one line per note: id, notebook title and note title separated by
//   tabs. Control characters in titles (the app never stores them, but another writer
//   could) are printed as U+FFFD, so a line is always one line and never drives the
//   terminal.
// - `list` orders by notebook title (ignoring case), then pinned first, then most recently
//   modified, then id: the same library always lists the same way. `search` keeps the
//   search's order, most relevant first, and returns every match.
// - `--json` prints the same notes as a JSON array of `NoteListing` objects.

import Airframe
import Foundation
import NotesCore
import NotesStorage

/// The commands that only read the library.
@MainActor
enum ReadCommands {
  /// Prints the notes of the notebook titled `name` (all notes when `nil`).
  ///
  /// - Throws: ``CommandFailure`` with exit code 66 if no notebook has that title.
  static func list(
    notebook name: String?, json: Bool, in session: LibrarySession, io: CommandIO
  ) throws(CommandFailure) {
    let state = try session.state
    var notes = Array(state.notes.elements)
    if let name {
      guard let notebook = try session.notebook(named: name) else { throw .noNotebook(name) }
      notes = notes.filter { $0.notebookID == notebook.id }
    }
    io.write(try render(sorted(notes, in: state), json: json, in: state))
  }

  /// Prints one note: its fields, a blank line, then its body.
  ///
  /// Reads that note and the notebooks only, not the library.
  ///
  /// - Throws: ``CommandFailure`` with exit code 66 if no note has `id`.
  static func show(
    _ id: NoteID, json: Bool, in session: LibrarySession, io: CommandIO
  ) throws(CommandFailure) {
    let state = try read([id], from: session)
    guard let note = state.notes[id] else {
      throw CommandFailure(.notFound, "no note with id \(id)")
    }
    if json {
      io.write(try JSONCoding.text(NoteListing(note, in: state)))
      return
    }
    let notebook = state.notebooks[note.notebookID]?.title ?? ""
    var text = """
      ID: \(note.id)
      Title: \(TerminalText.line(note.title))
      Notebook: \(TerminalText.line(notebook))
      Created: \(JSONCoding.format(note.created))
      Modified: \(JSONCoding.format(note.modified))
      Pinned: \(note.isPinned ? "yes" : "no")


      """
    text += TerminalText.body(note.body)
    if !note.body.isEmpty, !note.body.hasSuffix("\n") { text += "\n" }
    io.write(text)
  }

  /// Prints every note containing every word of `query`, most relevant first.
  ///
  /// Reads the matching notes and the notebooks only, not the library.
  ///
  /// - Throws: ``CommandFailure`` with exit code 1 if the database cannot be searched.
  static func search(
    _ query: String, json: Bool, in session: LibrarySession, io: CommandIO
  ) throws(CommandFailure) {
    let ids: [NoteID]
    do {
      ids = try session.database.search(query, limit: Int(Int32.max))
    } catch {
      throw CommandFailure(.failure, error.description)
    }
    let state = try read(ids, from: session)
    io.write(try render(ids.compactMap { state.notes[$0] }, json: json, in: state))
  }

  /// Prints the whole library as a ``LibraryDocument``.
  static func export(from session: LibrarySession, io: CommandIO) throws(CommandFailure) {
    io.write(try JSONCoding.text(LibraryDocument(try session.state)))
  }

  /// A state holding the notes with `ids` that exist and every notebook, read directly.
  private static func read(
    _ ids: [NoteID], from session: LibrarySession
  ) throws(CommandFailure) -> NotesState {
    do {
      let (notes, notebooks) = try session.database.notes(withIDs: ids)
      return NotesState(notebooks: notebooks, notes: notes)
    } catch {
      throw CommandFailure(.failure, error.description)
    }
  }

  /// `notes` in `list` order.
  static func sorted(_ notes: [Note], in state: NotesState) -> [Note] {
    let keys = Dictionary(
      uniqueKeysWithValues: state.notebooks.elements.map {
        ($0.id, LibrarySession.titleKey($0.title))
      })
    return notes.sorted { left, right in
      let leftKey = keys[left.notebookID] ?? ""
      let rightKey = keys[right.notebookID] ?? ""
      if leftKey != rightKey { return leftKey < rightKey }
      if left.notebookID != right.notebookID { return left.notebookID < right.notebookID }
      if left.isPinned != right.isPinned { return left.isPinned }
      if left.modified != right.modified { return left.modified > right.modified }
      return left.id < right.id
    }
  }

  /// Tab-separated lines, or a JSON array.
  private static func render(
    _ notes: [Note], json: Bool, in state: NotesState
  ) throws(CommandFailure) -> String {
    if json { return try JSONCoding.text(notes.map { NoteListing($0, in: state) }) }
    return notes.map { note in
      let notebook = state.notebooks[note.notebookID]?.title ?? ""
      return "\(note.id)\t\(TerminalText.line(notebook))\t\(TerminalText.line(note.title))\n"
    }.joined()
  }
}
