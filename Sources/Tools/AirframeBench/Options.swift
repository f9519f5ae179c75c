// Options: the command line of airframe-bench, and the operation counts it implies.
//
// Counts are fixed per mode (full or --quick) and printed with every figure; nothing
// about the results is assumed or hard-coded here.

/// A command line that airframe-bench does not understand.
struct UsageError: Error {
  var message: String
}

/// What to run and how to print it.
@MainActor
struct Options {
  var json = false
  var quick = false
  var filter: String?
  var repetitions: Int?
  var help = false

  static let usage = """
    usage: airframe-bench [--json] [--quick] [--filter NAME] [--repetitions N]

      --json            print one JSON object per line for each measured row
      --quick           tiny counts and 1 repetition (a smoke test; works in debug builds)
      --filter NAME     run only the benchmarks whose name contains NAME
      --repetitions N   timed runs per subject, after 1 warm-up (default 7, fewer for a
                        figure that would take over ~20 s; 1 with --quick)
      --help            print this message

    benchmarks: \(benchmarkNames.joined(separator: ", "))
    """

  /// Parses the arguments after the program name.
  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--help", "-h": options.help = true
      case "--json": options.json = true
      case "--quick": options.quick = true
      case "--filter":
        guard let name = remaining.popFirst(), !name.isEmpty, !name.hasPrefix("--") else {
          throw UsageError(message: "--filter needs a benchmark name")
        }
        options.filter = name
      case "--repetitions":
        guard let text = remaining.popFirst(), let count = Int(text), count > 0 else {
          throw UsageError(message: "--repetitions needs a positive whole number")
        }
        options.repetitions = count
      default:
        throw UsageError(message: "unknown argument '\(argument)'")
      }
    }
    if let filter = options.filter, !benchmarkNames.contains(where: { matches($0, filter) }) {
      throw UsageError(message: "no benchmark name contains '\(filter)'")
    }
    return options
  }

  /// Whether a benchmark group should run.
  ///
  /// `names` are the group's name and its figures' names. Figures of one group are
  /// measured together, so matching any of them runs the whole group.
  func selects(_ names: String...) -> Bool {
    selects(anyOf: names)
  }

  /// Whether a figure with any of `names` should run.
  func selects(anyOf names: [String]) -> Bool {
    guard let filter else { return true }
    return names.contains { Options.matches($0, filter) }
  }

  private static func matches(_ name: String, _ filter: String) -> Bool {
    name.lowercased().contains(filter.lowercased())
  }
}

/// The operation counts of one run of the suite.
struct Scale {
  var repetitions: Int
  /// About how long the timed runs of one figure may take; nil for no limit.
  var budgetSeconds: Double?
  var fanOutObservers: Int
  var fanOutWrites: Int
  var singleWrites: Int
  var churnSmallLive: Int
  var churnLargeLive: Int
  var churnPairs: Int
  var derivedWrites: Int
  var memorySubscriptions: Int
  /// Notes in the library of the notes figures (7–10).
  var notesCount: Int
  /// Single-note edits (commits) per timed run of each subject of figure 8.
  var notesEdits: Int
  /// Timed queries of each kind in figure 9.
  var notesSearches: Int
  /// Timed writes in figure 10.
  var notesViewWrites: Int
  /// Notes in the synced libraries of the sync figures (14–16).
  var syncNotesCount: Int
  /// Timed edits from one device to the other in figure 14.
  var syncSamples: Int
  /// First syncs (each on a new server) in figure 15, at most.
  var syncFirstRuns: Int
  /// Notes edited offline per run of figure 16.
  var syncOfflineEdits: Int

  static let full = Scale(
    repetitions: 7,
    budgetSeconds: 20,
    fanOutObservers: 1_000,
    fanOutWrites: 1_000,
    singleWrites: 1_000_000,
    churnSmallLive: 1_000,
    churnLargeLive: 100_000,
    churnPairs: 100_000,
    derivedWrites: 1_000_000,
    memorySubscriptions: 100_000,
    notesCount: 100_000,
    notesEdits: 2_000,
    notesSearches: 500,
    notesViewWrites: 2_000,
    syncNotesCount: 100_000,
    syncSamples: 100,
    syncFirstRuns: 3,
    syncOfflineEdits: 1_000
  )

  static let quick = Scale(
    repetitions: 1,
    budgetSeconds: nil,
    fanOutObservers: 50,
    fanOutWrites: 20,
    singleWrites: 2_000,
    churnSmallLive: 100,
    churnLargeLive: 2_000,
    churnPairs: 2_000,
    derivedWrites: 2_000,
    memorySubscriptions: 1_000,
    notesCount: 2_000,
    notesEdits: 200,
    notesSearches: 30,
    notesViewWrites: 200,
    syncNotesCount: 200,
    syncSamples: 5,
    syncFirstRuns: 1,
    syncOfflineEdits: 20
  )
}
