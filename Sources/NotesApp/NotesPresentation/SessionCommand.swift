/// A command of the Notes app, whatever presents it.
///
/// Every command a presentation offers has one availability, which a palette, a menu, a
/// help screen and the key that runs it all read (see `CommandControllers`). The raw value
/// is the name a menu shows; the order of `allCases` is the menu's order.
public enum SessionCommand: String, CaseIterable, Sendable {
  /// A new note in the selected notebook (needs a notebook).
  case newNote = "New Note"
  /// A new notebook.
  case newNotebook = "New Notebook"
  /// A new title for what the focused pane shows: the notebook in the sidebar, else the
  /// note (see `routed(to:)`).
  case rename = "Rename"
  /// Delete what the focused pane shows: the notebook in the sidebar, else the note (see
  /// `routed(to:)`).
  case delete = "Delete"
  /// A new title for the selected note.
  case renameNote = "Rename Note"
  /// A new title for the selected notebook.
  case renameNotebook = "Rename Notebook"
  /// The selected note into another notebook.
  case moveNote = "Move Note"
  /// Pin the selected note, or unpin it.
  case togglePin = "Pin or Unpin Note"
  /// Delete the selected note.
  case deleteNote = "Delete Note"
  /// Delete the selected notebook (asking first when it has notes).
  case deleteNotebook = "Delete Notebook"
  /// Keep the open note, deleted elsewhere while open, as a new note with the text the
  /// editor shows.
  case keepDeletedNote = "Keep Deleted Note"
  /// Show Recently Deleted, to restore a note or delete it for good (needs one there).
  case recentlyDeleted = "Recently Deleted…"
  /// Show the selected note's kept versions, to compare one with the text now or bring
  /// one back (needs a selected note).
  case noteHistory = "Note History…"
  /// Search the notes as the user types.
  case search = "Search"
  /// Switch the list between date and title order.
  case toggleSort = "Sort by Title or Date"
  /// Take back the last step.
  case undo = "Undo"
  /// Do the last undone step again.
  case redo = "Redo"
  /// Add the notes of a file or folder (an export, or Markdown and text files).
  case importNotes = "Import…"
  /// Write the library as Markdown files into a new folder.
  case exportNotes = "Export…"
  /// Sync with the server now.
  case syncNow = "Sync Now"
  /// Show every key.
  case help = "Help"
  /// Leave the app.
  case quit = "Quit"

  /// The name a menu shows.
  public var name: String { rawValue }
}
