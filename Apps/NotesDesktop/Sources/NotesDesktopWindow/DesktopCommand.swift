import CGtk
import NotesPresentation

/// A command of the desktop window, with its menu, its action name and its shortcut.
///
/// Every command a desktop window offers: the session's commands, and the few that belong
/// to the window (New Window, Close Window, the command palette). `CommandActions` makes
/// them the window's actions, menu bar and palette.
enum DesktopCommand: Hashable, Sendable {
  /// One of the session's commands.
  case session(SessionCommand)
  /// Another window on the same session.
  case newWindow
  /// Close this window (the program ends with the last one).
  case closeWindow
  /// The command palette: every command, with why a disabled one cannot run.
  case palette

  /// The menus, in order, and the commands in each.
  static let menus: [(title: String, commands: [DesktopCommand])] = [
    (
      "Note",
      [
        .session(.newNote), .session(.renameNote), .session(.moveNote),
        .session(.togglePin), .session(.deleteNote), .session(.keepDeletedNote),
        .session(.recentlyDeleted), .session(.noteHistory),
      ]
    ),
    ("Notebook", [.session(.newNotebook), .session(.renameNotebook), .session(.deleteNotebook)]),
    // Rename and Delete act on the focused pane's item, and say which: "Delete Notebook"
    // while the sidebar has the keyboard.
    (
      "Edit",
      [.session(.undo), .session(.redo), .session(.rename), .session(.delete), .session(.search)]
    ),
    ("View", [.session(.toggleSort), .palette, .session(.help)]),
    ("Library", [.session(.syncNow), .session(.importNotes), .session(.exportNotes)]),
    ("Window", [.newWindow, .closeWindow, .session(.quit)]),
  ]

  /// Every command, in menu order.
  static let all: [DesktopCommand] = menus.flatMap(\.commands)

  /// The name a menu shows.
  var name: String {
    switch self {
    case .session(let command): command.name
    case .newWindow: "New Window"
    case .closeWindow: "Close Window"
    case .palette: "Command Palette"
    }
  }

  /// The action's name in the window's action map, such as `new-note` (`import` for
  /// "Import…": an action's name holds only letters, digits, `-` and `.`).
  var actionName: String {
    name.lowercased().filter { $0 != "…" }.split(separator: " ").joined(separator: "-")
  }

  /// The keyboard shortcut, in GTK's accelerator syntax, if it has one.
  var shortcut: String? {
    switch self {
    case .session(.newNote): "<Control>n"
    case .session(.rename): "F2"
    case .session(.moveNote): "<Control>m"
    case .session(.togglePin): "<Control>p"
    case .session(.deleteNote): "<Control>Delete"
    case .session(.newNotebook): "<Control><Shift>n"
    case .session(.deleteNotebook): "<Control><Shift>Delete"
    case .session(.undo): "<Control>z"
    case .session(.redo): "<Control><Shift>z"
    case .session(.search): "<Control>f"
    case .session(.help): "F1"
    case .session(.quit): "<Control>q"
    case .session(.importNotes): "<Control>o"
    case .session(.noteHistory): "<Control><Shift>h"
    case .session(.exportNotes): "<Control><Shift>e"
    case .palette: "<Control>k"
    case .newWindow: "<Control><Alt>n"
    case .closeWindow: "<Control>w"
    // Delete is the key of the focused list (DesktopWindow), and of the text in the editor.
    case .session(.renameNote), .session(.renameNotebook), .session(.delete),
      .session(.toggleSort), .session(.syncNow), .session(.keepDeletedNote),
      .session(.recentlyDeleted):
      nil
    }
  }

  /// The shortcut as a menu shows it, such as `Ctrl+Shift+N`, or empty.
  var shortcutLabel: String {
    guard let shortcut else { return "" }
    var key: guint = 0
    var modifiers = GdkModifierType(rawValue: 0)
    guard gtk_accelerator_parse(shortcut, &key, &modifiers) != 0,
      let label = gtk_accelerator_get_label(key, modifiers)
    else { return "" }
    defer { g_free(label) }
    return String(cString: label)
  }
}
