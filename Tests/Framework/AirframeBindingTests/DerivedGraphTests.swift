import AirframeBinding
import AirframeTesting
import Testing

/// Glitch-freedom: a write reaches derived values in dependency order, so each one is
/// recomputed once, from inputs of the same write, and delivered once per write.
@Suite(.noLiveBindings)
@MainActor
struct DerivedGraphTests {
  @Test func aDiamondDeliversOneConsistentCombinationPerWrite() {
    let source = StateSource(1)
    let doubled = source.map { $0 * 2 }
    let tripled = source.map { $0 * 3 }
    var runs = 0
    let pair = DerivedState(combining: doubled, tripled) { left, right -> String in
      runs += 1
      return "\(left),\(right)"
    }
    let recorder = ValueRecorder(pair)
    for value in 2...5 { source.set(value) }
    #expect(recorder.values == ["2,3", "4,6", "6,9", "8,12", "10,15"])
    #expect(runs == 5)
  }

  @Test func aTransformNeverSeesInputsFromDifferentWrites() {
    let source = StateSource(0)
    let plusOne = source.map { $0 + 1 }
    let timesTen = source.map { $0 * 10 }
    var inconsistent: [String] = []
    let checked = DerivedState(combining: source, plusOne, timesTen) { base, next, tens in
      if next != base + 1 || tens != base * 10 { inconsistent.append("\(base) \(next) \(tens)") }
      return base
    }
    let recorder = ValueRecorder(checked)
    for value in 1...20 { source.set(value) }
    #expect(inconsistent.isEmpty)
    #expect(recorder.values == Array(0...20))
  }

  /// s → a → b → c (three levels) and s → d (one level), combined: uneven depths.
  @Test func unevenDepthsSettleBeforeTheirCombination() {
    let source = StateSource(1)
    let a = source.map { $0 + 1 }
    let b = a.map { $0 * 2 }
    let c = b.map { $0 - 1 }
    let d = source.map { $0 * 100 }
    var seen: [String] = []
    let combined = DerivedState(combining: c, d, source) { c, d, s -> String in
      seen.append("\(c) \(d) \(s)")
      return "\(c)/\(d)"
    }
    let recorder = ValueRecorder(combined)
    source.set(2)
    source.set(3)
    #expect(recorder.values == ["3/100", "5/200", "7/300"])
    #expect(seen == ["3 100 1", "5 200 2", "7 300 3"])
  }

  /// A diamond of diamonds: s → (x, y) → xy; xy → (p, q) → pq; and pq with s again.
  @Test func diamondsStackedOnDiamondsStayConsistent() {
    let source = StateSource(1)
    let x = source.map { $0 + 1 }
    let y = source.map { $0 * 2 }
    let xy = DerivedState(combining: x, y) { $0 + $1 }  // 3s + 1
    let p = xy.map { $0 * 2 }
    let q = xy.map { $0 + 7 }
    let pq = DerivedState(combining: p, q, x) { $0 - $1 - $2 }  // (3s+1) - 7 - (s+1)
    var recomputes = 0
    let last = DerivedState(combining: pq, source) { pq, s -> Int in
      recomputes += 1
      #expect(pq == 2 * s - 7)
      return pq - 2 * s
    }
    let recorder = ValueRecorder(last)
    let pqRecorder = ValueRecorder(pq)
    for value in 2...6 { source.set(value) }
    #expect(recorder.values == [-7])
    #expect(pqRecorder.values == [-5, -3, -1, 1, 3, 5])
    #expect(recomputes == 6)
  }

  @Test func duplicatesStopABranchAndTheCombinationIsRecomputedOnlyWhenAnInputChanged() {
    let source = StateSource(0)
    let isOdd = source.map { !$0.isMultiple(of: 2) }
    let half = source.map { $0 / 2 }
    var runs = 0
    let both = DerivedState(combining: isOdd, half) { odd, half -> String in
      runs += 1
      return "\(half)\(odd ? "+" : "")"
    }
    let recorder = ValueRecorder(both)
    source.set(1)  // only isOdd changes
    source.set(2)  // both change
    source.set(3)  // only isOdd changes
    #expect(recorder.values == ["0", "0+", "1", "1+"])
    #expect(runs == 4)
    let tens = source.map { $0 / 10 }
    let parity = source.map { $0 % 2 }
    var tensRuns = 0
    let tensAndParity = DerivedState(combining: tens, parity) { tens, parity -> Int in
      tensRuns += 1
      return tens * 2 + parity
    }
    let quiet = ValueRecorder(tensAndParity)
    source.set(5)  // 0, 1: neither input changes
    #expect(tensRuns == 1)
    #expect(quiet.values == [1])
  }

  @Test func anEqualCombinationIsNotDelivered() {
    let source = StateSource(1)
    let negated = source.map { -$0 }
    let sum = DerivedState(combining: source, negated) { $0 + $1 }
    let recorder = ValueRecorder(sum)
    source.set(2)
    source.set(3)
    #expect(recorder.values == [0])
  }

  @Test func everyDerivedValueHasSettledBeforeAnyObserverRuns() {
    let source = StateSource(1)
    var readings: [String] = []
    var read: () -> String = { "" }
    // Registered before the derived values exist, so it is the source's first observer.
    let early = source.observe { value in readings.append("source \(value): \(read())") }
    let doubled = source.map { $0 * 2 }
    let pair = DerivedState(combining: source, doubled) { "\($0),\($1)" }
    read = { "doubled \(doubled.value), pair \(pair.value)" }
    let late = doubled.observe { value in readings.append("doubled \(value): \(read())") }
    readings.removeAll()
    source.set(2)
    #expect(
      readings == [
        "source 2: doubled 4, pair 2,4", "doubled 4: doubled 4, pair 2,4",
      ])
    early.cancel()
    late.cancel()
  }

  @Test func theSourceIsDeliveredFirstThenEachDerivedValueAfterItsInputs() {
    let source = StateSource(1)
    let bag = LifetimeBag()
    var calls: [String] = []
    let a = source.map { $0 + 1 }
    let b = a.map { $0 * 2 }
    let c = DerivedState(combining: a, b) { $0 + $1 }
    c.observe { calls.append("c\($0)") }.store(in: bag)
    b.observe { calls.append("b\($0)") }.store(in: bag)
    source.observe { calls.append("s\($0)") }.store(in: bag)
    a.observe { calls.append("a\($0)") }.store(in: bag)
    calls.removeAll()
    source.set(2)
    #expect(calls == ["s2", "a3", "b6", "c9"])
    bag.cancelAll()
  }

  @Test func aSourceUsedTwiceByOneCombinationCountsOnce() {
    let source = StateSource(1)
    var runs = 0
    let square = DerivedState(combining: source, source) { left, right -> Int in
      runs += 1
      return left * right
    }
    let recorder = ValueRecorder(square)
    source.set(3)
    #expect(recorder.values == [1, 9])
    #expect(runs == 2)
  }

  @Test func anAsyncProjectionJoinsTheGraph() async {
    let scheduler = TestScheduler()
    let phase = AsyncProjection<Int>(scheduler: scheduler)
    let loaded = phase.map { $0.latestValue ?? 0 }
    let isLoading = phase.map { if case .loading = $0 { true } else { false } }
    let status = DerivedState(combining: loaded, isLoading) { "\($0)\($1 ? "…" : "")" }
    let recorder = ValueRecorder(status)
    phase.load { 7 }
    await scheduler.runUntilIdle()
    #expect(recorder.values == ["0", "0…", "7"])
  }
}
