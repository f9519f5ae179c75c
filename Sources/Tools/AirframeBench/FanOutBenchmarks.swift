// Fan-out and single-observer writes (figures 1 and 2): the cost of delivering a write.
//
// Three subjects receive the same writes of distinct Int values (so no duplicate is
// ever suppressed) and do the same work per delivery (add the value to a `Sink`, count):
// - `StateSource<Int>`: Airframe, with observers registered through `observe`.
// - closure array: the fair raw baseline, a final class that stores the value and then
//   calls a `[(Int) -> Void]` in a loop.
// - Observation: an `@Observable` model whose observers each re-track synchronously from
//   onChange (`withObservationTracking` fires once per registration), so every write
//   reaches every observer. One delivery is one onChange call. Observation reports the
//   change before storing it (willSet), so the re-tracking read sees the old value.
// Figure 1: 1 source, `fanOutObservers` observers, `fanOutWrites` writes, reported in ns
// per delivery (total time / (writes × observers)). Figure 2: 1 observer,
// `singleWrites` writes, in ns per write. Each subject's delivery count is checked
// against writes × observers; a mismatch is printed as a warning.

import AirframeBinding
import Observation

/// The fair raw baseline: store the value, then call every observer in a loop.
///
/// This is the plain hand-written pattern, with its usual cost: an `Array` keeps its
/// closures at the generic element abstraction, so each element is the observer wrapped
/// in a reabstraction thunk (one more small allocation per observer, one more call per
/// delivery).
@MainActor
final class ClosureArraySource {
  var value: Int
  var observers: [(Int) -> Void] = []

  init(_ value: Int) { self.value = value }

  /// Appends `observer`; a main-actor method, like `StateSource.observe` (see `Sink`).
  func observe(_ observer: @escaping (Int) -> Void) {
    observers.append(observer)
  }

  func set(_ newValue: Int) {
    value = newValue
    for observer in observers { observer(newValue) }
  }
}

/// The model the Observation subjects observe.
@Observable
final class ObservedModel {
  var value = 0
  /// A second property, written only by the churn figure to end one registration.
  var other = 0
}

/// Observers of an `@Observable` model that re-register from onChange, so that they see
/// every write, the way an `Observations` loop or a SwiftUI view keeps tracking.
///
/// `@unchecked Sendable` because `withObservationTracking` requires a `@Sendable`
/// onChange, and onChange captures this object. That is safe here: registration, every
/// write that fires onChange, and onChange itself (Observation calls it synchronously on
/// the writing thread) all happen on the main thread, so nothing is accessed
/// concurrently.
final class RetrackingObservers: @unchecked Sendable {
  let model = ObservedModel()
  /// The number of onChange calls.
  private(set) var deliveries = 0
  /// The sum of the values read while re-tracking.
  private(set) var total = 0

  /// Registers `count` observers, each tracking `model.value`.
  func addObservers(_ count: Int) {
    for _ in 0..<count { track() }
  }

  private func track() {
    let read = withObservationTracking {
      model.value
    } onChange: { [self] in
      deliveries += 1
      track()
    }
    total &+= read
  }
}

/// Figures 1 and 2: the same three subjects with `observers` observers and `writes` writes.
@MainActor
func writeDeliveryFigure(
  number: Int,
  benchmark: String,
  title: String,
  observers: Int,
  writes: Int,
  scale: Scale,
  sink: Sink
) -> Figure {
  let perDelivery = observers > 1
  let operations = perDelivery ? writes * observers : writes

  // Airframe. Its value is never read, exactly as in a plain observe/set program.
  let sourceSink = Sink()
  let source = StateSource(0)
  var lifetimes: [Lifetime] = []
  for _ in 0..<observers {
    lifetimes.append(
      source.observe { [sourceSink] value in
        sourceSink.total &+= value
        sourceSink.count += 1
      })
  }
  let sourceReplays = sourceSink.count
  var sourceNext = 0

  // The closure-array baseline.
  let arraySink = Sink()
  let array = ClosureArraySource(0)
  for _ in 0..<observers {
    array.observe { [arraySink] value in
      arraySink.total &+= value
      arraySink.count += 1
    }
  }
  var arrayNext = 0

  // Observation.
  let tracking = RetrackingObservers()
  tracking.addObservers(observers)
  var trackingNext = 0

  let subjects = [
    Subject(name: "StateSource<Int>", operations: operations) {
      for _ in 0..<writes {
        sourceNext += 1
        source.set(sourceNext)
      }
    },
    Subject(name: "closure array (baseline)", operations: operations) {
      for _ in 0..<writes {
        arrayNext += 1
        array.set(arrayNext)
      }
    },
    Subject(name: "Observation (re-tracking)", operations: operations) {
      for _ in 0..<writes {
        trackingNext += 1
        tracking.model.value = trackingNext
      }
    },
  ]
  let measured = measureInterleaved(
    subjects, repetitions: scale.repetitions, budgetSeconds: scale.budgetSeconds)
  let stats = measured.stats
  let runs = measured.repetitions + 1

  let unit = perDelivery ? "ns/delivery" : "ns/write"
  var figure = Figure(number: number, title: title, kind: .time(unit: unit))
  let expected = runs * writes * observers
  let counts = [sourceSink.count - sourceReplays, arraySink.count, tracking.deliveries]
  for (subject, count) in zip(subjects, counts) where count != expected {
    figure.notes.append(
      "WARNING: \(subject.name) delivered \(grouped(count)) times, expected \(grouped(expected))"
        + " (\(runs) runs × \(grouped(writes)) writes × \(grouped(observers)) observers)")
  }

  let baseline = stats[1].median
  for (index, subject) in subjects.enumerated() {
    let ratio = stats[index].median / baseline
    let ratioOfMinimums = stats[index].min / stats[1].min
    figure.rows.append(
      Row(
        benchmark: benchmark,
        subject: subject.name,
        operations: operations,
        repetitions: measured.repetitions,
        time: stats[index],
        ratioToBaseline: ratio,
        extras: [
          ("min_ratio_to_baseline", .double(ratioOfMinimums)),
          ("observers", .int(observers)), ("writes", .int(writes)), ("unit", .string(unit)),
        ],
        comment: index == 1
          ? "baseline" : "\(ratioText(ratio)) baseline (\(ratioText(ratioOfMinimums)) by min)"))
  }
  let ratio = stats[0].median / baseline
  figure.rows[0].extras.append(("target_ratio_to_baseline", .double(1.5)))
  figure.rows[0].extras.append(("target_met", .bool(ratio <= 1.5)))
  figure.notes.insert(
    "target: StateSource<Int> within 1.5× of the closure array: "
      + (ratio <= 1.5 ? "met" : "MISSED") + " (\(ratioText(ratio)))",
    at: 0)

  if let note = measured.note { figure.notes.append(note) }

  for subjectSink in [sourceSink, arraySink] {
    sink.total &+= subjectSink.total
    sink.count += subjectSink.count
  }
  sink.total &+= tracking.total
  sink.count += tracking.deliveries
  withExtendedLifetime(lifetimes) {}
  return figure
}
