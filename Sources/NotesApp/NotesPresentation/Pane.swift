/// A part of a presentation that can have the keyboard: where focus-routed commands act.
///
/// Each presentation tells its session which pane has the keyboard
/// (`NotesSession.paneFocused(_:)`), as a responder chain would: Delete and Rename then act
/// on the notebook while the sidebar has it and on the note otherwise, and their labels
/// say which ("Delete Notebook").
public enum Pane: CaseIterable, Equatable, Sendable {
  /// The notebooks.
  case sidebar
  /// The notes of the selected notebook.
  case list
  /// The open note: its text, or its title.
  case editor
}

extension SessionCommand {
  /// The command this one runs while `pane` has the keyboard.
  ///
  /// Delete and Rename act on what the focused pane shows: the selected notebook in the
  /// sidebar, the selected note in the list and the editor. Every other command is itself.
  ///
  /// - Parameter pane: The pane with the keyboard.
  /// - Returns: The command to run.
  public func routed(to pane: Pane) -> SessionCommand {
    switch (self, pane) {
    case (.delete, .sidebar): .deleteNotebook
    case (.delete, _): .deleteNote
    case (.rename, .sidebar): .renameNotebook
    case (.rename, _): .renameNote
    default: self
    }
  }

  /// Whether the command acts on the focused pane's item (`routed(to:)` picks the command).
  public var followsFocus: Bool { self == .delete || self == .rename }
}
