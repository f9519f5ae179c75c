// notes: the Notes app. With a subcommand it is a script-friendly command line; without
// one it opens the full-screen terminal app on the default (or `--database`) library.
//
// Usage errors and failures go to standard error with a non-zero status (BSD sysexits, see
// `ExitCode`): 64 for a bad command line, 65 for invalid input data, 66 for a note, notebook
// or file that does not exist, 69 for a sync server that cannot be reached, 73 for an export
// folder that cannot be created, 1 for anything else. Nothing is written to the database on
// any of them.

import Foundation
import NotesCommandLine
import NotesHost
import NotesPresentation
import NotesStorage
import NotesTerminalUI

/// Writes a line to standard error.
func printError(_ message: String) {
  FileHandle.standardError.write(Data("notes: \(message)\n".utf8))
}

/// Runs the full-screen app until the user quits.
///
/// ## Guarantees
///
/// - The full-screen app refuses to start without a terminal (status 1, with a message).
/// - A library file that does not exist yet is created; the full-screen app fills a new
///   library with the samples of `SampleLibrary`.
/// - Every exit path of the full-screen app restores the terminal (see `Terminal`). Quitting
///   and a closed terminal (hangup) also save the editor's draft and close the database.
/// - The app opens on the notebook, search, order and note it showed when it last quit on
///   this library, as far as they still exist (`ViewStateStore`, `SavedViewState`).
@MainActor
func runFullScreen(databasePath: String?) -> Never {
  guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
    printError(
      "the full-screen app needs a terminal; use a subcommand instead (see `notes --help`)")
    exit(1)
  }
  let library: NotesLibrary
  do {
    library = try NotesLibrary.open(
      path: databasePath, samples: .whenNew, shortcut: TerminalApplication.shortcut)
  } catch {
    printError("\(error)")
    exit(1)
  }
  // Sync talks to the server `notes sync setup` stored; without one, `s` says how to set
  // it up and nothing else changes.
  let app = TerminalApplication(session: library.session)
  let savedWindows = ViewStateStore.standard()
  if let saved = savedWindows.windows(of: "terminal", library: library.path).first {
    app.session.restore(saved.view)
  }
  let terminal: Terminal
  do {
    terminal = try Terminal.start()
  } catch {
    library.close()
    printError("\(error)")
    exit(1)
  }
  let consistency = ConsistencyLog(
    session: app.session, environment: ProcessInfo.processInfo.environment)
  var drawScheduled = false
  func draw() {
    drawScheduled = false
    consistency?.verify(after: "a redraw")
    terminal.draw(app.render(width: terminal.size.width, height: terminal.size.height))
  }
  app.onNeedsDisplay = {
    guard !drawScheduled else { return }
    drawScheduled = true
    // Skipped if a batch of keys drew the screen in the meantime.
    DispatchQueue.main.async { MainActor.assumeIsolated { if drawScheduled { draw() } } }
  }
  app.onRepaint = { terminal.repaintNextDraw() }
  // Another process's commits (a second window, a script) reach every pane, and a library
  // with a server syncs live. The watcher wakes on writes to the library's files;
  // AIRFRAME_NOTES_WATCH_MS makes it poll at that period instead (tests slow it down to
  // make two writers meet).
  let period = ProcessInfo.processInfo.environment["AIRFRAME_NOTES_WATCH_MS"].flatMap(Int.init)
  library.start(watching: period.map { .polling(every: .milliseconds(max(10, $0))) } ?? .fileEvents)
  func finish() -> Never {
    savedWindows.save(
      [SavedWindow(view: app.session.savedViewState)], of: "terminal", library: library.path)
    app.shutdown()
    terminal.stop()
    library.close()
    exit(0)
  }
  terminal.run(
    onKeys: { keys in
      // One batch: a paste or a burst of typing is one edit, one save and one draw.
      app.handle(keys)
      consistency?.verify(after: "keys \(keys)")
      if app.isFinished { finish() }
      draw()
    },
    onResize: { _, _ in draw() },
    onHangup: { finish() })
  draw()
  // The main thread stays alive, serving the main queue from its run loop. `dispatchMain()`
  // would end it, and a signal sent to the process could then be handled on what is left
  // of it inside its teardown, where AddressSanitizer stops on its own check and the
  // terminal is never restored.
  while true { RunLoop.main.run() }
}

let command: NotesCommand
do {
  command = try NotesCommandLine.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  printError("\(error)\nusage: see `notes --help`")
  exit(ExitCode.usage.rawValue)
}
if case .interactive(let path) = command {
  MainActor.assumeIsolated { runFullScreen(databasePath: path) }
} else {
  exit(MainActor.assumeIsolated { NotesCommandLine.execute(command, io: .standard) })
}
