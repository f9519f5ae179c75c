public import Airframe
public import Foundation

/// One note in the list.
///
/// Its texts live in one shared, immutable box, so copying a row (which sorting 100,000
/// rows does often) retains one reference rather than three strings.
public struct NoteRow: Identifiable, Equatable, Sendable {
  /// The note.
  public let id: NoteID
  /// Its notebook.
  public let notebookID: NotebookID
  /// When it last changed.
  public let modified: Date
  /// Whether it is pinned.
  public let isPinned: Bool
  /// The title, the body and the sort key.
  private let texts: Texts

  /// Its title.
  public var title: String { texts.title }
  /// Its text (shared with the model's copy, not duplicated).
  public var body: String { texts.body }
  /// The title folded for sorting (lowercased), computed once per row.
  var sortTitle: String { texts.sortTitle }

  /// The strings of a row.
  private final class Texts: Sendable {
    let title: String
    let body: String
    let sortTitle: String

    init(title: String, body: String) {
      self.title = title
      self.body = body
      sortTitle = title.lowercased()
    }
  }

  /// The row for `note`.
  ///
  /// - Parameter note: A note.
  public init(_ note: Note) {
    id = note.id
    notebookID = note.notebookID
    modified = note.modified
    isPinned = note.isPinned
    texts = Texts(title: note.title, body: note.body)
  }

  /// Whether two rows show the same note the same way.
  public static func == (lhs: NoteRow, rhs: NoteRow) -> Bool {
    lhs.id == rhs.id && lhs.notebookID == rhs.notebookID && lhs.modified == rhs.modified
      && lhs.isPinned == rhs.isPinned
      && (lhs.texts === rhs.texts || (lhs.title == rhs.title && lhs.body == rhs.body))
  }

  /// The first line of the body, at most 80 characters, for a second line in the list.
  public var snippet: String {
    // Looks for the line break in the first 320 bytes only (80 characters take at most
    // that many), so a long body is never walked to its end.
    let head = body.utf8.prefix(320)
    let lineEnd = head.firstIndex(of: UInt8(ascii: "\n")) ?? head.endIndex
    return String(body[..<lineEnd].prefix(80))
  }
}

/// How the note list is sorted after pinned notes.
public enum NoteSort: String, Sendable, CaseIterable {
  /// Most recently modified first.
  case modified
  /// By title, ignoring case.
  case title
}

/// The note list's View State Controller.
///
/// ## Guarantees
///
/// - A lens over `ListLens`: it never writes the model; its view state is the notebook
///   filter, the search text, the sort and the selected note.
/// - Incremental: a commit changes only the rows of the notes it names (O(k log n)); a
///   change of view state (notebook, search text, sort) recomputes the list.
/// - Order: pinned notes first; then most recently modified first (or title, ignoring
///   case); ties by id. Search splits its text into words at every character that is not
///   a letter or digit (so quotes and punctuation never hide the words around them) and
///   matches a note whose title or body contains every word, ignoring case and diacritics;
///   a search text with no letter or digit (such as "%") is searched for as it is.
@MainActor
public final class NoteListController: ViewStateController {
  /// The lens that keeps the rows; read rows and updates through it.
  public let lens: ListLens<NotesState, Note, NoteRow>

  /// The latest model revision the rows reflect (the lens's).
  public var renderedRevision: Int { lens.renderedRevision }

  /// The notebook whose notes are listed; `nil` lists every note.
  public var notebook: NotebookID? {
    didSet { if notebook != oldValue { lens.filter = Self.filter(notebook, search) } }
  }

  /// The search text; empty lists every note of the notebook.
  public var search: String = "" {
    didSet { if search != oldValue { lens.filter = Self.filter(notebook, search) } }
  }

  /// The order after pinned notes.
  public var sort: NoteSort {
    didSet { if sort != oldValue { lens.order = Self.order(sort) } }
  }

  /// Creates the controller and starts following `model`.
  ///
  /// - Parameters:
  ///   - model: The Notes model.
  ///   - sort: The initial order.
  public init(model: Model<NotesState>, sort: NoteSort = .modified) {
    self.sort = sort
    lens = ListLens(
      model: model, table: \.notes, row: NoteRow.init, order: Self.order(sort),
      filter: Self.filter(nil, ""))
  }

  /// Stops following the model.
  public func cancel() { lens.cancel() }

  static func order(_ sort: NoteSort) -> ListOrder<NoteRow> {
    switch sort {
    // Closures rather than key paths: a key path applied per comparison goes through the
    // runtime, which made sorting 100,000 rows several times slower.
    case .modified: .by({ $0.isPinned ? 1 : 0 }, .descending).then({ $0.modified }, .descending)
    case .title: .by({ $0.isPinned ? 1 : 0 }, .descending).then({ $0.sortTitle })
    }
  }

  static func filter(_ notebook: NotebookID?, _ search: String) -> ListFilter<NoteRow> {
    var filter = ListFilter<NoteRow>.all
    if let notebook { filter = ListFilter { $0.notebookID == notebook } }
    var words = searchWords(in: search)
    if words.isEmpty {
      // Only punctuation or symbols, such as "%": searched for as they are.
      let trimmed = search.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !trimmed.isEmpty else { return filter }
      words = [trimmed]
    }
    let matchers = words.map(WordMatcher.init)
    return filter.and(
      ListFilter { row in
        matchers.allSatisfy { $0.matches(row.title) || $0.matches(row.body) }
      })
  }

  /// The words of a search text: its runs of letters and digits.
  ///
  /// - Parameter search: The search text.
  /// - Returns: The words, in order.
  public static func searchWords(in search: String) -> [String] {
    search.split { !$0.isLetter && !$0.isNumber }.map(String.init)
  }

  /// The rows computed from scratch for a state and view state, for tests.
  ///
  /// - Parameters:
  ///   - state: A state.
  ///   - notebook: The notebook filter.
  ///   - search: The search text.
  ///   - sort: The order.
  /// - Returns: The rows in list order.
  public static func recomputedRows(
    for state: NotesState, notebook: NotebookID?, search: String, sort: NoteSort
  ) -> [NoteRow] {
    let order = order(sort)
    let filter = filter(notebook, search)
    return state.notes.elements.map(NoteRow.init).filter(filter.includes).sorted {
      order.areInIncreasingOrder($0, $1) || (!order.areInIncreasingOrder($1, $0) && $0.id < $1.id)
    }
  }
}
