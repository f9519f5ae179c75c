import Airframe
@_spi(Instrumentation) public import NotesCore

/// What one presentation showed, saved when it closes to show it again when it opens.
///
/// A session's own view state, nothing of the library's: the notebook, the search, the
/// order, the note and where the cursor was in it. A window adds its size (see
/// `DesktopApplication`).
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
  /// The notebook the list shows (beneath Recently Deleted, when ``showsRecentlyDeleted``
  /// says the sidebar had it selected); `nil` is "All notes".
  public var notebook: NotebookID?
  /// Whether the sidebar had Recently Deleted selected; `nil` (what files saved before it
  /// existed hold) is `false`.
  public var showsRecentlyDeleted: Bool?
  /// The search text.
  public var search: String
  /// The list's order after pinned notes.
  public var sort: NoteSort
  /// The selected note.
  public var note: NoteID?
  /// The editor's cursor in that note, as a UTF-8 offset into its text; `nil` for its end.
  public var cursor: Int?

  /// Creates a saved view state.
  ///
  /// - Parameters:
  ///   - notebook: The selected notebook; `nil` for "All notes".
  ///   - search: The search text.
  ///   - sort: The list's order.
  ///   - note: The selected note.
  ///   - cursor: The editor's cursor in the note; `nil` for the end of its text.
  ///   - showsRecentlyDeleted: Whether the sidebar had Recently Deleted selected.
  public init(
    notebook: NotebookID?, search: String, sort: NoteSort, note: NoteID?, cursor: Int? = nil,
    showsRecentlyDeleted: Bool = false
  ) {
    self.notebook = notebook
    self.showsRecentlyDeleted = showsRecentlyDeleted ? true : nil
    self.search = search
    self.sort = sort
    self.note = note
    self.cursor = cursor
  }
}

extension NotesSession {
  /// What this session shows now, to restore after a relaunch.
  public var savedViewState: SavedViewState {
    SavedViewState(
      notebook: noteList.notebook, search: noteList.search, sort: noteList.sort,
      note: noteList.lens.selection.value,
      cursor: editor.state.value.noteID == nil ? nil : editor.state.value.cursor,
      showsRecentlyDeleted: sidebar.selection.value == .recentlyDeleted)
  }

  /// Shows what a presentation saved, as far as the library still has it.
  ///
  /// A notebook that is gone leaves "All notes"; a note that is gone, or not listed with
  /// the saved notebook and search, leaves the list's first note selected. The cursor
  /// goes where it was in the restored note, moved back onto the text if the note got
  /// shorter meanwhile, and to the start of the character it fell inside.
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
        if let cursor = saved.cursor, editor.state.value.noteID == note {
          editor.cursorMoved(to: cursor)
        }
      }
      // Over the list as it was, which shows again when the user leaves Recently Deleted.
      if saved.showsRecentlyDeleted == true { sidebar.select(.recentlyDeleted) }
    }
    return restored
  }
}
