import Airframe
import Foundation
import NotesCore
import NotesFiles
import NotesStorage

/// The commands that only read the library.
///
/// `list`, `show`, `search`, `trash` and `export`, which print the library and change nothing
/// in it.
///
/// ## Guarantees
///
/// - Plain lists print one line per note: id, notebook title and note title separated by
///   tabs. Control characters in titles (the app never stores them, but another writer
///   could) are printed as U+FFFD, so a line is always one line and never drives the
///   terminal.
/// - `list` orders by notebook title (ignoring case), then pinned first, then most recently
///   modified, then id: the same library always lists the same way. `search` keeps the
///   search's order, most relevant first, and returns every match.
/// - `--json` prints the same notes as a JSON array of `NoteListing` objects.
/// - They work on a library opened read-only (see `LibrarySession`).
@MainActor
enum ReadCommands {
  /// Prints the notes of the notebook titled `name` (all notes when `nil`).
  ///
  /// Reads the notes as a list, without loading the library into a state.
  ///
  /// - Throws: ``CommandFailure`` with exit code 66 if no notebook has that title.
  static func list(
    notebook name: String?, json: Bool, in session: LibrarySession, io: CommandIO
  ) throws(CommandFailure) {
    var notes: [Note]
    let notebooks: [Notebook]
    do {
      (notes, notebooks) = try session.database.allNotes()
    } catch {
      throw CommandFailure(error)
    }
    if let name {
      let key = LibrarySession.titleKey(name)
      guard let notebook = notebooks.first(where: { LibrarySession.titleKey($0.title) == key })
      else { throw .noNotebook(name) }
      notes = notes.filter { $0.notebookID == notebook.id }
    }
    // The notebooks name the notes; the notes themselves need no table.
    let names = NotesState(notebooks: notebooks, notes: [])
    let order = listOrder(of: notes, notebooks: notebooks)
    io.write(try render(notes, in: order, json: json, names: names))
  }

  /// Prints the notes in Recently Deleted, most recently deleted first: id, the notebook it
  /// was in, title and when it was deleted (ISO 8601, UTC), tab-separated; or a JSON array
  /// of `NoteListing` objects with a `deleted` date.
  static func trash(json: Bool, in session: LibrarySession, io: CommandIO) throws(CommandFailure) {
    let entries: [DeletedNote]
    do {
      entries = try session.database.recentlyDeletedNotes().sorted {
        ($0.deleted, $0.id.rawValue) > ($1.deleted, $1.id.rawValue)
      }
    } catch {
      throw CommandFailure(error)
    }
    if json {
      let listings = entries.map { NoteListing(deleted: $0) }
      io.write(
        try CommandFailure.files { () throws(FileFailure) in try JSONCoding.text(listings) })
      return
    }
    let dates = ISO8601DateFormatter()
    var text = ""
    for entry in entries {
      text.append(
        "\(entry.id.rawValue)\t\(DisplayText.line(entry.notebookTitle))\t"
          + "\(DisplayText.line(entry.note.title))\t\(dates.string(from: entry.deleted))\n")
    }
    io.write(text)
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
      io.write(
        try CommandFailure.files { () throws(FileFailure) in
          try JSONCoding.text(NoteListing(note, in: state))
        })
      return
    }
    let notebook = state.notebooks[note.notebookID]?.title ?? ""
    var text = """
      ID: \(note.id)
      Title: \(DisplayText.line(note.title))
      Notebook: \(DisplayText.line(notebook))
      Created: \(JSONCoding.format(note.created))
      Modified: \(JSONCoding.format(note.modified))
      Pinned: \(note.isPinned ? "yes" : "no")


      """
    text += DisplayText.body(note.body)
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
      throw CommandFailure(error)
    }
    let state = try read(ids, from: session)
    let found = ids.compactMap { state.notes[$0] }
    io.write(try render(found, in: found.indices, json: json, names: state))
  }

  /// Prints the whole library as a `LibraryDocument`.
  static func export(from session: LibrarySession, io: CommandIO) throws(CommandFailure) {
    let document = LibraryDocument(try session.state)
    io.write(try CommandFailure.files { () throws(FileFailure) in try JSONCoding.text(document) })
  }

  /// A state holding the notes with `ids` that exist and every notebook, read directly.
  private static func read(
    _ ids: [NoteID], from session: LibrarySession
  ) throws(CommandFailure) -> NotesState {
    do {
      let (notes, notebooks) = try session.database.notes(withIDs: ids)
      return NotesState(notebooks: notebooks, notes: notes)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// The positions of `notes` in `list` order: by notebook title ignoring case (then
  /// notebook id), pinned first, most recently modified first, then id.
  ///
  /// Each note's place is worked out once (its notebook's rank, its pin, date and id) and
  /// those keys are sorted, not the notes: comparing and moving notes themselves copied six
  /// references a move, most of listing 100,000 notes.
  nonisolated static func listOrder(of notes: [Note], notebooks: [Notebook]) -> [Int] {
    let ranked = notebooks.map { (id: $0.id, key: LibrarySession.titleKey($0.title)) }
      .sorted { ($0.key, $0.id) < ($1.key, $1.id) }
    let rank = Dictionary(
      uniqueKeysWithValues: ranked.enumerated().map { ($0.element.id, $0.offset) })
    // A note in a notebook that is not there (another writer's doing) sorts first.
    var keys = notes.indices.map { index in
      (
        rank: rank[notes[index].notebookID] ?? -1, notebook: notes[index].notebookID,
        unpinned: notes[index].isPinned ? 0 : 1,
        age: -notes[index].modified.timeIntervalSinceReferenceDate, id: notes[index].id,
        index: index
      )
    }
    keys.sort {
      ($0.rank, $0.notebook, $0.unpinned, $0.age, $0.id) < (
        $1.rank, $1.notebook, $1.unpinned, $1.age, $1.id
      )
    }
    return keys.map(\.index)
  }

  /// Tab-separated lines, or a JSON array, of the notes at the positions `order` lists;
  /// `names` holds the notebooks that name them.
  private static func render(
    _ notes: [Note], in order: some Collection<Int>, json: Bool, names: NotesState
  ) throws(CommandFailure) -> String {
    if json {
      let listings = order.map { NoteListing(notes[$0], in: names) }
      return try CommandFailure.files { () throws(FileFailure) in try JSONCoding.text(listings) }
    }
    let notebooks = Dictionary(
      uniqueKeysWithValues: names.notebooks.elements.map { ($0.id, DisplayText.line($0.title)) })
    var text = ""
    text.reserveCapacity(order.count * 48)
    for index in order {
      text.append(String(notes[index].id.rawValue))
      text.append("\t")
      text.append(notebooks[notes[index].notebookID] ?? "")
      text.append("\t")
      text.append(DisplayText.line(notes[index].title))
      text.append("\n")
    }
    return text
  }
}
