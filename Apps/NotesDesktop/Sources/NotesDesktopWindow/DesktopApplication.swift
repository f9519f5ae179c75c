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
/// - Restoration: Quit (or a signal) saves every open window's notebook, search, order,
///   note, size and maximized state, and closing the last window saves that one
///   (`ViewStateStore`, outside the library). The next launch on the same library opens
///   those windows again, each validated against the library as it is then (what was
///   deleted meanwhile is not restored); with nothing saved, one window on the first note.
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
  /// Where the windows are saved at quit and found at launch.
  private let savedWindows: ViewStateStore
  /// Whether Quit saved every window already, so the last one closing saves nothing more.
  private var savedAtQuit = false
  private var isClosed = false

  /// Makes the application for `library`; nothing shows until ``run()``.
  ///
  /// - Parameters:
  ///   - library: The open library. The application starts it (watcher, live sync) with
  ///     the first windows and closes it after the last.
  ///   - savedWindows: Where the windows are found at launch and saved at quit.
  package init(library: NotesLibrary, savedWindows: ViewStateStore = .standard()) {
    self.library = library
    self.savedWindows = savedWindows
    guard
      let application = gtk_application_new(
        "dev.airframe.NotesDesktop", G_APPLICATION_NON_UNIQUE)
    else { fatalError("GTK could not start") }
    self.application = application
    CommandActions.installShortcuts(in: application)
    Signal.connect(GPointer(application), "activate") { [unowned self] in
      guard self.windows.isEmpty, !self.isClosed else { return }
      let saved = self.savedWindows.windows(of: "desktop", library: self.library.path)
      if saved.isEmpty {
        self.openWindow()
      } else {
        for window in saved { self.openWindow(restoring: window) }
      }
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
  /// - Parameters:
  ///   - opener: The window New Window was chosen in: the new one starts showing what it
  ///     shows. `nil` starts on the first note of "All notes".
  ///   - saved: A window saved at the last quit, to show again as far as the library still
  ///     has what it showed.
  /// - Returns: The window.
  @discardableResult
  package func openWindow(
    from opener: DesktopWindow? = nil, restoring saved: SavedWindow? = nil
  ) -> DesktopWindow {
    let session = library.openSession(showing: opener?.session)
    if let saved { session.restore(saved.view) }
    let window = DesktopWindow(application: self, session: session)
    if let size = saved?.size {
      gtk_window_set_default_size(
        cast(raw(window.window)), Int32(clamping: size.width), Int32(clamping: size.height))
    }
    if saved?.isMaximized == true { gtk_window_maximize(cast(raw(window.window))) }
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

  /// Saves every window, then closes them all, which ends the program (Quit).
  package func quit() {
    if !windows.isEmpty {
      savedWindows.save(windows.map(\.savedWindow), of: "desktop", library: library.path)
      savedAtQuit = true
    }
    for window in windows { gtk_window_close(cast(raw(window.window))) }
  }

  private func windowClosing(_ window: DesktopWindow) {
    if windows.count == 1, !savedAtQuit {
      savedWindows.save([window.savedWindow], of: "desktop", library: library.path)
    }
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
