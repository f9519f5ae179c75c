// notes-desktop: the Notes desktop window on GTK 4, on the same library file and session
// as the `notes` terminal app.
//
// Usage: `notes-desktop [--database PATH]` — the default library (see `DatabaseLocation`)
// or PATH; a new library gets the sample notes, as in the terminal app.
//
// GTK's loop runs on the process's main thread, so `main` stays synchronous (an async main
// would move the main actor to a dispatch thread). `DesktopApplication` bridges the main
// queue into GTK's loop and closes the library after the last window.

import AirframeBinding
import Foundation
import NotesDesktopWindow
import NotesHost

#if canImport(Glibc)
  import Glibc
#endif

/// Writes `text` and a newline to standard error.
func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

let usage = "usage: notes-desktop [--database PATH]"
var databasePath: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--database":
    guard let path = arguments.popFirst() else {
      printError("notes-desktop: --database needs a path\n\(usage)")
      exit(64)
    }
    databasePath = path
  case "--help", "-h":
    print(usage)
    exit(0)
  default:
    printError("notes-desktop: unknown argument '\(argument)'\n\(usage)")
    exit(64)
  }
}

// GTK emits the signals of a user's change when the program changes a widget too: every
// render echoes by design. The slots drop and count those echoes; they are not the
// programming error a debug build stops for in a presentation whose renders emit nothing.
BindingLedger.shared.echoPolicy = .count

let library: NotesLibrary
do {
  library = try NotesLibrary.open(
    path: databasePath, samples: .whenNew, shortcut: DesktopApplication.shortcut)
} catch {
  printError("notes-desktop: cannot open the library: \(error)")
  exit(74)
}

let application = DesktopApplication(library: library)
// The desktop tests ask for a report of what the windows forwarded and dropped.
if let path = ProcessInfo.processInfo.environment["NOTES_DESKTOP_REPORT"] {
  application.observer = WindowReportWriter(path: path)
}
// GTK gets no arguments: the options above are the program's own.
exit(application.run())
