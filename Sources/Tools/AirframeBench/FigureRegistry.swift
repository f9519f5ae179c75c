// FigureRegistry: every figure the benchmark takes, by number, with the names `--filter`
// matches and how it is taken; `main.swift` runs the selected ones in this order.
//
// A figure's number is written once, here. Figures that share a world share it through
// their `Take`: the Notes library (built once per run, only when a selected figure needs
// it) or the sync group (one server and one pair of devices for figures 14–16).

/// What every figure is taken with.
@MainActor
struct FigureContext {
  var options: Options
  var scale: Scale
  var sink: Sink
}

/// One figure of the benchmark: its number, its names, and how it is taken.
struct RegisteredFigure {
  /// How a figure is taken.
  enum Take {
    /// On its own, or skipped, with the reason, when this machine cannot take it.
    case alone(@MainActor (Int, FigureContext) throws -> Result<Figure, Skipped>)
    /// On the run's Notes library, shared with the other figures that need it.
    case onLibrary(@MainActor (Int, NotesFixture, FigureContext) throws -> Figure)
    /// With the other figures of the sync group (14–16), on one server.
    case inSyncGroup
  }

  /// Why a figure was not taken on this machine.
  struct Skipped: Error {
    var reason: String
  }

  /// The number the figure is printed with.
  var number: Int
  /// The names `--filter` matches: the figure's own first, then its rows' groups.
  var names: [String]
  var take: Take
}

/// Every figure, in the order they run and are printed.
@MainActor
let registeredFigures: [RegisteredFigure] = [
  RegisteredFigure(
    number: 1, names: ["fan-out"],
    take: .alone { number, context in
      .success(
        writeDeliveryFigure(
          number: number, benchmark: "fan-out",
          title: "fan-out: 1 source, \(grouped(context.scale.fanOutObservers)) observers,"
            + " \(grouped(context.scale.fanOutWrites)) writes (ns per delivery)",
          observers: context.scale.fanOutObservers, writes: context.scale.fanOutWrites,
          scale: context.scale, sink: context.sink))
    }),
  RegisteredFigure(
    number: 2, names: ["single-observer"],
    take: .alone { number, context in
      .success(
        writeDeliveryFigure(
          number: number, benchmark: "single-observer",
          title: "single observer: \(grouped(context.scale.singleWrites)) writes (ns per write)",
          observers: 1, writes: context.scale.singleWrites, scale: context.scale,
          sink: context.sink))
    }),
  RegisteredFigure(
    number: 3, names: ["churn", "churn-1k", "churn-100k"],
    take: .alone {
      .success(churnFigure(number: $0, scale: $1.scale, sink: $1.sink))
    }),
  RegisteredFigure(
    number: 4, names: ["derived-chain", "derived-diamond"],
    take: .alone {
      .success(derivedChainFigure(number: $0, scale: $1.scale, sink: $1.sink))
    }),
  RegisteredFigure(
    number: 5, names: ["memory"],
    take: .alone {
      memoryFigure(number: $0, scale: $1.scale, sink: $1.sink).map { .success($0) }
        ?? .failure(.init(reason: "mallinfo2 is not available here"))
    }),
  RegisteredFigure(
    number: 6, names: ["view-state"],
    take: .alone {
      .success(viewStateFigure(number: $0, quick: $1.options.quick, sink: $1.sink))
    }),
  RegisteredFigure(
    number: 7, names: ["notes-load"],
    take: .onLibrary {
      try notesLoadFigure(number: $0, fixture: $1, scale: $2.scale, sink: $2.sink)
    }),
  RegisteredFigure(
    number: 8, names: ["notes-edits"],
    take: .onLibrary {
      try notesEditsFigure(number: $0, fixture: $1, scale: $2.scale, sink: $2.sink)
    }),
  RegisteredFigure(
    number: 9, names: ["notes-search"],
    take: .onLibrary {
      try notesSearchFigure(number: $0, fixture: $1, scale: $2.scale, sink: $2.sink)
    }),
  RegisteredFigure(
    number: 10, names: ["notes-views"],
    take: .alone {
      .success(notesViewsFigure(number: $0, scale: $1.scale, sink: $1.sink))
    }),
  RegisteredFigure(
    number: 11, names: ["keystroke"],
    take: .onLibrary {
      try keystrokeFigure(number: $0, fixture: $1, scale: $2.scale, sink: $2.sink)
    }),
  RegisteredFigure(
    number: 12, names: ["terminal-app"],
    take: .onLibrary {
      try terminalAppFigure(number: $0, fixture: $1, scale: $2.scale, sink: $2.sink)
    }),
  RegisteredFigure(
    number: 13, names: ["shared-library"],
    take: .onLibrary {
      try sharedLibraryFigure(number: $0, fixture: $1, scale: $2.scale, sink: $2.sink)
    }),
  RegisteredFigure(number: 14, names: ["sync-latency", "sync"], take: .inSyncGroup),
  RegisteredFigure(number: 15, names: ["sync-first", "sync"], take: .inSyncGroup),
  RegisteredFigure(number: 16, names: ["sync-offline", "sync"], take: .inSyncGroup),
  RegisteredFigure(
    number: 17, names: ["notes-files"],
    take: .onLibrary { number, fixture, context in
      try markdownRoundTripFigure(number: number, fixture: fixture, scale: context.scale)
    }),
  RegisteredFigure(
    number: 18, names: ["notes-merge"],
    take: .alone {
      .success(
        notesMergeFigure(number: $0, quick: $1.options.quick, scale: $1.scale, sink: $1.sink))
    }),
  RegisteredFigure(
    number: 19, names: ["sync-rls"],
    take: .alone {
      try rowSecurityFigure(number: $0, scale: $1.scale, sink: $1.sink).map { .success($0) }
        ?? .failure(.init(reason: "PostgreSQL's server programs are not available here"))
    }),
  RegisteredFigure(
    number: 20, names: ["note-history"],
    take: .onLibrary {
      try noteHistoryFigure(number: $0, fixture: $1, scale: $2.scale, sink: $2.sink)
    }),
]

/// The names `--filter` matches against: every figure's names.
@MainActor
let benchmarkNames: [String] = {
  var names: [String] = []
  for figure in registeredFigures {
    for name in figure.names where !names.contains(name) { names.append(name) }
  }
  return names
}()
