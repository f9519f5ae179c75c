public import Airframe
import Foundation

/// One notebook in the sidebar.
public struct SidebarRow: Equatable, Sendable, Identifiable {
  /// The notebook.
  public let id: NotebookID
  /// Its title.
  public let title: String
  /// How many notes it holds.
  public let noteCount: Int
}

/// What the sidebar has selected: every note, one notebook, or Recently Deleted.
///
/// The sidebar lists "All notes", then the notebooks, then "Recently Deleted"; one of them
/// is selected at any time.
public enum SidebarSelection: Hashable, Sendable, Codable {
  /// "All notes": every note in the library.
  case allNotes
  /// One notebook's notes.
  case notebook(NotebookID)
  /// The notes in Recently Deleted.
  case recentlyDeleted

  /// The selected notebook; `nil` for "All notes" and Recently Deleted.
  public var notebook: NotebookID? {
    if case .notebook(let id) = self { id } else { nil }
  }

  /// The selection that shows `notebook`, or "All notes" for `nil`.
  ///
  /// - Parameter notebook: A notebook, or `nil`.
  public init(_ notebook: NotebookID?) {
    self = notebook.map { .notebook($0) } ?? .allNotes
  }
}

/// The sidebar's View State Controller.
///
/// ## Guarantees
///
/// - A lens: it reads the model's commits and never writes the model. View state: the
///   selection (``SidebarSelection``: "All notes", a notebook or Recently Deleted).
/// - Incremental: counts are kept per notebook and adjusted from each commit's change set
///   (a note inserted, removed or moved changes two counts at most); the 100,000 notes are
///   never scanned after the first load. Rows (one per notebook, sorted by title ignoring
///   case, then id) are re-sorted only when a commit touches notebooks; a count change
///   updates its row in place, and a commit that changes no count (an edit, a rename)
///   touches no row at all.
/// - `rows` replays and delivers like any state source and suppresses equal row lists.
/// - The selection goes back to "All notes" when its notebook is deleted, and so does
///   ``listedNotebook``, the notebook the note list shows (kept while Recently Deleted is
///   selected).
/// - ``selectedNotebook`` and ``listedNotebook`` follow from the selection and are set
///   before it: an observer of ``selection`` reads all three as of the same change.
@MainActor
@_spi(Instrumentation) public final class SidebarController: ViewStateController {
  private let rowsSource: StateSource<[SidebarRow]>
  private let selectionSource = StateSource(SidebarSelection.allNotes)
  private let selectedNotebookSource = StateSource<NotebookID?>(nil)
  private let listedNotebookSource = StateSource<NotebookID?>(nil)
  private var counts: [NotebookID: Int] = [:]
  private var notebookOfNote: [NoteID: NotebookID] = [:]
  /// The rows last published; kept here so updating one count does not read the source
  /// (a read would register with Observation and slow every later write).
  private var currentRows: [SidebarRow] = []
  /// The index of each notebook's row in `currentRows`.
  private var rowIndex: [NotebookID: Int] = [:]
  private var lifetime: Lifetime?
  private let model: Model<NotesState>
  /// The model revision the rows reflect.
  public private(set) var renderedRevision: Int

  /// Creates the controller and starts following `model`.
  ///
  /// - Parameter model: The Notes model.
  public init(model: Model<NotesState>) {
    self.model = model
    let state = model.state
    for note in state.notes.elements {
      counts[note.notebookID, default: 0] += 1
      notebookOfNote[note.id] = note.notebookID
    }
    rowsSource = StateSource([])
    renderedRevision = model.revision
    setRows(Self.rows(state.notebooks, counts: counts))
    lifetime = model.observeCommits { [weak self] commit in self?.apply(commit) }
  }

  /// The notebooks, sorted by title, with their note counts.
  public var rows: some StateProjection<[SidebarRow]> { rowsSource }

  /// What is selected: "All notes", a notebook or Recently Deleted.
  public var selection: some StateProjection<SidebarSelection> { selectionSource }

  /// The selected notebook; `nil` while "All notes" or Recently Deleted is selected.
  public var selectedNotebook: some StateProjection<NotebookID?> { selectedNotebookSource }

  /// Selects a notebook, or "All notes" with `nil`.
  ///
  /// - Parameter id: A notebook in the sidebar, or `nil`.
  /// - Returns: `false` (and no change) if no row has that id.
  @discardableResult
  public func select(_ id: NotebookID?) -> Bool {
    select(SidebarSelection(id))
  }

  /// The notebook whose notes the note list shows: the selected one, or while Recently
  /// Deleted is selected, the one selected before it; `nil` for every note.
  ///
  /// It goes back to `nil` when its notebook is deleted, even while hidden.
  public var listedNotebook: some StateProjection<NotebookID?> { listedNotebookSource }

  /// Selects "All notes", a notebook or Recently Deleted.
  ///
  /// - Parameter selection: What to select.
  /// - Returns: `false` (and no change) for a notebook no row has.
  @discardableResult
  public func select(_ selection: SidebarSelection) -> Bool {
    if let id = selection.notebook, rowIndex[id] == nil { return false }
    setSelection(selection)
    return true
  }

  /// How the rows differ from rows recomputed from the model's notebooks and notes, or
  /// `nil` when they agree (see `ViewStateController`).
  ///
  /// - Returns: The first difference.
  public func differenceFromModel() -> String? {
    let expected = Self.recomputedRows(for: model.state)
    guard currentRows != expected else { return nil }
    guard currentRows.count == expected.count else {
      return "\(currentRows.count) notebooks; the model has \(expected.count)"
    }
    let index = currentRows.indices.first { currentRows[$0] != expected[$0] } ?? 0
    return "row \(index) is \(currentRows[index]); the model gives \(expected[index])"
  }

  /// Stops following the model.
  public func cancel() { lifetime?.cancel() }

  private func apply(_ commit: Commit<NotesState>) {
    renderedRevision = commit.revision
    let notes = commit.changes.changes(in: \.notes)
    let notebooks = commit.changes.changes(in: \.notebooks)
    guard !notes.isEmpty || !notebooks.isEmpty else { return }
    var changedCounts: Set<NotebookID> = []
    for id in notes.removed {
      if let notebook = notebookOfNote.removeValue(forKey: id) {
        counts[notebook, default: 0] -= 1
        changedCounts.insert(notebook)
      }
    }
    for id in notes.inserted {
      guard let note = commit.state.notes[id] else { continue }
      notebookOfNote[id] = note.notebookID
      counts[note.notebookID, default: 0] += 1
      changedCounts.insert(note.notebookID)
    }
    for id in notes.updated {
      guard let note = commit.state.notes[id], let old = notebookOfNote[id],
        old != note.notebookID
      else { continue }
      counts[old, default: 0] -= 1
      counts[note.notebookID, default: 0] += 1
      notebookOfNote[id] = note.notebookID
      changedCounts.formUnion([old, note.notebookID])
    }
    for id in notebooks.removed { counts[id] = nil }
    if !notebooks.isEmpty {
      setRows(Self.rows(commit.state.notebooks, counts: counts))
    } else if !changedCounts.isEmpty {
      var rows = currentRows
      for notebook in changedCounts {
        guard let index = rowIndex[notebook] else { continue }
        let row = rows[index]
        rows[index] = SidebarRow(id: row.id, title: row.title, noteCount: counts[notebook] ?? 0)
      }
      currentRows = rows
      rowsSource.set(rows)
    }
    if let listed = listedNotebookSource.value, notebooks.removed.contains(listed) {
      listedNotebookSource.set(nil)
    }
    if let selected = selectionSource.value.notebook, notebooks.removed.contains(selected) {
      setSelection(.allNotes)
    }
  }

  /// Sets the selection and what follows from it; the selection last, so its observers read
  /// the others as of the same change.
  private func setSelection(_ selection: SidebarSelection) {
    if selection != .recentlyDeleted { listedNotebookSource.set(selection.notebook) }
    selectedNotebookSource.set(selection.notebook)
    selectionSource.set(selection)
  }

  private func setRows(_ rows: [SidebarRow]) {
    rowIndex = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.id, $0) })
    currentRows = rows
    rowsSource.set(rows)
  }

  private static func rows(
    _ notebooks: EntityTable<Notebook>,
    counts: [NotebookID: Int]
  ) -> [SidebarRow] {
    notebooks.elements
      .map { SidebarRow(id: $0.id, title: $0.title, noteCount: counts[$0.id] ?? 0) }
      .sorted {
        let order = $0.title.localizedCaseInsensitiveCompare($1.title)
        return order == .orderedSame ? $0.id < $1.id : order == .orderedAscending
      }
  }

  /// The rows computed from scratch, for tests that compare with the incremental result.
  ///
  /// - Parameter state: A state.
  /// - Returns: The rows for that state.
  public static func recomputedRows(for state: NotesState) -> [SidebarRow] {
    var counts: [NotebookID: Int] = [:]
    for note in state.notes.elements { counts[note.notebookID, default: 0] += 1 }
    return rows(state.notebooks, counts: counts)
  }
}
