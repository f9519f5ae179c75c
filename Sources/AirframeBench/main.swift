// airframe-bench: measures AirframeBinding against hand-written and Observation
// baselines, and prints a table (default) or JSON lines (`--json`).
//
// Figures: 1 fan-out and 2 single-observer writes (FanOutBenchmarks.swift), 3 subscribe +
// cancel churn (ChurnBenchmarks.swift), 4 a derived chain (DerivedBenchmarks.swift),
// 5 heap bytes per subscription (MemoryBenchmarks.swift), 6 view state
// (ViewStateBenchmarks.swift), 7–10 the Notes app's storage, search and View State
// Controllers at 100,000 notes (NotesLoadFigure.swift, NotesEditsFigure.swift,
// NotesSearchFigure.swift, NotesViewsFigure.swift, on the library of NotesFixtures.swift),
// 11 keystroke to screen in the terminal app (KeystrokeBenchmarks.swift), 12 the terminal
// app and commands (TerminalAppBenchmarks.swift), 13 two processes on one library
// (SharedLibraryBenchmarks.swift), 14–16 sync through a PostgreSQL server of the run's own
// (SyncLatencyFigure.swift, FirstSyncFigure.swift, SyncOfflineFigure.swift, set up by
// SyncFixtures.swift), 17 a Markdown export and import (MarkdownBenchmarks.swift), 18 merges
// inside a paragraph (MergeBenchmarks.swift), 19 row-level security on against off
// (RowSecurityBenchmarks.swift). Measurement.swift says how a figure is taken, RawSQLite.swift
// is figure 8's baseline. Everything runs on the main actor (top-level code is main-actor
// code). Run it from a release build: `swift run -c release airframe-bench`.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes `text` and a newline to standard error.
func printError(_ text: String) {
  var line = text + "\n"
  line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

let options: Options
do {
  options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  printError("airframe-bench: \(error.message)\n\n\(Options.usage)")
  exit(2)
}
if options.help {
  print(Options.usage)
  exit(0)
}

#if DEBUG
  let build = "debug"
#else
  let build = "release"
#endif

var scale = options.quick ? Scale.quick : Scale.full
if let repetitions = options.repetitions {
  scale.repetitions = repetitions
  scale.budgetSeconds = nil
}
let reporter = Reporter(json: options.json)
let sink = Sink()
reporter.header(
  repetitions: scale.repetitions, budgetSeconds: scale.budgetSeconds, quick: options.quick,
  build: build)

let start = ContinuousClock.now
if options.selects("fan-out") {
  reporter.emit(
    writeDeliveryFigure(
      number: 1,
      benchmark: "fan-out",
      title: "fan-out: 1 source, \(grouped(scale.fanOutObservers)) observers,"
        + " \(grouped(scale.fanOutWrites)) writes (ns per delivery)",
      observers: scale.fanOutObservers,
      writes: scale.fanOutWrites,
      scale: scale,
      sink: sink))
}
if options.selects("single-observer") {
  reporter.emit(
    writeDeliveryFigure(
      number: 2,
      benchmark: "single-observer",
      title: "single observer: \(grouped(scale.singleWrites)) writes (ns per write)",
      observers: 1,
      writes: scale.singleWrites,
      scale: scale,
      sink: sink))
}
if options.selects("churn", "churn-1k", "churn-100k") {
  reporter.emit(churnFigure(number: 3, scale: scale, sink: sink))
}
if options.selects("derived-chain", "derived-diamond") {
  reporter.emit(derivedChainFigure(number: 4, scale: scale, sink: sink))
}
if options.selects("memory") {
  if let figure = memoryFigure(number: 5, scale: scale, sink: sink) {
    reporter.emit(figure)
  } else {
    printError("airframe-bench: memory figure skipped: mallinfo2 is not available here")
  }
}
if options.selects("view-state") {
  reporter.emit(viewStateFigure(number: 6, quick: options.quick, sink: sink))
}
if options.selects(
  "notes-load", "notes-edits", "notes-search", "keystroke", "terminal-app", "shared-library",
  "notes-files")
{
  // Figures 7–9, 11–13 and 17 share one library file, built once; the folder is removed in every
  // case.
  var folder: ScratchFolder?
  do {
    let scratch = try ScratchFolder()
    folder = scratch
    let fixture = try NotesFixture(noteCount: scale.notesCount, folder: scratch)
    if options.selects("notes-load") {
      reporter.emit(try notesLoadFigure(number: 7, fixture: fixture, scale: scale, sink: sink))
    }
    if options.selects("notes-edits") {
      reporter.emit(try notesEditsFigure(number: 8, fixture: fixture, scale: scale, sink: sink))
    }
    if options.selects("notes-search") {
      reporter.emit(try notesSearchFigure(number: 9, fixture: fixture, scale: scale, sink: sink))
    }
    if options.selects("keystroke") {
      reporter.emit(try keystrokeFigure(number: 11, fixture: fixture, scale: scale, sink: sink))
    }
    if options.selects("terminal-app") {
      reporter.emit(try terminalAppFigure(number: 12, fixture: fixture, scale: scale, sink: sink))
    }
    if options.selects("shared-library") {
      reporter.emit(try sharedLibraryFigure(number: 13, fixture: fixture, scale: scale, sink: sink))
    }
    if options.selects("notes-files") {
      reporter.emit(try markdownRoundTripFigure(number: 17, fixture: fixture, scale: scale))
    }
    scratch.remove()
  } catch {
    folder?.remove()
    printError("airframe-bench: notes figures failed: \(error)")
    exit(1)
  }
}
if options.selects("notes-views") {
  reporter.emit(notesViewsFigure(number: 10, scale: scale, sink: sink))
}
if options.selects("sync", "sync-latency", "sync-first", "sync-offline") {
  // Figures 14–16 start and stop a PostgreSQL server of their own; without one they are
  // skipped. The server and the library files are removed in every case.
  do {
    switch try syncFigures(firstNumber: 14, options: options, scale: scale, sink: sink) {
    case .measured(let figures):
      for figure in figures { reporter.emit(figure) }
    case .skipped(let reason):
      printError("airframe-bench: sync figures skipped: \(reason)")
    }
  } catch {
    printError("airframe-bench: sync figures failed: \(error)")
    exit(1)
  }
}
if options.selects("notes-merge") {
  reporter.emit(notesMergeFigure(number: 18, quick: options.quick, scale: scale, sink: sink))
}
if options.selects("sync-rls") {
  // Figure 19 starts and stops a PostgreSQL server of its own; without one it is skipped.
  do {
    if let figure = try rowSecurityFigure(number: 19, scale: scale, sink: sink) {
      reporter.emit(figure)
    }
  } catch {
    printError("airframe-bench: figure 19 failed: \(error)")
    exit(1)
  }
}
let elapsed = ContinuousClock.now - start

// Consume the sink, so that no observer's work is dead code. JSON mode keeps stdout to
// the JSON lines and reports on standard error.
let summary = "checksum \(sink.checksum) over \(grouped(sink.count)) deliveries; took \(elapsed)"
if options.json {
  printError("airframe-bench: " + summary)
} else {
  print("\n" + summary)
}
