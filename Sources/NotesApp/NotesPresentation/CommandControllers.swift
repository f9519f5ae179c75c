import Airframe
import Foundation
@_spi(Instrumentation) import NotesCore

/// The session's command controllers and the availability of every command.
///
/// A palette, a menu, a help screen and the key that runs a command all read the one
/// availability kept here for it.
///
/// ## Guarantees
/// - Commands that change the library are `ActionController`s: a gesture becomes exactly
///   one dispatched action, refused with the reason while the command is unavailable.
/// - Availability depends on the model and on the selection (the sidebar's and the note
///   list's); it is recomputed after every commit and every selection change, so no
///   presentation recomputes it by hand.
/// - Delete and Rename follow the focus: their availability is the one of the command they
///   run in the focused pane (`SessionCommand.routed(to:)`), and their label names it
///   ("Delete Notebook" while the sidebar has the keyboard).
/// - The command menu lists every command, in the order of `SessionCommand.allCases`.
@MainActor
final class CommandControllers {
  let newNote: ActionController<NotesState, String>
  let newNotebook: ActionController<NotesState, String>
  let renameNote: ActionController<NotesState, RenameInput>
  let renameNotebook: ActionController<NotesState, String>
  let moveNote: ActionController<NotesState, NotebookID>
  let togglePin: ActionController<NotesState, Void>
  let deleteNote: ActionController<NotesState, Void>
  let keepDeletedNote: ActionController<NotesState, Void>
  /// The open note, deleted elsewhere while open, as the editor shows it; `nil` otherwise.
  private let deletedNote = StateSource<KeptNote?>(nil)
  /// The selection every command acts on.
  private let context: StateSource<CommandContext>
  private let deleteNotebookAvailability = StateSource(Availability.enabled)
  private let undoAvailability = StateSource(Availability.enabled)
  private let redoAvailability = StateSource(Availability.enabled)
  private let syncAvailability = StateSource(Availability.enabled)
  private let recentlyDeletedAvailability = StateSource(Availability.enabled)
  /// Delete's and Rename's availability: that of the command each runs in the focused pane.
  private let routedAvailability: [SessionCommand: StateSource<Availability>] = [
    .delete: StateSource(.enabled), .rename: StateSource(.enabled),
  ]
  private let alwaysAvailable = StateSource(Availability.enabled)
  private let bag = LifetimeBag(label: "CommandControllers")
  private unowned let session: NotesSession

  init(session: NotesSession) {
    self.session = session
    let dispatcher = session.dispatcher
    let model = session.model
    let now = session.now
    // The selections, combined in a source this object owns, so `cancel()` ends it.
    let context = StateSource(CommandContext())
    self.context = context
    newNote = ActionController(dispatcher: dispatcher, name: "New Note", reading: context) {
      [unowned session] context, state in
      Requirement(
        session.notebookForNewNote(context, in: state), otherwise: "Create a notebook first.")
    } makeAction: { notebook, title in
      CreateNote(notebookID: notebook, title: title, now: now())
    }
    newNotebook = ActionController(dispatcher: dispatcher, name: "New Notebook") {
      CreateNotebook(title: $0, now: now())
    }
    renameNote = ActionController(
      dispatcher: dispatcher, name: "Rename Note", reading: context,
      requires: Self.selectedNote
    ) { note, input in
      RenameNote(id: note, title: input.title, now: now(), expectedTitle: input.basedOn)
    }
    renameNotebook = ActionController(
      dispatcher: dispatcher, name: "Rename Notebook", reading: context,
      requires: Self.selectedNotebook
    ) { notebook, title in
      RenameNotebook(id: notebook, title: title)
    }
    moveNote = ActionController(dispatcher: dispatcher, name: "Move Note", reading: context) {
      context, state in
      Self.selectedNote(context, in: state).then { note in
        state.notebooks.count < 2 ? .unmet("There is no other notebook.") : .met(note)
      }
    } makeAction: { note, notebook in
      // Based on where the note is as this process knows it: if another process moved it
      // meanwhile (found when the write catches up), the move is refused with a reason.
      MoveNote(
        id: note, to: notebook, now: now(), expectedNotebook: model.state.notes[note]?.notebookID)
    }
    togglePin = ActionController(
      dispatcher: dispatcher, name: "Pin or Unpin Note", reading: context,
      requires: Self.selectedNote
    ) { note in
      SetNotePinned(id: note, isPinned: !(model.state.notes[note]?.isPinned ?? false))
    }
    deleteNote = ActionController(
      dispatcher: dispatcher, name: "Delete Note", reading: context,
      requires: Self.selectedNote
    ) { note in
      DeleteNote(id: note, now: now())
    }
    keepDeletedNote = ActionController(
      dispatcher: dispatcher, name: "Keep Deleted Note", reading: deletedNote
    ) { [unowned session] kept, state in
      Requirement(kept, otherwise: "The open note was not deleted.").then { kept in
        // Its notebook, else (deleted with it) the first one there is.
        let notebook =
          state.notebooks[kept.notebook] != nil
          ? kept.notebook : session.notebookForNewNote(CommandContext(), in: state)
        return notebook.map { .met((kept, $0)) } ?? .unmet("Create a notebook first.")
      }
    } makeAction: { (kept: (KeptNote, NotebookID)) in
      CreateNote(notebookID: kept.1, title: kept.0.title, body: kept.0.body, now: now())
    }
    session.sidebar.selection.observe { selection in
      context.update {
        $0.notebook = selection.notebook
        $0.showsRecentlyDeleted = selection == .recentlyDeleted
      }
    }.store(in: bag)
    session.noteList.lens.selection.observe { note in context.update { $0.note = note } }
      .store(in: bag)
    session.editor.state.observe { [deletedNote, unowned session] state in
      let notebook = session.editor.machine.base?.notebookID
      deletedNote.set(
        state.isDeleted
          ? notebook.map { KeptNote(notebook: $0, title: state.title, body: state.body) } : nil)
    }.store(in: bag)
    dispatcher.undoAvailability.observe { [unowned self] names in
      undoAvailability.set(names.undoName == nil ? .disabled("Nothing to undo.") : .enabled)
      redoAvailability.set(names.redoName == nil ? .disabled("Nothing to redo.") : .enabled)
    }.store(in: bag)
    model.observeCommits { [unowned self] _ in refreshOwnAvailability() }.store(in: bag)
    context.observe { [unowned self] _ in refreshOwnAvailability() }.store(in: bag)
    refreshOwnAvailability()
    // Delete and Rename follow the focus, and what the command they run can do.
    session.focusedPane.observe { [unowned self] _ in refreshRoutedAvailability() }.store(in: bag)
    for target in [SessionCommand.deleteNote, .deleteNotebook, .renameNote, .renameNotebook] {
      availability(of: target).observe { [unowned self] _ in refreshRoutedAvailability() }
        .store(in: bag)
    }
  }

  /// Sets Delete's and Rename's availability to that of the command each runs now.
  private func refreshRoutedAvailability() {
    let pane = session.focusedPane.value
    for (command, source) in routedAvailability {
      source.set(availability(of: command.routed(to: pane)).value)
    }
  }

  /// Lists every command in `menu`, with the shortcut `shortcut` gives it.
  ///
  /// Undo and Redo are labelled with the step they would take: "Undo Rename Note"; Delete
  /// and Rename with the command they run in the focused pane: "Delete Notebook".
  func list(in menu: CommandMenuController, shortcut: (SessionCommand) -> String) {
    let steps = session.dispatcher.undoAvailability
    for command in SessionCommand.allCases {
      switch command {
      case .delete, .rename:
        menu.add(
          command.name, shortcut: shortcut(command), availability: availability(of: command),
          labelledBy: session.focusedPane
        ) { command.routed(to: $0).name }
      case .undo:
        menu.add(
          command.name, shortcut: shortcut(command), availability: undoAvailability,
          labelledBy: steps
        ) { $0.undoName.map { "Undo \($0)" } ?? "Undo" }
      case .redo:
        menu.add(
          command.name, shortcut: shortcut(command), availability: redoAvailability,
          labelledBy: steps
        ) { $0.redoName.map { "Redo \($0)" } ?? "Redo" }
      default:
        menu.add(
          command.name, shortcut: shortcut(command), availability: availability(of: command))
      }
    }
  }

  /// Whether `command` can run now, and why not.
  func availability(of command: SessionCommand) -> any StateProjection<Availability> {
    switch command {
    case .newNote: newNote.availability
    case .newNotebook: newNotebook.availability
    case .renameNote: renameNote.availability
    case .renameNotebook: renameNotebook.availability
    case .moveNote: moveNote.availability
    case .togglePin: togglePin.availability
    // Pinning and history need the same: a selected note.
    case .noteHistory: togglePin.availability
    case .deleteNote: deleteNote.availability
    case .deleteNotebook: deleteNotebookAvailability
    case .keepDeletedNote: keepDeletedNote.availability
    case .recentlyDeleted: recentlyDeletedAvailability
    case .undo: undoAvailability
    case .redo: redoAvailability
    case .syncNow: syncAvailability
    case .importNotes: session.files.importer.availability
    case .exportNotes: session.files.exporter.availability
    case .delete, .rename: routedAvailability[command]!
    case .search, .toggleSort, .help, .quit: alwaysAvailable
    }
  }

  func refreshOwnAvailability() {
    let state = session.model.state
    deleteNotebookAvailability.set(Self.selectedNotebook(context.value, in: state).availability)
    recentlyDeletedAvailability.set(
      state.recentlyDeleted.count == 0 ? .disabled("Recently Deleted is empty.") : .enabled)
    // The model's status, which says syncing from the first moment of every sync.
    if case .syncing = state.sync {
      syncAvailability.set(.disabled("A sync is running."))
    } else {
      syncAvailability.set(.enabled)
    }
  }

  /// Stops following the model.
  func cancel() {
    bag.cancelAll()
    for controller in [newNote, newNotebook, renameNotebook] { controller.cancel() }
    renameNote.cancel()
    moveNote.cancel()
    togglePin.cancel()
    deleteNote.cancel()
    keepDeletedNote.cancel()
  }
}

/// The open note as the editor shows it after it was deleted elsewhere: what "Keep Deleted
/// Note" makes a new note of.
struct KeptNote: Equatable {
  /// The notebook it was in.
  var notebook: NotebookID
  /// Its title.
  var title: String
  /// The text the editor shows.
  var body: String
}

/// What the commands act on: the sidebar's and the note list's selections.
struct CommandContext: Equatable {
  /// The selected notebook.
  var notebook: NotebookID?
  /// The selected note.
  var note: NoteID?
  /// Whether the sidebar shows Recently Deleted, which hides the note list's selection.
  var showsRecentlyDeleted = false
}

extension CommandControllers {
  /// The selected note, if it exists.
  static func selectedNote(_ context: CommandContext, in state: NotesState) -> Requirement<NoteID> {
    // The list's selection is hidden while Recently Deleted is shown: nothing acts on it.
    if context.showsRecentlyDeleted {
      return .unmet("Recently Deleted is shown: choose All notes or a notebook first.")
    }
    return Requirement(
      context.note.flatMap { state.notes[$0]?.id }, otherwise: "Select a note first.")
  }

  /// The selected notebook, if it exists.
  static func selectedNotebook(_ context: CommandContext, in state: NotesState)
    -> Requirement<NotebookID>
  {
    Requirement(
      context.notebook.flatMap { state.notebooks[$0]?.id }, otherwise: "Select a notebook first.")
  }
}

extension NotesSession {
  /// The notebook a new note goes to: the selected one, else the selected note's, else the
  /// first in the sidebar.
  func notebookForNewNote(_ context: CommandContext, in state: NotesState) -> NotebookID? {
    if let notebook = context.notebook, state.notebooks[notebook] != nil { return notebook }
    if let note = context.note, let found = state.notes[note] { return found.notebookID }
    return sidebar.rows.value.first { state.notebooks[$0.id] != nil }?.id
  }
}

/// What a rename sends: the new title, and the title it was based on.
struct RenameInput: Sendable {
  /// The title the user typed.
  var title: String
  /// The title the rename started from; the rename is refused if the note's title is no
  /// longer this one.
  var basedOn: String?
}
