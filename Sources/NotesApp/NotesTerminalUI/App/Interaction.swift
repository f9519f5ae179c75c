public import NotesCore
import NotesPresentation

extension Pane {
  /// The next pane in Tab order.
  var next: Pane {
    switch self {
    case .sidebar: .list
    case .list: .editor
    case .editor: .sidebar
    }
  }

  /// The previous pane in Tab order.
  var previous: Pane {
    switch self {
    case .sidebar: .editor
    case .list: .sidebar
    case .editor: .list
    }
  }
}

/// A one-line text field the user is filling in.
public struct Prompt: Equatable, Sendable {
  /// What the text is for.
  public enum Purpose: Equatable, Sendable {
    /// The title of a new note.
    case newNote
    /// The title of a new notebook.
    case newNotebook
    /// A note's new title, edited in its list row.
    case renameNote(NoteID)
    /// A notebook's new title, edited in its sidebar row.
    case renameNotebook(NotebookID)
    /// The search text; the list follows it as it is typed.
    case search
    /// The path of a file or folder to import.
    case importPath
    /// The path of a new or empty folder to export into.
    case exportPath
  }

  /// What the text is for.
  public var purpose: Purpose
  /// The text so far.
  public var text: String

  /// The label shown before the field.
  var label: String {
    switch purpose {
    case .newNote: "New note title"
    case .newNotebook: "New notebook title"
    case .renameNote: "Rename note"
    case .renameNotebook: "Rename notebook"
    case .search: "Search"
    case .importPath: "Import file or folder"
    case .exportPath: "Export as Markdown to the new folder"
    }
  }
}

/// The modal interaction in progress.
///
/// The terminal app's view state that belongs to no single controller — which pane has focus, and
/// which modal interaction (prompt, palette, help, confirmation, move picker) is in progress.
///
/// ## Guarantees
///
/// - Plain values: the app holds exactly one `Interaction`, and the renderer reads it.
/// - At most one modal interaction at a time; `.browsing` is the resting state.
public enum Interaction: Equatable, Sendable {
  /// No modal interaction: keys go to the focused pane.
  case browsing
  /// A text field at the bottom of the screen (or in a row, for renames).
  case prompt(Prompt)
  /// The command palette, with the highlighted row.
  case palette(selected: Int)
  /// The help screen.
  case help
  /// A question that needs yes or no.
  case confirmation(DeletionConfirmation)
  /// Choosing a notebook to move a note to, with the highlighted row.
  case moving(NoteID, selected: Int)
  /// A question about Recently Deleted, shown in the hint line: whether to delete a note,
  /// or every note, for good; y does.
  case deletedNotesQuestion(RecentlyDeletedQuestion)
  /// A note's kept versions, read when the box opened, with the highlighted one.
  case history(NoteHistoryBox)
}

/// What the history box shows: a note's kept versions, newest first, and the highlighted
/// one, whose differences from the note's text now are shown below the list.
public struct NoteHistoryBox: Equatable, Sendable {
  /// The note.
  public var note: NoteID
  /// Its versions, newest first, as read when the box opened (or after a restore).
  public var versions: [NoteVersion]
  /// The highlighted version's index in `versions`.
  public var selected: Int
}

/// What Recently Deleted asks before it deletes for good.
public enum RecentlyDeletedQuestion: Equatable, Sendable {
  /// Whether to delete a note, the one highlighted when x was pressed, for good.
  case deleteForGood(NoteID)
  /// Whether to delete every note there for good (E).
  case empty
}
