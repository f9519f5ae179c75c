// View State Controllers (figure 6): one entity updated through the model's funnel while
// 5 list lenses over 100,000 entities observe it, against rebuilding the 5 lists.
//
// Setup: a `Model` holding `entities` notes (random titles from a small vocabulary plus
// the id, 20 notebooks, random modification times, 1 in 50 pinned) and 5 `ListLens`es
// that differ in order and filter: by title; newest first; pinned first, then newest; a
// search for "an" in the title, newest first; one notebook, by title.
// - Incremental: each measured operation is one `model.write` that updates one random
//   note, alternately its modification time (a sort key of three lenses) and its word
//   count (no lens sorts or filters by it). It is timed from before `write` to after it
//   returns; delivery is synchronous, so every lens has applied the commit by then (the
//   figure checks it: each lens that lists the note has published the new revision).
//   `updates` operations after a warm-up; each operation is one sample, so the figure
//   reports the median and the 99th percentile (nearest rank) of single updates.
// - Of which delivery: the same writes, timed from a commit observer registered before
//   the lenses to one registered after them: the lenses' own share of the write.
// - Write alone: the same kind of write to a third model with no observers: the funnel's
//   own cost (at the time of writing it copies the entity table on every write, so it
//   dominates the incremental row).
// - Rebuild: the same kind of update with 5 naive controllers observing a second model:
//   on each commit each filters all notes and sorts them with a hand-written comparator
//   (the cheapest from-scratch rebuild). Fewer operations, since each takes milliseconds.
// `ratio_to_incremental` is the rebuild median over the incremental median.

import Airframe
import AirframeTesting

/// A note as the view-state benchmark lists it.
struct BenchNote: Identifiable, Equatable {
  let id: Int
  var title: String
  var notebook: Int
  var modified: Int
  var isPinned: Bool
  var wordCount: Int
}

/// The benchmark's model state.
struct BenchLibrary {
  var notes = EntityTable<BenchNote>()
}

/// A controller that rebuilds its whole list on every commit: the baseline.
@MainActor
final class RebuildingList {
  private(set) var rows: [BenchNote] = []
  private(set) var revision = 0
  private var lifetime: Lifetime?
  private let isIncluded: (BenchNote) -> Bool
  private let precedes: (BenchNote, BenchNote) -> Bool

  init(
    model: Model<BenchLibrary>, isIncluded: @escaping (BenchNote) -> Bool,
    precedes: @escaping (BenchNote, BenchNote) -> Bool
  ) {
    self.isIncluded = isIncluded
    self.precedes = precedes
    rebuild(model.state, revision: model.revision)
    lifetime = model.observeCommits { [weak self] commit in
      self?.rebuild(commit.state, revision: commit.revision)
    }
  }

  private func rebuild(_ state: BenchLibrary, revision: Int) {
    rows = state.notes.elements.filter(isIncluded).sorted(by: precedes)
    self.revision = revision
  }
}

/// The 5 configurations: a lens order and filter, and the same as a hand-written
/// predicate and comparator (ties by id) for the rebuilding baseline.
@MainActor
private func viewStateConfigurations() -> [(
  name: String, order: ListOrder<BenchNote>, filter: ListFilter<BenchNote>,
  isIncluded: (BenchNote) -> Bool, precedes: (BenchNote, BenchNote) -> Bool
)] {
  let newestFirst: (BenchNote, BenchNote) -> Bool = {
    $0.modified != $1.modified ? $0.modified > $1.modified : $0.id < $1.id
  }
  let byTitle: (BenchNote, BenchNote) -> Bool = {
    $0.title != $1.title ? $0.title < $1.title : $0.id < $1.id
  }
  return [
    ("by title", .by(\.title), .all, { _ in true }, byTitle),
    ("newest first", .by(\.modified, .descending), .all, { _ in true }, newestFirst),
    (
      "pinned first, then newest",
      .by({ $0.isPinned ? 1 : 0 }, .descending).then(\.modified, .descending), .all,
      { _ in true },
      { $0.isPinned != $1.isPinned ? $0.isPinned : newestFirst($0, $1) }
    ),
    (
      "search \"an\", newest first", .by(\.modified, .descending), .search("an", in: \.title),
      { $0.title.lowercased().contains("an") }, newestFirst
    ),
    (
      "notebook 3, by title", .by(\.title), ListFilter { $0.notebook == 3 }, { $0.notebook == 3 },
      byTitle
    ),
  ]
}

/// Figure 6.
@MainActor
func viewStateFigure(number: Int, quick: Bool, sink: Sink) -> Figure {
  let entities = quick ? 2_000 : 100_000
  let updates = quick ? 200 : 2_000
  let warmUp = quick ? 20 : 200
  let rebuilds = quick ? 3 : 20
  let words = ["apple", "banana", "cherry", "date", "elder", "fig", "grape", "honey", "kiwi"]
  var random = SeededRandomNumberGenerator(seed: 42)
  let notes = (0..<entities).map { id in
    BenchNote(
      id: id,
      title: words.randomElement(using: &random)! + " " + words.randomElement(using: &random)!
        + " \(id)",
      notebook: Int.random(in: 0..<20, using: &random),
      modified: Int.random(in: 0..<1_000_000, using: &random),
      isPinned: Int.random(in: 0..<50, using: &random) == 0,
      wordCount: Int.random(in: 0..<5_000, using: &random))
  }
  let configurations = viewStateConfigurations()

  /// One update of note `id`: even steps change a sort key, odd steps a plain field.
  func write(_ model: Model<BenchLibrary>, id: Int, modified: Int, step: Int) {
    try! model.write(origin: .background("benchmark fixture")) { transaction in
      try transaction.update(id, in: \.notes) { note in
        if step.isMultiple(of: 2) { note.modified = modified } else { note.wordCount += 1 }
      }
    }
  }

  let clock = ContinuousClock()
  func nanoseconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) * 1e9 + Double(parts.attoseconds) / 1e9
  }

  // The funnel alone: the same writes with nobody observing.
  let bareModel = Model(BenchLibrary(notes: EntityTable(notes)))
  var bareSamples: [Double] = []
  for step in 0..<(warmUp + updates) {
    let id = Int.random(in: 0..<entities, using: &random)
    let modified = Int.random(in: 0..<1_000_000, using: &random)
    let start = clock.now
    write(bareModel, id: id, modified: modified, step: step)
    if step >= warmUp { bareSamples.append(nanoseconds(clock.now - start)) }
  }

  // Incremental: 5 lenses on one model, bracketed by two commit observers that time the
  // delivery to the lenses alone.
  let model = Model(BenchLibrary(notes: EntityTable(notes)))
  var deliveryStart = clock.now
  var deliveryEnd = clock.now
  let before = model.observeCommits { _ in deliveryStart = clock.now }
  let lenses = configurations.map {
    ListLens(model: model, table: \.notes, order: $0.order, filter: $0.filter)
  }
  let after = model.observeCommits { _ in deliveryEnd = clock.now }
  var delivered = 0
  var missed = 0
  var samples: [Double] = []
  var deliverySamples: [Double] = []
  samples.reserveCapacity(updates)
  deliverySamples.reserveCapacity(updates)
  for step in 0..<(warmUp + updates) {
    let id = Int.random(in: 0..<entities, using: &random)
    let modified = Int.random(in: 0..<1_000_000, using: &random)
    let start = clock.now
    write(model, id: id, modified: modified, step: step)
    let elapsed = clock.now - start
    if step >= warmUp { deliverySamples.append(nanoseconds(deliveryEnd - deliveryStart)) }
    for lens in lenses {
      if lens.revision == model.revision {
        delivered += 1
      } else if lens.row(for: id) != nil {
        missed += 1
      }
    }
    if step >= warmUp { samples.append(nanoseconds(elapsed)) }
  }
  before.cancel()
  after.cancel()
  let incremental = Stats(samples: samples)
  let incrementalP99 = nearestRank(samples, 0.99)
  let delivery = Stats(samples: deliverySamples)
  let deliveryP99 = nearestRank(deliverySamples, 0.99)
  let bare = Stats(samples: bareSamples)
  let bareP99 = nearestRank(bareSamples, 0.99)

  // Rebuild: 5 rebuilding controllers on a second model with the same notes.
  let rebuildModel = Model(BenchLibrary(notes: EntityTable(notes)))
  let rebuilding = configurations.map {
    RebuildingList(model: rebuildModel, isIncluded: $0.isIncluded, precedes: $0.precedes)
  }
  var rebuildSamples: [Double] = []
  for step in 0..<(rebuilds + 1) {
    let id = Int.random(in: 0..<entities, using: &random)
    let modified = Int.random(in: 0..<1_000_000, using: &random)
    let nanoseconds = timeNanoseconds {
      write(rebuildModel, id: id, modified: modified, step: step)
    }
    if step > 0 { rebuildSamples.append(nanoseconds) }
  }
  for list in rebuilding where list.revision != rebuildModel.revision { missed += 1 }
  let rebuild = Stats(samples: rebuildSamples)
  let rebuildP99 = nearestRank(rebuildSamples, 0.99)
  let ratio = rebuild.median / incremental.median

  let targetNanoseconds = 50_000.0
  let targetRatio = 100.0
  var figure = Figure(
    number: number,
    title: "view state: \(grouped(entities)) entities, 5 list lenses observing, one entity"
      + " updated per write (ns from write to all 5 updated)",
    kind: .time(unit: "ns/update"))
  figure.rows.append(
    Row(
      benchmark: "view-state",
      subject: "5 ListLens, incremental",
      operations: updates,
      repetitions: 1,
      time: incremental,
      extras: [
        ("p99_ns_per_op", .double(incrementalP99)), ("entities", .int(entities)),
        ("lenses", .int(lenses.count)), ("target_ns_per_op", .double(targetNanoseconds)),
        ("target_met", .bool(incremental.median <= targetNanoseconds)),
      ],
      comment: "p99 \(formatted(incrementalP99, digits: 0)) ns"))
  figure.rows.append(
    Row(
      benchmark: "view-state",
      subject: "5 ListLens, delivery only",
      operations: updates,
      repetitions: 1,
      time: delivery,
      extras: [
        ("p99_ns_per_op", .double(deliveryP99)), ("entities", .int(entities)),
        ("lenses", .int(lenses.count)), ("target_ns_per_op", .double(targetNanoseconds)),
        ("target_met", .bool(delivery.median <= targetNanoseconds)),
      ],
      comment: "p99 \(formatted(deliveryP99, digits: 0)) ns"))
  figure.rows.append(
    Row(
      benchmark: "view-state",
      subject: "model.write alone, no observers",
      operations: updates,
      repetitions: 1,
      time: bare,
      extras: [("p99_ns_per_op", .double(bareP99)), ("entities", .int(entities))],
      comment: "p99 \(formatted(bareP99, digits: 0)) ns"))
  figure.rows.append(
    Row(
      benchmark: "view-state",
      subject: "5 lists rebuilt from scratch",
      operations: rebuilds,
      repetitions: 1,
      time: rebuild,
      extras: [
        ("p99_ns_per_op", .double(rebuildP99)), ("entities", .int(entities)),
        ("lenses", .int(rebuilding.count)), ("ratio_to_incremental", .double(ratio)),
        ("target_ratio_to_incremental", .double(targetRatio)),
        ("target_met", .bool(ratio >= targetRatio)),
      ],
      comment: "\(ratioText(ratio)) the incremental median"))
  figure.notes.append(
    "target: incremental median ≤ \(formatted(targetNanoseconds / 1_000, digits: 0)) µs: "
      + (incremental.median <= targetNanoseconds ? "met" : "MISSED")
      + " (\(formatted(incremental.median / 1_000, digits: 2)) µs, p99"
      + " \(formatted(incrementalP99 / 1_000, digits: 2)) µs)")
  figure.notes.append(
    "          the lenses' share (delivery only): "
      + (delivery.median <= targetNanoseconds ? "met" : "MISSED")
      + " (\(formatted(delivery.median / 1_000, digits: 2)) µs, p99"
      + " \(formatted(deliveryP99 / 1_000, digits: 2)) µs)")
  figure.notes.append(
    "target: rebuild ≥ \(formatted(targetRatio, digits: 0))× the incremental median: "
      + (ratio >= targetRatio ? "met" : "MISSED") + " (\(ratioText(ratio)))")
  figure.notes.append(
    "each row's samples are single updates (\(grouped(updates)) and \(grouped(rebuilds)));"
      + " lens updates seen when write returned: \(grouped(delivered))")
  if missed > 0 {
    figure.notes.append("WARNING: \(missed) list(s) had not applied a commit when write returned")
  }
  sink.count += delivered
  for lens in lenses { sink.total &+= lens.count }
  for list in rebuilding { sink.total &+= list.rows.count }
  return figure
}
