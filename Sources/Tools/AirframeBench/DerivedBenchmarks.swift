// Derived values (figure 4): the cost of a write that flows through derived values to one
// observer at the end, in two shapes.
//
// - Chain: `source.map(f).removingDuplicates().map(g)`. f halves the value (`$0 >> 1`, so
//   every other write produces a repeat that deduplication suppresses) and g is a cheap
//   arithmetic step (`$0 &* 3 &+ 1`). The baseline does by hand what the chain does,
//   through stored closures: store the value, call f, compare with the previous f result
//   and stop if equal, call g, call the observer.
// - Diamond: `DerivedState(combining: source.map(×2), source.map(×3)) { $0 &+ $1 }`, whose
//   two inputs derive from one source: the shape that needs glitch-free propagation (one
//   recompute and one delivery per write, both inputs from that write). The baseline
//   computes both branches, compares each with its previous result, combines, compares,
//   and calls the observer. Observation's row is one observer re-tracking a read of the
//   same combination of an `@Observable` property (Observation is lazy: nothing to
//   glitch); it takes a tenth of the writes, since each costs microseconds.
//
// Transforms are written as literals at each call, as `Sink` explains, and each subject's
// loop is written out for the same reason: a shared helper taking the write as a closure
// would add a call per write to every subject. Every subject gets
// distinct writes; the figure is ns per write. The end observers of a shape must see the
// same number of values; a mismatch is printed as a warning.

import AirframeBinding

/// Figure 4.
@MainActor
func derivedChainFigure(number: Int, scale: Scale, sink: Sink) -> Figure {
  let writes = scale.derivedWrites
  let observationWrites = max(writes / 10, 1)

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

  let diamondSink = Sink()
  let diamondSource = StateSource(0)
  let doubled = diamondSource.map { $0 &* 2 }
  let tripled = diamondSource.map { $0 &* 3 }
  let combined = DerivedState(combining: doubled, tripled) { $0 &+ $1 }
  let diamondLifetime = combined.observe { [diamondSink] value in
    diamondSink.total &+= value
    diamondSink.count += 1
  }
  let diamondReplays = diamondSink.count
  var diamondNext = 0

  let closureDiamondSink = Sink()
  let closureDiamond = ClosureDiamond(
    0,
    left: { $0 &* 2 },
    right: { $0 &* 3 },
    combine: { $0 &+ $1 },
    observer: { [closureDiamondSink] value in
      closureDiamondSink.total &+= value
      closureDiamondSink.count += 1
    })
  var closureDiamondNext = 0

  let observed = RetrackingDiamond()
  var observedNext = 0

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
    Subject(name: "DerivedState diamond (glitch-free)", operations: writes) {
      for _ in 0..<writes {
        diamondNext += 1
        diamondSource.set(diamondNext)
      }
    },
    Subject(name: "closure diamond (baseline)", operations: writes) {
      for _ in 0..<writes {
        closureDiamondNext += 1
        closureDiamond.set(closureDiamondNext)
      }
    },
    Subject(name: "Observation diamond (re-tracking)", operations: observationWrites) {
      for _ in 0..<observationWrites {
        observedNext += 1
        observed.model.value = observedNext
      }
    },
  ]
  let measured = measureInterleaved(
    subjects, repetitions: scale.repetitions, budgetSeconds: scale.budgetSeconds)
  let stats = measured.stats

  var figure = Figure(
    number: number,
    title: "derived chain source.map(f).removingDuplicates().map(g) and diamond"
      + " (source.map(×2), source.map(×3)) combined, 1 observer, \(grouped(writes)) writes",
    kind: .time(unit: "ns/write"))
  // Each row: its benchmark name and the subject it is compared with.
  let shapes: [(benchmark: String, baseline: Int)] = [
    ("derived-chain", 1), ("derived-chain", 1), ("derived-diamond", 3), ("derived-diamond", 3),
    ("derived-diamond", 3),
  ]
  for (index, subject) in subjects.enumerated() {
    let baseline = shapes[index].baseline
    let ratio = stats[index].median / stats[baseline].median
    let ratioOfMinimums = stats[index].min / stats[baseline].min
    let baselineName = baseline == 1 ? "the closure chain" : "the closure diamond"
    figure.rows.append(
      Row(
        benchmark: shapes[index].benchmark,
        subject: subject.name,
        operations: subject.operations,
        repetitions: measured.repetitions,
        time: stats[index],
        ratioToBaseline: ratio,
        extras: [
          ("min_ratio_to_baseline", .double(ratioOfMinimums)),
          ("writes", .int(subject.operations)), ("unit", .string("ns/write")),
        ],
        comment: index == baseline
          ? "baseline"
          : "\(ratioText(ratio)) \(baselineName) (\(ratioText(ratioOfMinimums)) by min)"))
  }
  let chainRatio = stats[0].median / stats[1].median
  figure.rows[0].extras.append(("target_ratio_to_baseline", .double(10)))
  figure.rows[0].extras.append(("target_met", .bool(chainRatio <= 10)))
  figure.notes.append(
    "target: the DerivedState chain within 10× the closure chain: "
      + (chainRatio <= 10 ? "met" : "MISSED") + " (\(ratioText(chainRatio)))")
  figure.notes.append(
    "Observation's diamond took \(grouped(observationWrites)) writes a run; it reads the"
      + " value before the write (willSet), so it has nothing to glitch.")
  if let note = measured.note { figure.notes.append(note) }
  let runs = measured.repetitions + 1
  let counts: [(String, Int, Int)] = [
    ("the chain", chainSink.count - chainReplays, baselineSink.count),
    ("the diamond", diamondSink.count - diamondReplays, closureDiamondSink.count),
    ("Observation's diamond", observed.deliveries, runs * observationWrites),
  ]
  for (name, delivered, expected) in counts where delivered != expected {
    figure.notes.append(
      "WARNING: \(name) delivered \(grouped(delivered)) values, expected"
        + " \(grouped(expected))")
  }
  if closureDiamondSink.count != runs * writes {
    figure.notes.append(
      "WARNING: the closure diamond delivered \(grouped(closureDiamondSink.count)) values,"
        + " expected one per write (\(grouped(runs * writes)))")
  }

  for subjectSink in [chainSink, baselineSink, diamondSink, closureDiamondSink] {
    sink.total &+= subjectSink.total
    sink.count += subjectSink.count
  }
  sink.total &+= observed.total
  sink.count += observed.deliveries
  withExtendedLifetime((lifetime, mapped, distinct, finished)) {}
  withExtendedLifetime((diamondLifetime, doubled, tripled, combined)) {}
  return figure
}
