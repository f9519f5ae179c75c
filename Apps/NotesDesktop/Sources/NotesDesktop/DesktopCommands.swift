// DesktopCommands: the window's commands as GActions with keyboard shortcuts.

import CGtk

/// Installs the application's actions and their shortcuts.
@MainActor
enum DesktopCommands {
  /// Adds `app.quit` (Ctrl-Q): closes the window, which saves and closes the library.
  ///
  /// - Parameters:
  ///   - application: The application.
  ///   - window: Its window.
  static func install(in application: UnsafeMutablePointer<GtkApplication>, window: DesktopWindow) {
    add("quit", to: application, shortcuts: ["<Control>q"]) {
      gtk_window_close(cast(raw(window.window)))
    }
  }

  private static func add(
    _ name: String, to application: UnsafeMutablePointer<GtkApplication>, shortcuts: [String],
    _ body: @escaping () -> Void
  ) {
    guard let action = g_simple_action_new(name, nil) else { return }
    Signal.connect(GPointer(action), "activate", withArgument: { _ in body() })
    g_action_map_add_action(cast(raw(application)), cast(GPointer(action)))
    g_object_unref(GPointer(action))
    var accelerators: [UnsafePointer<CChar>?] = shortcuts.map { UnsafePointer(strdup($0)) } + [nil]
    gtk_application_set_accels_for_action(application, "app.\(name)", &accelerators)
    for accelerator in accelerators { free(UnsafeMutablePointer(mutating: accelerator)) }
  }
}
