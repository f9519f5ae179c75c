package import CGtk
import Foundation
package import NotesHost
package import NotesPresentation

/// The desktop application: windows over one library.
///
/// The GTK application of one open library: its windows, each with a session of its own,
/// the main-queue bridge, and shutdown in the order that loses nothing.
///
/// ## Guarantees
/// - One library, any number of windows, each its own view state: every window has a
///   session of its own (its selection, search, editor and status message) over the
///   library's shared one (its notes, its one undo history, its pending confirmations), so
///   two windows show two notes and agree on every change at once. New Window opens one
///   that starts where the window it was opened from is; Close Window ends its bindings
///   and closes its session (saving its draft).
/// - The main queue, and with it every `@MainActor` task (the library's watcher, live
///   sync), runs inside GTK's loop through a file-descriptor source on libdispatch's
///   wake-up eventfd (see `bridgeMainQueue()`), never by polling.
/// - The library closes once, after the last window's bindings have ended: the draft saved,
///   then the watcher and sync stopped, then the database closed.
/// - SIGTERM, SIGINT and SIGHUP close every window as Quit does, from GTK's loop rather
///   than from a signal handler.
/// - It keeps no counts: what a benchmark or a test measures, an ``observer`` keeps.
@MainActor
package final class DesktopApplication {
  /// The GTK application.
  package let application: UnsafeMutablePointer<GtkApplication>
  /// The library every window presents.
  package let library: NotesLibrary
  /// The open windows, oldest first.
  package private(set) var windows: [DesktopWindow] = []
  /// Told what the windows do, for a benchmark or a test report; set it before ``run()``.
  package var observer: (any DesktopObserver)?
  private var isClosed = false

  /// Makes the application for `library`; nothing shows until ``run()``.
  ///
  /// - Parameter library: The open library. The application starts it (watcher, live sync)
  ///   with the first window and closes it after the last.
  package init(library: NotesLibrary) {
    self.library = library
    guard
      let application = gtk_application_new(
        "dev.airframe.NotesDesktop", G_APPLICATION_NON_UNIQUE)
    else { fatalError("GTK could not start") }
    self.application = application
    CommandActions.installShortcuts(in: application)
    Signal.connect(GPointer(application), "activate") { [unowned self] in
      guard self.windows.isEmpty, !self.isClosed else { return }
      self.openWindow()
      self.library.start()
    }
    Self.current = self
    for signal in [SIGTERM, SIGINT, SIGHUP] {
      g_unix_signal_add(signal, Self.closeOnSignal, nil)
    }
  }

  /// The shortcut of `command` as the window's menus show it ("Ctrl+Z"), or empty: what the
  /// session's messages name ("Ctrl+Z to undo"), given to the library when it opens.
  package static func shortcut(_ command: SessionCommand) -> String {
    DesktopCommand.session(command).shortcutLabel
  }

  /// Runs GTK's loop until the last window closes.
  ///
  /// - Returns: GTK's exit status.
  package func run() -> Int32 {
    bridgeMainQueue()
    let status = g_application_run(cast(raw(application)), 0, nil)
    closeLibrary()
    return status
  }

  /// Opens one more window on the library, with a session of its own, bound at once.
  ///
  /// - Parameter opener: The window New Window was chosen in: the new one starts showing
  ///   what it shows. `nil` starts on the first note of "All notes".
  /// - Returns: The window.
  @discardableResult
  package func openWindow(from opener: DesktopWindow? = nil) -> DesktopWindow {
    let window = DesktopWindow(
      application: self, session: library.openSession(showing: opener?.session))
    window.bind()
    Signal.connectStopping(GPointer(window.window), "close-request") {
      [unowned self, unowned window] in
      self.windowClosing(window)
      return false
    }
    // The window's Swift side lives as long as its GTK window, not only while it is open:
    // GTK emits its widgets' signals until they are destroyed. The handler's closure is
    // released when GTK destroys the window's handlers, after its children's.
    Signal.connect(GPointer(window.window), "destroy") { withExtendedLifetime(window) {} }
    windows.append(window)
    gtk_window_present(cast(raw(window.window)))
    observer?.windowShown(window)
    return window
  }

  /// Closes every window, which ends the program (Quit).
  package func quit() {
    for window in windows { gtk_window_close(cast(raw(window.window))) }
  }

  private func windowClosing(_ window: DesktopWindow) {
    window.unbind()
    window.session.close()
    observer?.windowClosed(window)
    windows.removeAll { $0 === window }
    if windows.isEmpty { closeLibrary() }
  }

  private func closeLibrary() {
    guard !isClosed else { return }
    isClosed = true
    library.close()
    observer?.libraryClosed(self)
  }

  // MARK: - Signals

  /// The application a signal handler on GTK's loop closes (a C callback reaches statics
  /// only).
  private static var current: DesktopApplication?

  private static let closeOnSignal: GSourceFunc = { _ in
    MainActor.assumeIsolated {
      guard let current = DesktopApplication.current else { return }
      if current.windows.isEmpty {
        g_application_quit(cast(raw(current.application)))
      } else {
        current.quit()
      }
    }
    return 0  // G_SOURCE_REMOVE: a second signal ends the program the default way.
  }
}

/// Runs `DispatchQueue.main` (and so `@MainActor`) work inside GTK's main loop.
///
/// The bridge is a file-descriptor source on libdispatch's main-queue wake-up eventfd
/// (`airframe_bridge_main_queue` in CGtk): work queued from any thread wakes GTK's loop,
/// which drains the main queue in FIFO order between two GTK events. No timer and no idle
/// callback runs while nothing is queued. Call it once, before GTK's loop runs.
@MainActor
package func bridgeMainQueue() {
  enum Bridge { @MainActor static var isInstalled = false }
  guard !Bridge.isInstalled else { return }
  Bridge.isInstalled = true
  _ = airframe_bridge_main_queue()
}
