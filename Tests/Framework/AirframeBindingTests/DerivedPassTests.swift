import AirframeBinding
import AirframeTesting
import Testing

/// What happens during a pass of the derived graph: writes, observers added and
/// cancelled, derived values released, renders through a binder, and chains that fuse
/// and un-fuse as stages gain observers and dependents.
@Suite(.noLiveBindings)
@MainActor
struct DerivedPassTests {
  /// A source, two values derived from it, and their combination.
  @MainActor
  private struct Diamond {
    let source = StateSource(1)
    let doubled: DerivedState<Int>
    let tripled: DerivedState<Int>
    let pair: DerivedState<String>

    init() {
      doubled = source.map { $0 * 2 }
      tripled = source.map { $0 * 3 }
      pair = DerivedState(combining: doubled, tripled) { "\($0),\($1)" }
    }
  }

  @Test func aWriteDuringThePassIsDeliveredAfterItToEveryObserverInTheSameOrder() {
    let diamond = Diamond()
    var first: [String] = []
    var second: [String] = []
    var sourceSeen: [Int] = []
    let bag = LifetimeBag()
    diamond.pair.observe { pair in
      first.append(pair)
      // A write from the first observer: queued until every observer has seen "4,6".
      if pair == "4,6" { diamond.source.set(3) }
    }.store(in: bag)
    diamond.pair.observe { second.append($0) }.store(in: bag)
    diamond.source.observe { sourceSeen.append($0) }.store(in: bag)
    diamond.source.set(2)
    #expect(first == ["2,3", "4,6", "6,9"])
    #expect(second == first)
    #expect(sourceSeen == [1, 2, 3])
    #expect(diamond.source.value == 3)
    bag.cancelAll()
  }

  @Test func aWriteDuringThePassDoesNotChangeWhatTheRestOfThePassReads() {
    let diamond = Diamond()
    var readings: [String] = []
    let bag = LifetimeBag()
    diamond.doubled.observe { doubled in
      if doubled == 4 { diamond.source.set(10) }
    }.store(in: bag)
    diamond.pair.observe { pair in
      readings.append("\(pair) source \(diamond.source.value)")
    }.store(in: bag)
    readings.removeAll()
    diamond.source.set(2)
    #expect(readings == ["4,6 source 2", "20,30 source 10"])
    bag.cancelAll()
  }

  @Test func writesToSeveralSourcesDuringAPassApplyInTheOrderWritten() {
    let left = StateSource("a")
    let right = StateSource("x")
    let both = DerivedState(combining: left, right) { $0 + $1 }
    let recorder = ValueRecorder(both)
    let trigger = left.observe { value in
      guard value == "b" else { return }
      right.set("y")
      left.set("c")
      right.set("z")
      // Queued: nothing has changed yet.
      #expect(left.value == "b")
      #expect(right.value == "x")
      #expect(left.isDelivering)
      #expect(right.isDelivering)
    }
    left.set("b")
    #expect(recorder.values == ["ax", "bx", "by", "cy", "cz"])
    trigger.cancel()
  }

  @Test func updateDuringAPassChangesTheLatestQueuedWrite() {
    let source = StateSource(0)
    let doubled = source.map { $0 * 2 }
    let recorder = ValueRecorder(doubled)
    let bumper = doubled.observe { value in
      guard value == 2 else { return }
      source.update { $0 += 10 }
      source.update { $0 += 100 }
    }
    source.set(1)
    #expect(recorder.values == [0, 2, 22, 222])
    bumper.cancel()
  }

  @Test func anObserverCancelledDuringThePassIsNotCalled() {
    let diamond = Diamond()
    var pairSeen: [String] = []
    var pairLifetime: Lifetime?
    pairLifetime = diamond.pair.observe { pairSeen.append($0) }
    // Delivered before `pair` in every pass: `doubled` is one of its inputs.
    let canceller = diamond.doubled.observe { value in
      if value == 4 { pairLifetime?.cancel() }
    }
    diamond.source.set(2)
    diamond.source.set(3)
    #expect(pairSeen == ["2,3"])
    canceller.cancel()
  }

  @Test func aDerivedValueReleasedDuringThePassIsNotDeliveredOrRecomputed() {
    let source = StateSource(1)
    let doubled = source.map { $0 * 2 }
    var tripledRuns = 0
    var tripled: DerivedState<Int>? = source.map { value -> Int in
      tripledRuns += 1
      return value * 3
    }
    var pair: DerivedState<String>? = DerivedState(combining: doubled, tripled!) {
      "\($0),\($1)"
    }
    var pairSeen: [String] = []
    let pairLifetime = pair?.observe { pairSeen.append($0) }
    let releaser = source.observe { value in
      guard value == 2 else { return }
      pair = nil
      tripled = nil
    }
    source.set(2)  // settled before the release: computed, but not delivered
    source.set(3)
    #expect(pairSeen == ["2,3"])
    #expect(tripledRuns == 2)
    #expect(pair == nil)
    releaser.cancel()
    pairLifetime?.cancel()
  }

  @Test func anObserverAddedDuringThePassGetsTheSettledValueOnce() {
    let diamond = Diamond()
    // An observer already there: `pair`'s delivery is reserved before anyone hears of
    // the write, and the one added during the pass comes after that reservation.
    let existing = ValueRecorder(diamond.pair)
    var late: ValueRecorder<String>?
    let adder = diamond.source.observe { value in
      if value == 2 { late = ValueRecorder(diamond.pair) }
    }
    diamond.source.set(2)
    diamond.source.set(3)
    #expect(late?.values == ["4,6", "6,9"])
    #expect(existing.values == ["2,3", "4,6", "6,9"])
    adder.cancel()
    late?.cancel()
  }

  @Test func aBinderRendersEachConsistentCombinationOnce() {
    let diamond = Diamond()
    let label = LabelControl()
    var rendered: [String] = []
    let binder = Binder()
    binder.bind { connect in
      connect.render(diamond.pair) { pair in
        label.render(pair)
        rendered.append(pair)
      }
    }
    for value in 2...4 { diamond.source.set(value) }
    #expect(rendered == ["2,3", "4,6", "6,9", "8,12"])
    #expect(label.renderCount == 4)
    binder.cancel()
    diamond.source.set(5)
    #expect(label.text == "8,12")
  }

  @Test func aBinderCancelledByAnEarlierRenderOfThePassRendersNothingMore() {
    let diamond = Diamond()
    let pairLabel = LabelControl()
    let doubledLabel = LabelControl()
    let binder = Binder()
    binder.bind { connect in
      connect.render(diamond.doubled) { value in
        doubledLabel.render("\(value)")
        if value == 6 { binder.cancel() }
      }
      connect.render(diamond.pair) { pairLabel.render($0) }
    }
    diamond.source.set(2)
    diamond.source.set(3)
    #expect(doubledLabel.text == "6")
    #expect(pairLabel.text == "4,6")
    #expect(pairLabel.renderCount == 2)
  }

  @Test func aChainKeepsItsContractAsStagesGainAndLoseObserversAndDependents() {
    let source = StateSource(0)
    var firstRuns = 0
    let halved = source.map { value -> Int in
      firstRuns += 1
      return value / 2
    }
    let distinct = halved.removingDuplicates()
    let labelled = distinct.map { "#\($0)" }
    let end = ValueRecorder(labelled)
    source.set(1)  // halved stays 0: the chain stops there
    source.set(2)
    // A second observer on a middle stage: replayed, then delivered with the chain.
    let middle = ValueRecorder(distinct)
    source.set(4)
    // A second dependent on a middle stage un-fuses it: both follow it.
    var branch: DerivedState<String>? = distinct.map { "branch \($0)" }
    let branchValues = ValueRecorder(branch!)
    source.set(6)
    branchValues.cancel()
    branch = nil
    source.set(8)  // fused again
    middle.cancel()
    source.set(10)
    #expect(end.values == ["#0", "#1", "#2", "#3", "#4", "#5"])
    #expect(middle.values == [1, 2, 3, 4])
    #expect(branchValues.values == ["branch 2", "branch 3"])
    #expect(firstRuns == 7)
  }

  @Test func aProjectionOutsideTheGraphIsFollowedByObservingIt() {
    let source = StateSource(2)
    let outside = Outside(source)
    let plusOne = outside.map { $0 + 1 }
    let both = DerivedState(combining: source, outside) { "\($0)/\($1)" }
    let recorder = ValueRecorder(plusOne)
    let bothValues = ValueRecorder(both)
    source.set(3)
    #expect(recorder.values == [3, 4])
    #expect(bothValues.values.last == "3/3")
  }
}

/// A projection the derived graph cannot see into: it forwards a source's values.
@MainActor
private final class Outside: StateProjection {
  private let source: StateSource<Int>
  init(_ source: StateSource<Int>) { self.source = source }
  var value: Int { source.value }
  func observe(_ observer: @escaping (Int) -> Void) -> Lifetime { source.observe(observer) }
}
