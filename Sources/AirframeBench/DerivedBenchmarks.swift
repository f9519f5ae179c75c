// Derived chain (figure 4): the cost of a write that flows through
// `source.map(f).removingDuplicates().map(g)` to one observer at the end.
//
// f halves the value (`$0 >> 1`, so every other write produces a repeat that
// deduplication suppresses) and g is a cheap arithmetic step (`$0 &* 3 &+ 1`); both are
// written as literals at each call, as `Sink` explains. The baseline does by hand what the
// chain does, through stored closures: store the value, call f, compare with the
// previous f result and stop if equal, call g, call the observer. Both subjects get the
// same distinct writes; the figure is ns per write. The two end observers must see the
// same number of values; a mismatch is printed as a warning.

import AirframeBinding

/// The hand-written chain: f, a duplicate check, g and the observer, through closures.
@MainActor
final class ClosureChain {
  var value: Int
  private var lastMapped: Int
  private let transform: (Int) -> Int
  private let finish: (Int) -> Int
  private let observer: (Int) -> Void

  init(
    _ value: Int,
    transform: @escaping (Int) -> Int,
    finish: @escaping (Int) -> Int,
    observer: @escaping (Int) -> Void
  ) {
    self.value = value
    self.transform = transform
    self.finish = finish
    self.observer = observer
    self.lastMapped = transform(value)
  }

  func set(_ newValue: Int) {
    value = newValue
    let mapped = transform(newValue)
    guard mapped != lastMapped else { return }
    lastMapped = mapped
    observer(finish(mapped))
  }
}

/// Figure 4.
@MainActor
func derivedChainFigure(number: Int, scale: Scale, sink: Sink) -> Figure {
  let writes = scale.derivedWrites

  let chainSink = Sink()
  let source = StateSource(0)
  let mapped = source.map { $0 >> 1 }
  let distinct = mapped.removingDuplicates()
  let finished = distinct.map { $0 &* 3 &+ 1 }
  let lifetime = finished.observe { [chainSink] value in
    chainSink.total &+= value
    chainSink.count += 1
  }
  let chainReplays = chainSink.count
  var chainNext = 0

  let baselineSink = Sink()
  let chain = ClosureChain(
    0,
    transform: { $0 >> 1 },
    finish: { $0 &* 3 &+ 1 },
    observer: { [baselineSink] value in
      baselineSink.total &+= value
      baselineSink.count += 1
    })
  var baselineNext = 0

  let subjects = [
    Subject(name: "DerivedState chain", operations: writes) {
      for _ in 0..<writes {
        chainNext += 1
        source.set(chainNext)
      }
    },
    Subject(name: "closure chain (baseline)", operations: writes) {
      for _ in 0..<writes {
        baselineNext += 1
        chain.set(baselineNext)
      }
    },
  ]
  let measured = measureInterleaved(
    subjects, repetitions: scale.repetitions, budgetSeconds: scale.budgetSeconds)
  let stats = measured.stats

  var figure = Figure(
    number: number,
    title: "derived chain: source.map(f).removingDuplicates().map(g), 1 observer,"
      + " \(grouped(writes)) writes",
    kind: .time(unit: "ns/write"))
  let ratio = stats[0].median / stats[1].median
  for (index, subject) in subjects.enumerated() {
    let subjectRatio = stats[index].median / stats[1].median
    let ratioOfMinimums = stats[index].min / stats[1].min
    figure.rows.append(
      Row(
        benchmark: "derived-chain",
        subject: subject.name,
        operations: writes,
        repetitions: measured.repetitions,
        time: stats[index],
        ratioToBaseline: subjectRatio,
        extras: [
          ("min_ratio_to_baseline", .double(ratioOfMinimums)), ("writes", .int(writes)),
          ("unit", .string("ns/write")),
        ],
        comment: index == 1
          ? "baseline"
          : "\(ratioText(subjectRatio)) baseline (\(ratioText(ratioOfMinimums)) by min)"))
  }
  figure.notes.append("no target was set for this figure; ratio \(ratioText(ratio)) baseline")
  if let note = measured.note { figure.notes.append(note) }
  let delivered = chainSink.count - chainReplays
  if delivered != baselineSink.count {
    figure.notes.append(
      "WARNING: the chain delivered \(grouped(delivered)) values, the baseline"
        + " \(grouped(baselineSink.count))")
  }

  sink.total &+= chainSink.total &+ baselineSink.total
  sink.count += chainSink.count + baselineSink.count
  withExtendedLifetime((lifetime, mapped, distinct, finished)) {}
  return figure
}
