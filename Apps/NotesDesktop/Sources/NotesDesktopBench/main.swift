// notes-desktop-bench: the desktop window's figures on a library of 100,000 notes, taken in
// a display of the benchmark's own (Xvfb) unless DISPLAY names one.
//
//   D1 first window: from starting the program until its window's first frame is painted
//      (a whole process each run: GTK's start, the library's load, the lists, the frame).
//   D2 keystroke: a character typed into the open note until every widget shows it (the
//      save and every render), and GTK's frame for it (layout and paint, apart from the
//      wait for the frame's turn).
//   D3 the main-queue bridge: work queued from another thread until it runs in GTK's loop.
//
// Usage: notes-desktop-bench [--notes N] [--runs R] [--keys K] [--library PATH] [--json]
// (`--library PATH` takes the figures on PATH, made first if it does not exist, instead of
// on a new library each run; `--runs 0` leaves D1 out.)
// Run it from a release build:
// `swift run --package-path Apps/NotesDesktop -c release notes-desktop-bench`.

import AirframeBinding
import CGtk
import Foundation
import NotesCore
import NotesDesktopWindow
import NotesHost
import NotesPresentation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes `text` and a newline to standard error.
func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

let usage =
  "usage: notes-desktop-bench [--notes N] [--runs R] [--keys K] [--library PATH] [--json]"
var noteCount = 100_000
var runs = 7
var keyCount = 500
var json = false
var firstWindowLibrary: String?
var givenLibrary: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--notes", "--runs", "--keys":
    guard let value = arguments.popFirst().flatMap(Int.init), value >= 0 else {
      printError("notes-desktop-bench: \(argument) needs a number\n\(usage)")
      exit(64)
    }
    if argument == "--notes" { noteCount = value }
    if argument == "--runs" { runs = value }
    if argument == "--keys" { keyCount = value }
  case "--json": json = true
  case "--library": givenLibrary = arguments.popFirst()
  // One run of D1, in a process of its own (the benchmark starts it).
  case "--first-window": firstWindowLibrary = arguments.popFirst()
  case "--help", "-h":
    print(usage)
    exit(0)
  default:
    printError("notes-desktop-bench: unknown argument '\(argument)'\n\(usage)")
    exit(64)
  }
}

// The window as a user gets it, without the accessibility bus (no D-Bus session here) and
// with GTK's software renderer (the GL one on a virtual display measures llvmpipe).
setenv("GTK_A11Y", "none", 1)
setenv("GDK_BACKEND", "x11", 1)
setenv("GSK_RENDERER", "cairo", 1)
BindingLedger.shared.echoPolicy = .count

if let path = firstWindowLibrary {
  exit(FirstWindow.run(library: path))
}

#if DEBUG
  printError("notes-desktop-bench: a debug build; the figures are for -c release builds")
#endif
let display = try VirtualDisplay.ensure()
let reporter = Reporter(json: json)
let folder = FileManager.default.temporaryDirectory
  .appendingPathComponent("notes-desktop-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
let libraryPath = givenLibrary ?? folder + "/library.notes"
if !FileManager.default.fileExists(atPath: libraryPath) {
  reporter.note("Making a library of \(noteCount) notes…")
  try MainActor.assumeIsolated { try Fixture.make(at: libraryPath, notes: noteCount) }
}

// D1: whole processes, one after another.
var firstWindow = Samples()
for _ in 0..<runs { firstWindow.append(try FirstWindow.launch(library: libraryPath)) }
if runs > 0 {
  reporter.emit(
    Row(
      "D1 first window", "\(noteCount) notes, start to first painted frame", firstWindow,
      target: ("median ≤ 1000 ms", 1_000)))
}

// D2 and D3: in this process, while GTK's loop runs.
let status = MainActor.assumeIsolated {
  let library: NotesLibrary
  do {
    library = try NotesLibrary.open(path: libraryPath, samples: .never)
  } catch {
    printError("notes-desktop-bench: cannot open the library: \(error)")
    exit(74)
  }
  // Its windows are saved beside its library, not among the user's.
  let application = DesktopApplication(
    library: library, savedWindows: ViewStateStore(path: folder + "/windows.json"))
  application.observer = WindowShown { window in
    // The frame clock exists once the window is realized; measure after its first frame.
    Task { @MainActor in
      await Task.yield()
      let figures = WindowFigures(window: window)
      _ = await figures.nextFrame()
      // The pinned long note is open first; then a short one, the newest.
      for note in ["a note of 2,000 lines", "a one-line note"] {
        // The window's own session: the library's `session` would be another presentation's.
        if note == "a one-line note", let newest = window.session.list.rows.dropFirst().first {
          _ = window.session.noteSelected(newest.id)
          _ = await figures.nextFrame()
        }
        let (renders, frames) = await figures.keystrokes(keyCount)
        reporter.emit(
          Row(
            "D2 keystroke", "key to every widget updated, \(note) (\(noteCount) notes)",
            renders, target: ("p99 ≤ 8 ms", 8)))
        reporter.emit(
          Row("D2 keystroke", "GTK's frame for it (its update, layout and paint)", frames))
      }
      let bridge = await WindowFigures.bridgeLatency(2_000)
      reporter.emit(Row("D3 main-queue bridge", "queued on another thread to run", bridge))
      application.quit()
    }
  }
  return application.run()
}
// `exit` skips a top-level `defer`: the X server and the folder go first.
display?.stop()
try? FileManager.default.removeItem(atPath: folder)
exit(status)
