import Airframe
import AirframeBinding
import CGtk
import Foundation
import NotesCore
import NotesFiles
import NotesPresentation

/// One window's commands as GTK actions: its menu bar, keyboard shortcuts and command
/// palette.
///
/// One GAction per command, enabled exactly when the session says it can run, with the
/// reason it cannot shown beside its menu item and in the palette.
///
/// ## Guarantees
/// - One source of truth: an action's enabled state and a menu item's or palette row's
///   reason are renders of the session's availability; nothing here decides whether a
///   command can run.
/// - A command the user runs (menu, shortcut, palette) reaches the session through one
///   input slot; the palette refuses a disabled command with the session's reason and stays
///   open.
/// - Each command is one session gesture, which reports its own outcome to the status bar
///   (a deletion, an undo or a redo saying what it did); the window reports nothing again,
///   which would replace that message with the bare outcome.
/// - Commands that need a title ask for it in a dialog; a title the session refuses keeps
///   the dialog open with the reason. Move Note asks for the notebook in a list.
/// - Dialogs belong to the window: `closeDialogs()` ends every one it opened.
/// - The menu bar's model is built once and never replaced: a changed label (a reason that
///   came or went) replaces that one item in its menu's section. Replacing the bar's model
///   destroys its items, and GTK's menu bar keeps a pointer to the item of the last menu
///   opened, which it then uses after it is freed.
@MainActor
final class CommandActions {
  /// The menu bar.
  let menuBar: UnsafeMutablePointer<GtkWidget>
  /// Commands the user ran; renders never emit them.
  let runs = InputSlot<DesktopCommand>()

  private let session: NotesSession
  private unowned let owner: DesktopWindow
  private var actions: [DesktopCommand: OpaquePointer] = [:]
  /// Each command's menu section (owned by the menu bar's model) and place in it.
  private var menuItems: [DesktopCommand: (section: OpaquePointer, index: Int32)] = [:]
  /// The label each menu item shows.
  private var menuLabels: [DesktopCommand: String] = [:]
  /// The reason each disabled session command cannot run, as last rendered.
  private var reasons: [String: String] = [:]
  /// What each session command's menu item says, as last rendered ("Undo Rename Note").
  private var labels: [String: String] = [:]
  /// The palette, while it is open.
  private var palette: ChoiceDialog?
  /// Prompts and pickers this window opened that are still open.
  private var dialogs: [any WindowDialog] = []

  /// Makes the window's actions and its menu bar.
  ///
  /// - Parameters:
  ///   - owner: The window whose action map holds the actions.
  ///   - session: The session the commands run in.
  init(owner: DesktopWindow, session: NotesSession) {
    self.owner = owner
    self.session = session
    let model = required(g_menu_new(), "menu")
    for (title, commands) in DesktopCommand.menus {
      let section = required(g_menu_new(), "menu")
      for (index, command) in commands.enumerated() {
        g_menu_append(section, command.name, "win." + command.actionName)
        menuItems[command] = (section, Int32(index))
        menuLabels[command] = command.name
      }
      g_menu_append_submenu(model, title, cast(GPointer(section)))
      g_object_unref(GPointer(section))  // The model keeps it.
    }
    menuBar = required(gtk_popover_menu_bar_new_from_model(cast(GPointer(model))), "menu bar")
    g_object_unref(GPointer(model))  // The menu bar keeps it.
    airframe_accessible_label(menuBar, "Menu bar")
    for command in DesktopCommand.all {
      guard let action = g_simple_action_new(command.actionName, nil) else { continue }
      Signal.connect(
        GPointer(action), "activate",
        withArgument: { [unowned self] _ in
          _ = self.runs.send(command)
        })
      g_action_map_add_action(cast(raw(owner.window)), cast(GPointer(action)))
      actions[command] = action
    }
  }

  /// Gives every command's action its shortcut, in every window of `application`.
  ///
  /// - Parameter application: The application.
  static func installShortcuts(in application: UnsafeMutablePointer<GtkApplication>) {
    for command in DesktopCommand.all {
      guard let shortcut = command.shortcut else { continue }
      var accelerators: [UnsafePointer<CChar>?] = [UnsafePointer(strdup(shortcut)), nil]
      gtk_application_set_accels_for_action(
        application, "win." + command.actionName, &accelerators)
      free(UnsafeMutablePointer(mutating: accelerators[0]))
    }
  }

  /// Renders each command's availability and forwards each run to the session.
  ///
  /// - Parameter connect: The window's binding.
  func bind(_ connect: inout Binder.Connections) {
    for (command, action) in actions {
      guard case .session(let sessionCommand) = command else { continue }
      connect.render(session.availability(of: sessionCommand)) { availability in
        g_simple_action_set_enabled(action, availability.isEnabled ? 1 : 0)
      }
    }
    connect.render(session.menu) { [unowned self] rows in
      self.reasons = Dictionary(
        rows.compactMap { row in row.availability.reason.map { (row.id, $0) } },
        uniquingKeysWith: { first, _ in first })
      self.labels = Dictionary(
        rows.map { ($0.id, $0.label) }, uniquingKeysWith: { first, _ in first })
      self.showMenu()
      self.palette?.show(self.paletteChoices())
    }
    connect.forward(runs) { [unowned self] command in self.run(command) }
  }

  /// Closes every dialog the commands opened, without an answer.
  func closeDialogs() {
    palette?.close()
    for dialog in dialogs { dialog.close() }
    dialogs.removeAll()
  }

  /// A command's label: the session's label for it (its name, or Undo's "Undo Rename
  /// Note"), and the reason beside a disabled one.
  private func label(_ command: DesktopCommand) -> String {
    let name = labels[command.name] ?? command.name
    return reasons[command.name].map { "\(name) — \($0)" } ?? name
  }

  /// Shows each command's label, with the reason beside a disabled one: an item whose label
  /// changed is replaced where it stands; the menus and the other items stay.
  private func showMenu() {
    for (command, place) in menuItems {
      let text = label(command)
      guard menuLabels[command] != text else { continue }
      menuLabels[command] = text
      g_menu_remove(place.section, place.index)
      g_menu_insert(place.section, place.index, text, "win." + command.actionName)
    }
  }

  // MARK: - Running a command

  /// Runs `command` as the menu item would: a key of a pane's own (Delete in the sidebar)
  /// reaches the session by the same path, dropped if it comes from a render.
  ///
  /// - Parameter command: The command.
  func choose(_ command: DesktopCommand) {
    _ = runs.send(command)
  }

  private func run(_ command: DesktopCommand) {
    let session = session
    // Rename and Delete act on the item of the pane with the keyboard, as the session has it.
    if case .session(let sessionCommand) = command, sessionCommand.followsFocus {
      return run(.session(sessionCommand.routed(to: session.focusedPane.value)))
    }
    switch command {
    case .session(.rename), .session(.delete): break  // routed above
    case .newWindow: owner.application?.openWindow(from: owner)
    case .closeWindow: gtk_window_close(cast(raw(owner.window)))
    case .palette, .session(.help): openPalette()
    case .session(.quit): owner.application?.quit()
    case .session(.search): owner.focusSearch()
    case .session(.newNote):
      // The new note is open in the editor: the keyboard goes there, to write it.
      ask("New Note", "The new note's title:", text: "", accept: "Create") { [unowned self] in
        let outcome = session.noteCreated(titled: $0)
        if outcome.isCommitted { self.owner.focusEditor() }
        return outcome
      }
    case .session(.newNotebook):
      ask("New Notebook", "The new notebook's title:", text: "", accept: "Create") {
        session.notebookCreated(titled: $0)
      }
    case .session(.renameNote):
      let original = session.noteRenameBegan() ?? ""
      ask("Rename Note", "The note's new title:", text: original, accept: "Rename") {
        session.noteRenamed(to: $0)
      }
    case .session(.renameNotebook):
      let original = session.selectedNotebook.value.flatMap { session.title(of: $0) } ?? ""
      ask("Rename Notebook", "The notebook's new title:", text: original, accept: "Rename") {
        session.notebookRenamed(to: $0)
      }
    case .session(.moveNote): pickNotebook()
    case .session(.recentlyDeleted):
      session.recentlyDeletedSelected()
      owner.focusRecentlyDeleted()
    case .session(.noteHistory): pickVersion()
    case .session(.togglePin): session.pinToggled()
    case .session(.deleteNote): session.noteDeleted()
    case .session(.deleteNotebook): session.notebookDeletionRequested()
    case .session(.keepDeletedNote):
      // The kept note is open in the editor, editable again: the keyboard goes there.
      if session.deletedNoteKept().isCommitted { owner.focusEditor() }
    case .session(.undo): session.undoRequested()
    case .session(.redo): session.redoRequested()
    case .session(.toggleSort): session.sortToggled()
    case .session(.syncNow): session.syncRequested()
    case .session(.importNotes):
      askForPath(
        "Import", "The file or folder to import (an export, or Markdown and text files):",
        accept: "Import"
      ) { session.importRequested(from: $0) }
    case .session(.exportNotes):
      askForPath(
        "Export", "The new or empty folder to write the notes into, as Markdown files:",
        accept: "Export"
      ) { session.exportRequested(to: $0) }
    }
  }

  /// Every command as a palette row: its name, its shortcut, and why it cannot run.
  private func paletteChoices() -> [ChoiceDialog.Choice] {
    DesktopCommand.all.map { command in
      let shortcut = command.shortcutLabel
      return ChoiceDialog.Choice(
        id: command.actionName,
        label: label(command) + (shortcut.isEmpty ? "" : "   " + shortcut))
    }
  }

  /// The command palette: every command; a disabled one is refused with its reason.
  private func openPalette() {
    guard palette == nil else { return }
    let commands = Dictionary(
      DesktopCommand.all.map { ($0.actionName, $0) }, uniquingKeysWith: { first, _ in first })
    let dialog = ChoiceDialog(
      parent: owner.window, title: "Commands", message: "Run a command:", accept: "Run",
      choices: paletteChoices()
    ) { [unowned self] id in
      guard let command = commands[id] else { return nil }
      if case .session(let sessionCommand) = command,
        let reason = self.session.availability(of: sessionCommand).value.reason
      {
        return "\(command.name): \(reason)"
      }
      // The palette closes first, so a command that opens a dialog of its own opens it
      // over the window.
      self.palette?.close()
      _ = self.runs.send(command)
      return nil
    }
    dialog.closed = { [unowned self] in self.palette = nil }
    palette = dialog
  }

  /// Move Note: the notebooks the selected note can move to.
  private func pickNotebook() {
    let session = session
    // The action is enabled only while a note is selected (the session's availability).
    guard let note = session.selectedNote.value else { return }
    let targets = session.moveTargets(for: note)
    keep(
      ChoiceDialog(
        parent: owner.window, title: "Move Note",
        message: "Move “\(BidiIsolation.isolate(session.title(of: note) ?? ""))” to:",
        accept: "Move",
        choices: targets.map { .init(id: String($0.id.rawValue), label: $0.title) }
      ) { id in
        guard let raw = Int64(id) else { return nil }
        return Self.refusal(session.noteMoved(to: NotebookID(rawValue: raw)))
      })
  }

  /// Asks whether to delete note `id` of Recently Deleted for good, and does if so (Undo
  /// brings it back into Recently Deleted until the app quits).
  ///
  /// - Parameter id: A note in Recently Deleted.
  func askToDeleteForGood(_ id: NoteID) {
    guard let entry = session.recentlyDeletedEntry(id) else { return }
    let session = session
    let title = BidiIsolation.isolate(entry.note.title)
    confirm(
      "Delete for Good", "Delete “\(title)” for good? Undo brings it back until you quit Notes.",
      accept: "Delete for Good"
    ) { session.deletedNoteDeletedForGood(id) }
  }

  /// Asks whether to delete every note in Recently Deleted for good, and does if so.
  func askToEmptyRecentlyDeleted() {
    let session = session
    let count = session.recentlyDeletedCount
    guard count > 0 else { return }
    let notes = count == 1 ? "the note" : "all \(count) notes"
    confirm(
      "Empty Recently Deleted",
      "Delete \(notes) in Recently Deleted for good? Undo brings them back until you quit Notes.",
      accept: "Empty"
    ) { session.recentlyDeletedEmptied() }
  }

  /// Lists the selected note's kept versions, newest first, with what changed from the
  /// highlighted one to the text now; the one chosen becomes the note's text again (a new
  /// edit, undoable).
  private func pickVersion() {
    let session = session
    guard let (_, versions) = session.selectedNoteHistory() else { return }
    // What changed from the highlighted version to the text the editor shows now.
    let differences = ChoiceDialog.Detail(label: "Differences") { id in
      guard let version = versions.first(where: { String($0.id) == id }) else { return [] }
      let comparison = VersionComparison(
        from: version.body, to: session.editorState.value.body)
      guard !comparison.isUnchanged else {
        return [.init(text: VersionComparison.unchangedSentence, style: .dim)]
      }
      return [.init(text: VersionComparison.heading, style: .heading)]
        + comparison.lines.map { line in
          // The changed words, in the marked line: after its marker, two bytes of UTF-8.
          let marked = line.marked
          let words = line.changedWords.map { word in
            let offset = word.base.utf8.distance(from: word.base.startIndex, to: word.startIndex)
            let start = marked.utf8.index(marked.startIndex, offsetBy: 2 + offset)
            return start..<marked.utf8.index(start, offsetBy: word.utf8.count)
          }
          switch line {
          case .kept: return .init(text: marked, style: .plain)
          case .removed: return .init(text: marked, style: .removed, emphasized: words)
          case .added: return .init(text: marked, style: .added, emphasized: words)
          case .gap: return .init(text: marked, style: .dim)
          }
        }
    }
    keep(
      ChoiceDialog(
        parent: owner.window, title: "Note History",
        message: "Bring back a version of the note (its text now stays in the history):",
        accept: "Restore",
        choices: versions.map { version in
          .init(
            id: String(version.id),
            label: NotesSession.label(of: version))
        },
        detail: differences
      ) { id in
        guard let version = versions.first(where: { String($0.id) == id }) else { return nil }
        return Self.refusal(session.noteVersionRestored(version))
      })
  }

  /// Asks for a title; the dialog stays open with the session's reason while it refuses.
  private func ask(
    _ title: String, _ message: String, text: String, accept: String,
    _ submit: @escaping (String) -> ActionOutcome
  ) {
    keep(
      Dialog(parent: owner.window, title: title, message: message, text: text, accept: accept) {
        answer in
        guard answer.accepted else { return nil }
        return Self.refusal(submit(answer.text))
      })
  }

  /// Asks `question` with no entry; the main button runs `confirmed`, and the dialog stays
  /// open with the session's reason while it refuses.
  private func confirm(
    _ title: String, _ question: String, accept: String,
    _ confirmed: @escaping () -> ActionOutcome
  ) {
    keep(
      Dialog(parent: owner.window, title: title, message: question, text: nil, accept: accept) {
        answer in
        guard answer.accepted else { return nil }
        return Self.refusal(confirmed())
      })
  }

  /// Asks for a path and starts `start` with it; the dialog closes at once, and the run
  /// reports to the status bar when it ends.
  private func askForPath(
    _ title: String, _ message: String, accept: String,
    _ start: @escaping (String) -> Task<ActionOutcome, Never>
  ) {
    ask(title, message, text: "", accept: accept) { typed in
      guard let path = TypedPath.resolved(typed) else { return .rejected("Type a path.") }
      _ = start(path)
      return .unchanged
    }
  }

  /// Keeps `dialog` among this window's open dialogs until it closes.
  private func keep(_ dialog: any WindowDialog) {
    dialogs.append(dialog)
    dialog.closed = { [unowned self, unowned dialog] in self.dialogs.removeAll { $0 === dialog } }
  }

  /// Why an outcome refused the change, or `nil` if it did not.
  private static func refusal(_ outcome: ActionOutcome) -> String? {
    switch outcome {
    case .invalid(let result): result.issues.map(\.displayMessage).joined(separator: " ")
    case .rejected(let reason), .failed(let reason): reason
    default: nil
    }
  }
}
