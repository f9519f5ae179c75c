// Subscription churn (figure 3): the cost of one observe + cancel pair while many other
// observers stay live, and how it grows from 1,000 to 100,000 live observers.
//
// Each subject has its own `StateSource<Int>` holding `live` observers for the whole
// figure; a timed run performs `churnPairs` pairs. The observer closure is created per
// observe (a closure literal capturing the sink, so its context is allocated each time),
// as user code does, and is replayed the current value (part of `observe`).
// - `StateSource<Int>`: observe, then `Lifetime.cancel()` at once. The newest slot is the
//   last one, so this is ObserverList's pop-the-last-slot path.
// - `StateSource<Int>, out-of-order cancel`: each pair observes a new observer and
//   cancels the one created 64 pairs earlier, which is never the last slot: cancels
//   leave holes that ObserverList compacts (O(live) work) once they make up half the
//   list, so the amortized cost of compaction shows up in the figure.
// - dictionary of closures (baseline): the plain hand-written pattern, observers in a
//   `[Int: (Int) -> Void]` keyed by a counter; observe inserts and replays, cancel removes
//   the key. Both are O(1), so this is what StateSource's pair is compared with.
// - Observation peer: `withObservationTracking` has no cancel; a registration ends only
//   when a property it read changes (or its object dies). The closest honest peer: with
//   `live` registrations on `model.value`, register one tracking of `model.other` and end
//   it by writing `model.other`, which fires that one registration only. Its ns include
//   a write and an onChange call, so compare its 100k/1k ratio (how the registrar scales
//   with live registrations), not its absolute time, with StateSource's.
// `ratio_100k_to_1k` on each 100k row is that subject's 100k median / its 1k median;
// `min_ratio_100k_to_1k` is the same ratio of the fastest runs, which is steadier on a
// noisy machine. `ratio_to_baseline` on a StateSource row is its median / the dictionary's
// median at the same number of live observers.

import AirframeBinding
import Observation

/// Registrations on an `@Observable` model that stay live, plus a one-off registration
/// that is ended by writing the property it tracked.
///
/// `@unchecked Sendable` for the same reason as `RetrackingObservers`: onChange must be
/// `@Sendable`, and everything (registration, writes, onChange) runs on the main thread.
final class ObservationChurn: @unchecked Sendable {
  let model = ObservedModel()
  private(set) var changes = 0
  private(set) var total = 0

  /// Registers `count` trackings of `model.value` that stay live (nothing writes it).
  func addLiveRegistrations(_ count: Int) {
    for _ in 0..<count {
      total &+= withObservationTracking {
        model.value
      } onChange: { [self] in
        changes += 1
      }
    }
  }

  /// Registers one tracking of `model.other`, then ends it by writing `model.other`.
  func registerAndEnd() {
    total &+= withObservationTracking {
      model.other
    } onChange: { [self] in
      changes += 1
    }
    model.other &+= 1
  }
}

/// The raw baseline: observers in a dictionary keyed by a counter.
///
/// Insert and remove are O(1) (hashing), as a careful hand-written source does; delivery
/// order would need the keys sorted, which this figure does not measure.
@MainActor
final class ClosureDictionarySource {
  var value = 0
  private var nextKey = 0
  private var observers: [Int: (Int) -> Void] = [:]

  /// Registers `observer`, replays the value, and returns the key that cancels it.
  ///
  /// A main-actor method, like `StateSource.observe` (see `Sink`).
  func observe(_ observer: @escaping (Int) -> Void) -> Int {
    nextKey += 1
    observers[nextKey] = observer
    observer(value)
    return nextKey
  }

  func cancel(_ key: Int) {
    observers.removeValue(forKey: key)
  }
}

/// Figure 3.
@MainActor
func churnFigure(number: Int, scale: Scale, sink: Sink) -> Figure {
  let pairs = scale.churnPairs
  let window = 64
  let sizes = [scale.churnSmallLive, scale.churnLargeLive]
  let churnSink = Sink()
  var keepAlive: [Lifetime] = []
  var subjects: [Subject] = []
  var observationPeers: [ObservationChurn] = []

  var sources: [StateSource<Int>] = []
  for _ in 0..<2 {
    for live in sizes {
      let source = StateSource(0)
      for _ in 0..<live {
        keepAlive.append(source.observe { [churnSink] in churnSink.total &+= $0 })
      }
      sources.append(source)
    }
  }

  for source in sources[0..<2] {
    subjects.append(
      Subject(name: "StateSource<Int>", operations: pairs) {
        for _ in 0..<pairs {
          let lifetime = source.observe { [churnSink] in churnSink.total &+= $0 }
          lifetime.cancel()
        }
      })
  }
  for source in sources[2..<4] {
    var ring: [Lifetime] = (0..<window).map { _ in
      source.observe { [churnSink] in churnSink.total &+= $0 }
    }
    var position = 0
    subjects.append(
      Subject(name: "StateSource<Int>, out-of-order cancel", operations: pairs) {
        for _ in 0..<pairs {
          let lifetime = source.observe { [churnSink] in churnSink.total &+= $0 }
          ring[position].cancel()
          ring[position] = lifetime
          position = position == window - 1 ? 0 : position + 1
        }
      })
  }
  var dictionaries: [ClosureDictionarySource] = []
  for live in sizes {
    let dictionary = ClosureDictionarySource()
    for _ in 0..<live {
      _ = dictionary.observe { [churnSink] in churnSink.total &+= $0 }
    }
    dictionaries.append(dictionary)
    subjects.append(
      Subject(name: "dictionary of closures (baseline)", operations: pairs) {
        for _ in 0..<pairs {
          let key = dictionary.observe { [churnSink] in churnSink.total &+= $0 }
          dictionary.cancel(key)
        }
      })
  }
  for live in sizes {
    let peer = ObservationChurn()
    peer.addLiveRegistrations(live)
    observationPeers.append(peer)
    subjects.append(
      Subject(name: "Observation (register, end by write)", operations: pairs) {
        for _ in 0..<pairs { peer.registerAndEnd() }
      })
  }

  let measured = measureInterleaved(
    subjects, repetitions: scale.repetitions, budgetSeconds: scale.budgetSeconds)
  let stats = measured.stats
  let runs = measured.repetitions + 1

  var figure = Figure(
    number: number,
    title: "subscribe + cancel with \(grouped(sizes[0])) and \(grouped(sizes[1])) observers"
      + " already live, \(grouped(pairs)) pairs per run",
    kind: .time(unit: "ns/pair"))
  var largeRatio: Double?
  for index in stride(from: 0, to: subjects.count, by: 2) {
    let ratio = stats[index + 1].median / stats[index].median
    let ratioOfMinimums = stats[index + 1].min / stats[index].min
    if index == 0 { largeRatio = ratio }
    for (offset, live) in sizes.enumerated() {
      let name = offset == 0 ? "churn-1k" : "churn-100k"
      var row = Row(
        benchmark: name,
        subject: subjects[index + offset].name + " @ \(grouped(live)) live",
        operations: pairs,
        repetitions: measured.repetitions,
        time: stats[index + offset],
        extras: [("live_observers", .int(live)), ("unit", .string("ns/(observe+cancel)"))])
      if offset == 1 {
        row.extras.append(("ratio_100k_to_1k", .double(ratio)))
        row.extras.append(("min_ratio_100k_to_1k", .double(ratioOfMinimums)))
        row.comment = "\(ratioText(ratio)) the 1k figure (\(ratioText(ratioOfMinimums)) by min)"
      }
      if index == 0, offset == 1 {
        row.extras.append(("target_ratio_100k_to_1k", .double(1.2)))
        row.extras.append(("target_met", .bool(ratio <= 1.2)))
      }
      figure.rows.append(row)
    }
  }
  // StateSource's rows against the dictionary's at the same number of live observers.
  let dictionaryRows = figure.rows.indices.filter {
    figure.rows[$0].subject.hasPrefix("dictionary")
  }
  for index in figure.rows.indices where figure.rows[index].subject.hasPrefix("StateSource") {
    let baseline = figure.rows[dictionaryRows[index % 2]].time
    let ratio = figure.rows[index].time.median / baseline.median
    figure.rows[index].ratioToBaseline = ratio
    figure.rows[index].extras.append(
      ("min_ratio_to_baseline", .double(figure.rows[index].time.min / baseline.min)))
    let versus = "\(ratioText(ratio)) the dictionary"
    figure.rows[index].comment =
      figure.rows[index].comment.isEmpty ? versus : versus + "; " + figure.rows[index].comment
  }
  if let largeRatio {
    figure.notes.append(
      "target: StateSource<Int> at \(grouped(sizes[1])) live within 1.2× of \(grouped(sizes[0]))"
        + " live: " + (largeRatio <= 1.2 ? "met" : "MISSED") + " (\(ratioText(largeRatio)))")
  }
  figure.notes.append(
    "Observation has no cancel: its rows register one tracking and end it by writing the")
  figure.notes.append(
    "tracked property (a write + onChange); compare its ratio, not its ns, with StateSource.")

  if let note = measured.note { figure.notes.append(note) }
  let expectedChanges = runs * pairs
  for (peer, live) in zip(observationPeers, sizes) where peer.changes != expectedChanges {
    figure.notes.append(
      "WARNING: Observation peer @ \(grouped(live)) live saw \(grouped(peer.changes)) onChange"
        + " calls, expected \(grouped(expectedChanges))")
  }

  sink.total &+= churnSink.total
  for peer in observationPeers {
    sink.total &+= peer.total
    sink.count += peer.changes
  }
  withExtendedLifetime((keepAlive, dictionaries)) {}
  return figure
}
