// NotesCommands: every command of the terminal app, each with one availability that the
// palette, the help screen and the key that runs it all read.
//
// Guarantees
// - Commands that change the model are `ActionController`s: a gesture becomes exactly one
//   dispatched action, refused with the reason while the command is unavailable.
// - Availability depends on the model and on the selection (`CommandContext`, derived from
//   the sidebar's and the note list's selections); the controllers recompute it after every
//   commit and every selection change, so nothing here recomputes it by hand.
// - Every command is listed in the command menu, in the order of `all`.

import Airframe
import Foundation
import NotesCore

/// One command: its name, its key, whether it can run now, and what starting it does.
struct Command {
  /// The name in the palette, such as "New Note".
  let name: String
  /// The key that runs it, as the help screen shows it.
  let shortcut: String
  /// Whether it can run now, and why not.
  let availability: any StateProjection<Availability>
  /// Starts the gesture (which may open a prompt first).
  let start: @MainActor () -> Void
}

/// The terminal app's commands.
@MainActor
final class NotesCommands {
  let newNote: ActionController<NotesState, String>
  let newNotebook: ActionController<NotesState, String>
  let renameNote: ActionController<NotesState, RenameInput>
  let renameNotebook: ActionController<NotesState, String>
  let moveNote: ActionController<NotesState, NotebookID>
  let togglePin: ActionController<NotesState, Void>
  let deleteNote: ActionController<NotesState, Void>
  /// The selection every command acts on.
  private let context: StateSource<CommandContext>
  private let deleteNotebookAvailability = StateSource(Availability.enabled)
  private let undoAvailability = StateSource(Availability.enabled)
  private let redoAvailability = StateSource(Availability.enabled)
  private let syncAvailability = StateSource(Availability.enabled)
  private let alwaysAvailable = StateSource(Availability.enabled)
  private let bag = LifetimeBag(label: "NotesCommands")
  /// Every command, in palette order.
  private(set) var all: [Command] = []
  private unowned let app: NotesApplication

  init(app: NotesApplication) {
    self.app = app
    let dispatcher = app.dispatcher
    let now = app.now
    // The selections, combined in a source this object owns, so `cancel()` ends it.
    let context = StateSource(CommandContext())
    self.context = context
    newNote = ActionController(dispatcher: dispatcher, name: "New Note", reading: context) {
      [unowned app] context, state in
      app.notebookForNewNote(context, in: state) == nil
        ? .disabled("Create a notebook first (N).") : .enabled
    } makeAction: { [unowned app] context, title in
      CreateNote(
        notebookID: app.notebookForNewNote(context, in: app.model.state)!, title: title,
        now: now())
    }
    newNotebook = ActionController(dispatcher: dispatcher, name: "New Notebook") {
      CreateNotebook(title: $0, now: now())
    }
    renameNote = ActionController(
      dispatcher: dispatcher, name: "Rename Note", reading: context,
      requires: Self.noteIsSelected
    ) { context, input in
      RenameNote(id: context.note!, title: input.title, now: now(), expectedTitle: input.basedOn)
    }
    renameNotebook = ActionController(
      dispatcher: dispatcher, name: "Rename Notebook", reading: context,
      requires: Self.notebookIsSelected
    ) { context, title in
      RenameNotebook(id: context.notebook!, title: title)
    }
    moveNote = ActionController(dispatcher: dispatcher, name: "Move Note", reading: context) {
      context, state in
      let selected = Self.noteIsSelected(context, in: state)
      guard selected.isEnabled else { return selected }
      return state.notebooks.count < 2 ? .disabled("There is no other notebook.") : .enabled
    } makeAction: { [unowned app] context, notebook in
      // Based on where the note is as this process knows it: if another process moved it
      // meanwhile (found when the write catches up), the move is refused with a reason.
      MoveNote(
        id: context.note!, to: notebook, now: now(),
        expectedNotebook: app.model.state.notes[context.note!]?.notebookID)
    }
    togglePin = ActionController(
      dispatcher: dispatcher, name: "Pin or Unpin Note", reading: context,
      requires: Self.noteIsSelected
    ) { [unowned app] context in
      let id = context.note!
      return SetNotePinned(id: id, isPinned: !(app.model.state.notes[id]?.isPinned ?? false))
    }
    deleteNote = ActionController(
      dispatcher: dispatcher, name: "Delete Note", reading: context,
      requires: Self.noteIsSelected
    ) { context in
      DeleteNote(id: context.note!)
    }
    app.sidebar.selection.observe { notebook in
      context.update { $0.notebook = notebook }
    }.store(in: bag)
    app.noteList.lens.selection.observe { note in context.update { $0.note = note } }.store(in: bag)
    dispatcher.undoAvailability.observe { [unowned self] names in
      undoAvailability.set(names.undoName == nil ? .disabled("Nothing to undo.") : .enabled)
      redoAvailability.set(names.redoName == nil ? .disabled("Nothing to redo.") : .enabled)
    }.store(in: bag)
    app.model.observeCommits { [unowned self] _ in refreshOwnAvailability() }.store(in: bag)
    context.observe { [unowned self] _ in refreshOwnAvailability() }.store(in: bag)
    all = makeCommands()
    refreshOwnAvailability()
    for command in all {
      app.commandMenu.add(
        command.name, shortcut: command.shortcut, availability: command.availability)
    }
  }

  private func makeCommands() -> [Command] {
    let app = app
    return [
      Command(name: "New Note", shortcut: "n", availability: newNote.availability) {
        app.beginPrompt(.newNote, text: "")
      },
      Command(name: "New Notebook", shortcut: "N", availability: newNotebook.availability) {
        app.beginPrompt(.newNotebook, text: "")
      },
      Command(name: "Rename Note", shortcut: "r", availability: renameNote.availability) {
        app.beginRenameNote()
      },
      Command(
        name: "Rename Notebook", shortcut: "r (sidebar)", availability: renameNotebook.availability
      ) { app.beginRenameNotebook() },
      Command(name: "Move Note", shortcut: "m", availability: moveNote.availability) {
        app.beginMove()
      },
      Command(name: "Pin or Unpin Note", shortcut: "p", availability: togglePin.availability) {
        app.report(self.togglePin.trigger())
      },
      Command(name: "Delete Note", shortcut: "d", availability: deleteNote.availability) {
        let title = app.selectedNote.flatMap { app.model.state.notes[$0]?.title } ?? ""
        app.report(self.deleteNote.trigger(), done: "Deleted “\(title)” — u to undo")
      },
      Command(
        name: "Delete Notebook", shortcut: "d (sidebar)",
        availability: deleteNotebookAvailability
      ) { app.requestNotebookDeletion() },
      Command(name: "Search", shortcut: "/", availability: alwaysAvailable) {
        app.beginPrompt(.search, text: app.noteList.search)
      },
      Command(name: "Sort by Title or Date", shortcut: "o", availability: alwaysAvailable) {
        app.toggleSort()
      },
      Command(name: "Undo", shortcut: "u", availability: undoAvailability) {
        app.undoOrRedo(redo: false)
      },
      Command(name: "Redo", shortcut: "U or Ctrl-R", availability: redoAvailability) {
        app.undoOrRedo(redo: true)
      },
      Command(name: "Sync Now", shortcut: "s", availability: syncAvailability) {
        app.syncNow()
      },
      Command(name: "Help", shortcut: "?", availability: alwaysAvailable) {
        app.interaction = .help
      },
      Command(name: "Quit", shortcut: "q", availability: alwaysAvailable) { app.quit() },
    ]
  }

  /// The command named `name`.
  func command(named name: String) -> Command? { all.first { $0.name == name } }

  /// Starts the command named `name`, or reports why it is unavailable.
  func run(_ name: String) {
    guard let command = command(named: name) else { return }
    let availability = command.availability.value
    guard availability.isEnabled else {
      app.report(.invalid(ValidationResult(availability.issues)))
      return
    }
    command.start()
  }

  private func refreshOwnAvailability() {
    deleteNotebookAvailability.set(Self.notebookIsSelected(context.value, in: app.model.state))
    syncAvailability.set(
      app.syncCoordinator.isSyncing ? .disabled("A sync is running.") : .enabled)
  }

  /// Stops following the model.
  func cancel() {
    bag.cancelAll()
    for controller in [newNote, newNotebook, renameNotebook] { controller.cancel() }
    renameNote.cancel()
    moveNote.cancel()
    togglePin.cancel()
    deleteNote.cancel()
  }
}

/// What the commands act on: the sidebar's and the note list's selections.
struct CommandContext: Equatable {
  /// The selected notebook.
  var notebook: NotebookID?
  /// The selected note.
  var note: NoteID?
}

extension NotesCommands {
  static func noteIsSelected(_ context: CommandContext, in state: NotesState) -> Availability {
    guard let note = context.note, state.notes[note] != nil else {
      return .disabled("Select a note first.")
    }
    return .enabled
  }

  static func notebookIsSelected(_ context: CommandContext, in state: NotesState)
    -> Availability
  {
    guard let notebook = context.notebook, state.notebooks[notebook] != nil else {
      return .disabled("Select a notebook first.")
    }
    return .enabled
  }
}

extension NotesApplication {
  /// The notebook a new note goes to: the selected one, else the selected note's, else the
  /// first in the sidebar.
  func notebookForNewNote(_ context: CommandContext, in state: NotesState) -> NotebookID? {
    if let notebook = context.notebook, state.notebooks[notebook] != nil { return notebook }
    if let note = context.note, let found = state.notes[note] { return found.notebookID }
    return sidebarRows.first { state.notebooks[$0.id] != nil }?.id
  }
}

/// What the rename prompt sends: the new title, and the title it was opened with.
struct RenameInput: Sendable {
  /// The title the user typed.
  var title: String
  /// The title the prompt started from; the rename is refused if the note's title is no
  /// longer this one.
  var basedOn: String?
}
