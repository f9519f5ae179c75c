public import Airframe
public import Foundation

/// One note in the list.
public struct NoteRow: Identifiable, Equatable, Sendable {
  /// The note.
  public let id: NoteID
  /// Its notebook.
  public let notebookID: NotebookID
  /// Its title.
  public let title: String
  /// Its text (shared with the model's copy, not duplicated).
  public let body: String
  /// When it last changed.
  public let modified: Date
  /// Whether it is pinned.
  public let isPinned: Bool
  /// The title folded for sorting (lowercased), computed once per row.
  let sortTitle: String

  /// The row for `note`.
  ///
  /// - Parameter note: A note.
  public init(_ note: Note) {
    id = note.id
    notebookID = note.notebookID
    title = note.title
    body = note.body
    modified = note.modified
    isPinned = note.isPinned
    sortTitle = note.title.lowercased()
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
///   case); ties by id. Search matches title or body, ignoring case and diacritics.
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
    case .modified: .by({ $0.isPinned ? 1 : 0 }, .descending).then(\.modified, .descending)
    case .title: .by({ $0.isPinned ? 1 : 0 }, .descending).then(\.sortTitle)
    }
  }

  static func filter(_ notebook: NotebookID?, _ search: String) -> ListFilter<NoteRow> {
    let trimmed = search.trimmingCharacters(in: .whitespacesAndNewlines)
    var filter = ListFilter<NoteRow>.all
    if let notebook { filter = ListFilter { $0.notebookID == notebook } }
    guard !trimmed.isEmpty else { return filter }
    return filter.and(
      ListFilter {
        $0.title.range(of: trimmed, options: [.caseInsensitive, .diacriticInsensitive]) != nil
          || $0.body.range(of: trimmed, options: [.caseInsensitive, .diacriticInsensitive]) != nil
      })
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
