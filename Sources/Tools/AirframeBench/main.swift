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
let context = FigureContext(options: options, scale: scale, sink: sink)
let selected = registeredFigures.filter { options.selects(anyOf: $0.names) }
// The Notes library is built once, when the first figure that needs it runs; the sync
// group runs once, at its first figure, for all of its selected figures. Every folder and
// server is removed at the end whatever happens.
var library: (folder: ScratchFolder, fixture: NotesFixture)?
defer { library?.folder.remove() }
var syncGroupRan = false
for figure in selected {
  do {
    switch figure.take {
    case .alone(let take):
      switch try take(figure.number, context) {
      case .success(let taken): reporter.emit(taken)
      case .failure(let skipped):
        printError("airframe-bench: figure \(figure.number) skipped: \(skipped.reason)")
      }
    case .onLibrary(let take):
      if library == nil {
        let folder = try ScratchFolder()
        library = (folder, try NotesFixture(noteCount: scale.notesCount, folder: folder))
      }
      if let library { reporter.emit(try take(figure.number, library.fixture, context)) }
    case .inSyncGroup:
      guard !syncGroupRan else { continue }
      syncGroupRan = true
      var numbers: [String: Int] = [:]
      for member in selected {
        if case .inSyncGroup = member.take, let name = member.names.first {
          numbers[name] = member.number
        }
      }
      switch try syncFigures(numbers: numbers, scale: scale, sink: sink) {
      case .measured(let figures):
        for taken in figures { reporter.emit(taken) }
      case .skipped(let reason):
        printError("airframe-bench: sync figures skipped: \(reason)")
      }
    }
  } catch {
    printError("airframe-bench: figure \(figure.number) failed: \(error)")
    library?.folder.remove()
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
