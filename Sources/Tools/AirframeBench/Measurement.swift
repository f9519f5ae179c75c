// Measurement: how every timed figure is taken.
//
// A figure has several subjects (Airframe and its baselines) that do the same amount of
// work per run. All of them are measured in the same process, interleaved: one warm-up
// run of each subject, then `repetitions` rounds in which every subject runs once. Each
// run is timed with `ContinuousClock` (CLOCK_MONOTONIC on Linux) and divided by the
// number of operations it performed; a subject's figure is the median of its runs, with
// the minimum and the 90th percentile (nearest rank) kept for the JSON output.
// Interleaving spreads slow drifts of the machine (frequency, a noisy neighbour) over
// all subjects instead of charging them to whichever ran last.
//
// Time budget: by default a figure's timed runs may take about `Scale.budgetSeconds`.
// When the warm-up round shows that `repetitions` rounds would take longer, the figure
// takes fewer rounds (never fewer than 3), says so under its table, and reports the
// number it took in `repetitions` / `median_of`. Operation counts never change. An
// explicit `--repetitions N` turns the budget off.
//
// Observers in every benchmark do real work into a `Sink` (see there for how they are
// written) that main.swift prints at the end, so the optimizer cannot drop deliveries.

/// The median, minimum and 90th percentile of one subject's runs, in nanoseconds per
/// operation (or bytes per subscription for the memory figure).
struct Stats {
  var median: Double
  var min: Double
  var p90: Double
  /// The per-run values the statistics were taken from.
  var samples: [Double]

  init(samples: [Double]) {
    precondition(!samples.isEmpty, "no samples")
    let sorted = samples.sorted()
    self.samples = samples
    self.min = sorted[0]
    let middle = sorted.count / 2
    self.median =
      sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    self.p90 = nearestRank(sorted: sorted, 0.9)
  }
}

/// The nearest-rank percentile `fraction` of `samples`: the smallest sample with at least
/// that fraction of the samples at or below it.
func nearestRank(_ samples: [Double], _ fraction: Double) -> Double {
  nearestRank(sorted: samples.sorted(), fraction)
}

/// ``nearestRank(_:_:)`` of samples already sorted in increasing order.
func nearestRank(sorted: [Double], _ fraction: Double) -> Double {
  precondition(!sorted.isEmpty, "no samples")
  let rank = Int((fraction * Double(sorted.count)).rounded(.up))
  return sorted[max(rank, 1) - 1]
}

/// One thing being measured in a figure: `run` performs `operations` operations.
struct Subject {
  var name: String
  var operations: Int
  var run: @MainActor () -> Void
}

/// Where observers put their work, so that no delivery is dead code.
///
/// Observers are written as closure literals right at the `observe` call (or at
/// `ClosureArraySource.observe`), the way user code writes them. Two things make that
/// matter for the figures:
/// - A closure literal passed straight to a generic `(Value) -> Void` parameter is
///   emitted at that abstraction; a closure value made elsewhere (returned by a helper)
///   and then passed would be wrapped in a reabstraction thunk: one more allocation per
///   subscription and one more call per delivery.
/// - A closure written in main-actor code is main-actor isolated. Passed to a main-actor
///   method it is called as is; handed to a nonisolated API such as `Array.append`, Swift 6
///   adds a run-time isolation check (`swift_task_isCurrentExecutor` plus a retain and a
///   release of `MainActor.shared`) to every call, which costs more than a delivery here.
///   So the baseline's observers go through a main-actor method too.
final class Sink {
  /// The sum of the delivered values (wrapping).
  var total = 0
  /// The number of deliveries.
  var count = 0

  /// A combined value to print at the end of the run.
  var checksum: Int { total &+ count &* 31 }
}

/// Nanoseconds elapsed while running `body`.
@MainActor
func timeNanoseconds(_ body: () -> Void) -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  body()
  let elapsed = clock.now - start
  let parts = elapsed.components
  return Double(parts.seconds) * 1e9 + Double(parts.attoseconds) / 1e9
}

/// What `measureInterleaved` measured.
struct Measured {
  /// Nanoseconds per operation for each subject, in the order given.
  var stats: [Stats]
  /// The number of timed rounds taken.
  var repetitions: Int
  /// Why fewer rounds than asked were taken, if they were.
  var note: String?
}

/// Measures every subject with one warm-up run and up to `repetitions` interleaved timed
/// runs, fewer if that many would take longer than `budgetSeconds`.
@MainActor
func measureInterleaved(
  _ subjects: [Subject],
  repetitions: Int,
  budgetSeconds: Double?
) -> Measured {
  var warmUpNanoseconds = 0.0
  for subject in subjects { warmUpNanoseconds += timeNanoseconds(subject.run) }
  var rounds = repetitions
  var note: String?
  if let budgetSeconds, warmUpNanoseconds * Double(repetitions) > budgetSeconds * 1e9 {
    rounds = min(repetitions, max(3, Int(budgetSeconds * 1e9 / warmUpNanoseconds)))
    if rounds < repetitions {
      note =
        "time budget: \(rounds) timed runs instead of \(repetitions) (a round of all subjects"
        + " took \(formatted(warmUpNanoseconds / 1e9, digits: 1)) s)"
    }
  }
  var samples = Array(repeating: [Double](), count: subjects.count)
  for _ in 0..<rounds {
    for (index, subject) in subjects.enumerated() {
      let nanoseconds = timeNanoseconds(subject.run)
      samples[index].append(nanoseconds / Double(subject.operations))
    }
  }
  return Measured(stats: samples.map { Stats(samples: $0) }, repetitions: rounds, note: note)
}
