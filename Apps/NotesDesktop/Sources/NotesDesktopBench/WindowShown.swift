import NotesDesktopWindow

/// The benchmark's observer of the application: runs an action when a window is shown.
@MainActor
final class WindowShown: DesktopObserver {
  private let action: (DesktopWindow) -> Void

  /// An observer that runs `action` with each window shown.
  ///
  /// - Parameter action: What to do with the window, which is realized by then.
  init(_ action: @escaping (DesktopWindow) -> Void) {
    self.action = action
  }

  func windowShown(_ window: DesktopWindow) { action(window) }
}
