// notes-desktop: the Notes desktop window on GTK 4, on the same library file and session
// as the `notes` terminal app.
//
// Usage: `notes-desktop [--database PATH]` — the default library (see `DatabaseLocation`)
// or PATH; a new library gets the sample notes, as in the terminal app.
//
// GTK's loop runs on the process's main thread, so `main` stays synchronous (an async main
// would move the main actor to a dispatch thread). The main queue, and with it every
// `@MainActor` task (the library's watcher, live sync), runs inside GTK's loop through
// `airframe_bridge_main_queue` (CGtk/shim.h): a file-descriptor source on libdispatch's
// wake-up eventfd, no polling.

import AirframeBinding
import CGtk
import Foundation
import NotesHost

#if canImport(Glibc)
  import Glibc
#endif

/// Writes `text` and a newline to standard error.
func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

var databasePath: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--database":
    guard let path = arguments.popFirst() else {
      printError("notes-desktop: --database needs a path")
      exit(64)
    }
    databasePath = path
  case "--help", "-h":
    print("usage: notes-desktop [--database PATH]")
    exit(0)
  default:
    printError(
      "notes-desktop: unknown argument '\(argument)'\nusage: notes-desktop [--database PATH]")
    exit(64)
  }
}

// GTK emits the signals of a user's change when the program changes a widget too: every
// render echoes by design. The slots drop and count those echoes; they are not the
// programming error a debug build stops for in a presentation whose renders emit nothing.
BindingLedger.shared.echoPolicy = .count

let library: NotesLibrary
do {
  library = try NotesLibrary.open(path: databasePath, samples: .whenNew)
} catch {
  printError("notes-desktop: cannot open the library: \(error)")
  exit(74)
}

_ = airframe_bridge_main_queue()
guard let application = gtk_application_new("dev.airframe.NotesDesktop", G_APPLICATION_NON_UNIQUE)
else {
  printError("notes-desktop: GTK could not start")
  exit(1)
}
var window: DesktopWindow?

/// Writes what the window forwarded and dropped to `NOTES_DESKTOP_REPORT`, if set (for the
/// tests: a render's echo must never reach the session).
@MainActor func writeReport(_ window: DesktopWindow) {
  guard let path = ProcessInfo.processInfo.environment["NOTES_DESKTOP_REPORT"] else { return }
  struct Report: Codable {
    var forwarded: ForwardedInputs
    var droppedEchoes: Int
    var droppedPreviews: Int
    var liveBindings: Int
  }
  let report = Report(
    forwarded: window.forwarded, droppedEchoes: window.droppedEchoes,
    droppedPreviews: window.droppedPreviews,
    liveBindings: BindingLedger.shared.liveCount)
  if let data = try? JSONEncoder().encode(report) {
    _ = FileManager.default.createFile(atPath: path, contents: data)
  }
}

Signal.connect(GPointer(application), "activate") {
  guard window == nil else { return }
  let shown = DesktopWindow(application: application, session: library.session)
  shown.commands.install(in: application)
  shown.bind()
  library.start()
  Signal.connectStopping(GPointer(shown.window), "close-request") {
    shown.unbind()
    library.close()
    writeReport(shown)
    return false
  }
  gtk_window_present(cast(raw(shown.window)))
  window = shown
  Running.window = shown
}
// SIGTERM, SIGINT and SIGHUP close the window as Ctrl-Q does (the draft saved, the library
// closed in order), from GTK's loop rather than from a signal handler.
/// What a signal handler on GTK's loop closes (a C callback can reach only statics).
@MainActor
enum Running {
  static var application: UnsafeMutablePointer<GtkApplication>?
  static var window: DesktopWindow?
}
Running.application = application
let closeOnSignal: GSourceFunc = { _ in
  MainActor.assumeIsolated {
    if let window = Running.window {
      gtk_window_close(cast(raw(window.window)))
    } else if let application = Running.application {
      g_application_quit(cast(raw(application)))
    }
  }
  return 0  // G_SOURCE_REMOVE: a second signal ends the program the default way.
}
for signal in [SIGTERM, SIGINT, SIGHUP] { g_unix_signal_add(signal, closeOnSignal, nil) }

// GTK gets no arguments: the options above are the program's own.
let status = g_application_run(cast(raw(application)), 0, nil)
library.close()
exit(status)
