import Foundation
import NotesTestSupport
import Testing

/// The notebooks and notes of a database, as `notes export` prints them.
///
/// What the database holds, read through the `notes` command line (`notes export`), the way a
/// script would, never through the app's own code.
///
/// ## Guarantees
///
/// - `Library.read(database:)` runs the built `notes export --database PATH`; it may run
///   while the full-screen app has the same file open (SQLite WAL: a reader sees the last
///   commit and never blocks the app).
/// - Two reads of an unchanged database are equal (`==`): every field of every notebook
///   and note is compared, modification dates included.
/// - The orders are the app's documented ones: notebooks by title ignoring case, then id;
///   notes pinned first, then most recently modified first (or by title), then id.
struct Library: Equatable, Decodable, CustomStringConvertible {
  /// A notebook.
  struct Notebook: Equatable, Decodable {
    var id: Int64
    var title: String
    var created: String
  }

  /// A note.
  ///
  /// Dates are ISO 8601 in UTC to the millisecond, so they order as text.
  struct Note: Equatable, Decodable {
    var id: Int64
    var notebookID: Int64
    var title: String
    var body: String
    var created: String
    var modified: String
    var pinned: Bool
  }

  var version: Int
  var notebooks: [Notebook]
  var notes: [Note]

  /// Why the library could not be read.
  struct Unreadable: Error, CustomStringConvertible {
    var description: String
  }

  /// Reads a database with `notes export`.
  ///
  /// - Parameter database: The database file.
  /// - Returns: Its notebooks and notes.
  /// - Throws: `Unreadable` when `notes` fails or prints something else than an export.
  static func read(database: String) throws -> Library {
    let notes = try #require(Programs.built("notes"), "notes is not built")
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let result = try Programs.run(
      notes, ["export", "--database", database],
      environment: ["HOME=\(folder.path)", "LANG=C.UTF-8"], folder: folder)
    guard result.status == 0 else {
      throw Unreadable(
        description: "notes export failed with status \(result.status): \(result.errors)")
    }
    do {
      return try JSONDecoder().decode(Library.self, from: Data(result.output.utf8))
    } catch {
      throw Unreadable(description: "notes export printed no export (\(error)): \(result.output)")
    }
  }

  /// The notebooks in sidebar order: by title ignoring case, then by id.
  var notebooksInSidebarOrder: [Notebook] {
    notebooks.sorted {
      let order = $0.title.localizedCaseInsensitiveCompare($1.title)
      return order == .orderedSame ? $0.id < $1.id : order == .orderedAscending
    }
  }

  /// The number of notes in a notebook.
  func noteCount(in notebook: Int64) -> Int {
    notes.count { $0.notebookID == notebook }
  }

  /// The notebook with an id.
  func notebook(_ id: Int64) -> Notebook? { notebooks.first { $0.id == id } }

  /// The notes a list shows, in the list's order.
  ///
  /// Those of `notebook` (all when `nil`) that match `search`. Notes whose order the export cannot
  /// tell apart (the same millisecond) may come in either order; see `isListOrdered(_:_:sort:)`.
  ///
  /// - Parameters:
  ///   - notebook: The selected notebook, or `nil` for all notes.
  ///   - search: The search text, if any.
  ///   - sort: "date" or "title", as the list's header says.
  /// - Returns: The notes.
  func listedNotes(notebook: Int64?, search: String?, sort: String) -> [Note] {
    let query = (search ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
    return
      notes
      .filter { note in notebook.map { note.notebookID == $0 } ?? true }
      .filter { note in
        query.isEmpty || note.title.range(of: query, options: options) != nil
          || note.body.range(of: query, options: options) != nil
      }
      .sorted { Self.precedes($0, $1, sort: sort) ?? ($0.id < $1.id) }
  }

  /// Whether a list order is right for `sort`: pinned first, then the sort key; notes the
  /// export cannot tell apart may be in either order.
  static func isListOrdered(_ first: Note, _ second: Note, sort: String) -> Bool {
    precedes(second, first, sort: sort) != true
  }

  /// Whether `first` comes before `second` in the list, `nil` when the export cannot tell.
  private static func precedes(_ first: Note, _ second: Note, sort: String) -> Bool? {
    if first.pinned != second.pinned { return first.pinned }
    if sort == "title" {
      let (a, b) = (first.title.lowercased(), second.title.lowercased())
      return a == b ? nil : a < b
    }
    return first.modified == second.modified ? nil : first.modified > second.modified
  }

  var description: String {
    let notebookLines = notebooks.map { "  notebook \($0.id) \"\($0.title)\"" }
    let noteLines = notes.map { note in
      "  note \(note.id) in \(note.notebookID)\(note.pinned ? " pinned" : ""): "
        + "\"\(note.title)\" \(note.modified) body \(String(reflecting: note.body))"
    }
    return (notebookLines + noteLines).joined(separator: "\n")
  }
}
