// DesktopCommands: the session's commands as the window's menu bar and keyboard
// shortcuts — one GAction per command, enabled exactly when the session says it can run,
// with the reason it cannot shown beside its menu item.
//
// Guarantees
// - One source of truth: an action's enabled state and a menu item's reason are renders of
//   the session's availability; nothing here decides whether a command can run.
// - A command the user runs (menu, shortcut) reaches the session through one input slot.
// - Commands that need a title ask for it in a dialog; a title the session refuses keeps
//   the dialog open with the reason.

import Airframe
import AirframeBinding
import CGtk
import NotesCore
import NotesPresentation

/// The window's commands.
@MainActor
final class DesktopCommands {
  /// The commands the window offers, by menu, with their shortcuts.
  static let menus: [(title: String, commands: [(SessionCommand, shortcut: String?)])] = [
    (
      "Note",
      [
        (.newNote, "<Control>n"), (.renameNote, "F2"), (.togglePin, "<Control>p"),
        (.deleteNote, "<Control>Delete"),
      ]
    ),
    (
      "Notebook",
      [
        (.newNotebook, "<Control><Shift>n"), (.renameNotebook, nil),
        (.deleteNotebook, "<Control><Shift>Delete"),
      ]
    ),
    ("Edit", [(.undo, "<Control>z"), (.redo, "<Control><Shift>z"), (.search, "<Control>f")]),
    ("View", [(.toggleSort, nil)]),
    ("Sync", [(.syncNow, nil)]),
    ("App", [(.quit, "<Control>q")]),
  ]

  /// The menu bar.
  let menuBar: UnsafeMutablePointer<GtkWidget>
  /// Commands the user ran; renders never emit them.
  let runs = InputSlot<SessionCommand>()

  private let session: NotesSession
  private let window: UnsafeMutablePointer<GtkWidget>
  private var actions: [SessionCommand: OpaquePointer] = [:]
  /// What the search command focuses.
  var searchEntry: UnsafeMutablePointer<GtkWidget>?

  /// Makes the actions and the menu bar; ``install(in:)`` adds them to the window.
  ///
  /// - Parameters:
  ///   - window: The GTK window whose action map holds the actions.
  ///   - session: The session the commands run in.
  init(window: UnsafeMutablePointer<GtkWidget>, session: NotesSession) {
    self.window = window
    self.session = session
    let empty = g_menu_new()
    menuBar = required(
      gtk_popover_menu_bar_new_from_model(empty.map { cast(GPointer($0)) }), "menu bar")
    g_object_unref(GPointer(empty))
    airframe_accessible_label(menuBar, "Menu bar")
  }

  /// Adds every command's action to the window and its shortcut to the application.
  ///
  /// - Parameter application: The application.
  func install(in application: UnsafeMutablePointer<GtkApplication>) {
    for (_, commands) in Self.menus {
      for (command, shortcut) in commands {
        guard let action = g_simple_action_new(Self.actionName(command), nil) else { continue }
        Signal.connect(
          GPointer(action), "activate",
          withArgument: { [unowned self] _ in
            _ = self.runs.send(command)
          })
        g_action_map_add_action(cast(raw(window)), cast(GPointer(action)))
        actions[command] = action
        if let shortcut {
          var accelerators: [UnsafePointer<CChar>?] = [UnsafePointer(strdup(shortcut)), nil]
          gtk_application_set_accels_for_action(
            application, "win." + Self.actionName(command), &accelerators)
          free(UnsafeMutablePointer(mutating: accelerators[0]))
        }
      }
    }
  }

  /// Renders each command's availability and forwards each run to the session.
  ///
  /// - Parameter connect: The window's binding.
  func bind(_ connect: inout Binder.Connections) {
    for (command, action) in actions {
      connect.render(session.availability(of: command)) { availability in
        g_simple_action_set_enabled(action, availability.isEnabled ? 1 : 0)
      }
    }
    connect.render(session.menu) { [unowned self] rows in self.showMenu(rows) }
    connect.forward(runs) { [unowned self] command in self.run(command) }
  }

  /// The action's name for a command, such as `new-note`.
  static func actionName(_ command: SessionCommand) -> String {
    "\(command)".reduce(into: "") { name, character in
      if character.isUppercase {
        name += "-" + character.lowercased()
      } else {
        name.append(character)
      }
    }
  }

  /// Builds the menu model: each command's item, with the reason beside a disabled one.
  private func showMenu(_ rows: [CommandRow]) {
    let reasons = Dictionary(
      rows.map { ($0.id, $0.availability.reason) }, uniquingKeysWith: { a, _ in a })
    guard let model = g_menu_new() else { return }
    for (title, commands) in Self.menus {
      guard let section = g_menu_new() else { continue }
      for (command, _) in commands {
        let reason = reasons[command.rawValue] ?? nil
        let label = reason.map { "\(command.rawValue) — \($0)" } ?? command.rawValue
        g_menu_append(section, label, "win." + Self.actionName(command))
      }
      g_menu_append_submenu(model, title, cast(GPointer(section)))
      g_object_unref(GPointer(section))
    }
    gtk_popover_menu_bar_set_menu_model(cast(raw(menuBar)), cast(GPointer(model)))
    g_object_unref(GPointer(model))
  }

  // MARK: - Running a command

  private func run(_ command: SessionCommand) {
    let session = session
    switch command {
    case .newNote:
      ask("New Note", "The new note's title:", text: "", accept: "Create") {
        session.noteCreated(titled: $0)
      }
    case .newNotebook:
      ask("New Notebook", "The new notebook's title:", text: "", accept: "Create") {
        session.notebookCreated(titled: $0)
      }
    case .renameNote:
      let original = session.editorState.value.title
      ask("Rename Note", "The note's new title:", text: original, accept: "Rename") {
        session.noteRenamed(to: $0, from: original)
      }
    case .renameNotebook:
      let original = session.selectedNotebook.value.flatMap { session.title(of: $0) } ?? ""
      ask("Rename Notebook", "The notebook's new title:", text: original, accept: "Rename") {
        session.notebookRenamed(to: $0)
      }
    case .togglePin: session.report(session.pinToggled())
    case .deleteNote: session.report(session.noteDeleted())
    case .deleteNotebook: session.report(session.notebookDeletionRequested())
    case .undo: session.report(session.undoRequested())
    case .redo: session.report(session.redoRequested())
    case .toggleSort: session.sortToggled()
    case .syncNow: session.syncRequested()
    case .search: if let searchEntry { gtk_widget_grab_focus(searchEntry) }
    case .quit: gtk_window_close(cast(raw(window)))
    case .moveNote, .help: break
    }
  }

  /// Asks for a title; the dialog stays open with the session's reason while it refuses.
  private func ask(
    _ title: String, _ message: String, text: String, accept: String,
    _ submit: @escaping (String) -> ActionOutcome
  ) {
    let session = session
    _ = Dialog(parent: window, title: title, message: message, text: text, accept: accept) {
      answer in
      guard answer.accepted else { return nil }
      let outcome = submit(answer.text)
      session.report(outcome)
      switch outcome {
      case .invalid(let result): return result.issues.map(\.message).joined(separator: " ")
      case .rejected(let reason), .failed(let reason): return reason
      default: return nil
      }
    }
  }
}
