import Airframe
@_spi(Instrumentation) public import NotesCore

/// What one presentation showed, saved when it closes to show it again when it opens.
///
/// A session's own view state, nothing of the library's: the notebook, the search, the
/// order and the note. A window adds its size (see `DesktopApplication`).
///
/// ```swift
/// let saved = session.savedViewState          // as the window closes
/// …
/// session.restore(saved)                      // the next launch, on the library as it is
/// ```
///
/// ## Guarantees
///
/// - Restoring validates against the library as it is then, like every other source of a
///   selection: a notebook or note deleted meanwhile (by another process, by sync) is not
///   restored, and the session shows what it would without it
///   ("All notes", the first note), never an id that is gone.
/// - It is a value (`Codable`): a presentation stores it where it keeps its own settings;
///   the library file never holds view state.
public struct SavedViewState: Codable, Equatable, Sendable {
  /// The selected notebook; `nil` is "All notes".
  public var notebook: NotebookID?
  /// The search text.
  public var search: String
  /// The list's order after pinned notes.
  public var sort: NoteSort
  /// The selected note.
  public var note: NoteID?

  /// Creates a saved view state.
  ///
  /// - Parameters:
  ///   - notebook: The selected notebook; `nil` for "All notes".
  ///   - search: The search text.
  ///   - sort: The list's order.
  ///   - note: The selected note.
  public init(notebook: NotebookID?, search: String, sort: NoteSort, note: NoteID?) {
    self.notebook = notebook
    self.search = search
    self.sort = sort
    self.note = note
  }
}

extension NotesSession {
  /// What this session shows now, to restore after a relaunch.
  public var savedViewState: SavedViewState {
    SavedViewState(
      notebook: sidebar.selection.value, search: noteList.search, sort: noteList.sort,
      note: noteList.lens.selection.value)
  }

  /// Shows what a presentation saved, as far as the library still has it.
  ///
  /// A notebook that is gone leaves "All notes"; a note that is gone, or not listed with
  /// the saved notebook and search, leaves the list's first note selected.
  ///
  /// - Parameter saved: What the presentation saved.
  /// - Returns: Whether everything saved was restored.
  @discardableResult
  public func restore(_ saved: SavedViewState) -> Bool {
    let notebook = saved.notebook.flatMap { model.state.notebooks[$0] != nil ? $0 : nil }
    var restored = notebook == saved.notebook
    movingOn {
      _ = sidebar.select(notebook)
      noteList.sort = saved.sort
      searchTyped(saved.search)
      if let note = saved.note {
        restored = noteList.lens.select(note) && restored
      }
    }
    return restored
  }
}
