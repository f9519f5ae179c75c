import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct DerivedStateTests {
  @Test func mapReplaysTheDerivedValue() {
    let count = StateSource(3)
    let label = count.map { "\($0) notes" }
    let recorder = ValueRecorder(label)
    #expect(recorder.values == ["3 notes"])
    count.set(4)
    #expect(recorder.values == ["3 notes", "4 notes"])
    #expect(label.value == "4 notes")
  }

  @Test func transformRunsOnlyWhenAnInputChanges() {
    let count = StateSource(1)
    var runs = 0
    let doubled = count.map { value -> Int in
      runs += 1
      return value * 2
    }
    #expect(runs == 1)
    _ = doubled.value
    let first = ValueRecorder(doubled)
    let second = ValueRecorder(doubled)
    #expect(runs == 1)
    count.set(1)  // duplicate input: suppressed by the source, no recompute
    #expect(runs == 1)
    count.set(2)
    #expect(runs == 2)
    #expect(first.values == [2, 4])
    #expect(second.values == [2, 4])
  }

  @Test func equalDerivedValuesAreNotDeliveredAgain() {
    let number = StateSource(2)
    let parity = number.map { $0.isMultiple(of: 2) ? "even" : "odd" }
    let recorder = ValueRecorder(parity)
    number.set(4)
    number.set(6)
    number.set(7)
    #expect(recorder.values == ["even", "odd"])
  }

  @Test func removingDuplicatesUsesThePredicate() {
    let title = StateSource("a", deliversDuplicates: true)
    let distinct = title.removingDuplicates()
    let caseless = title.removingDuplicates { $0.lowercased() == $1.lowercased() }
    let all = ValueRecorder(title)
    let distinctValues = ValueRecorder(distinct)
    let caselessValues = ValueRecorder(caseless)
    title.set("a")
    title.set("A")
    title.set("b")
    #expect(all.values == ["a", "a", "A", "b"])
    #expect(distinctValues.values == ["a", "A", "b"])
    #expect(caselessValues.values == ["a", "b"])
  }

  @Test func combineRecomputesWhenAnyInputChanges() {
    let first = StateSource("Ada")
    let last = StateSource("Lovelace")
    var runs = 0
    let full = DerivedState(combining: first, last) { first, last -> String in
      runs += 1
      return "\(first) \(last)"
    }
    let recorder = ValueRecorder(full)
    first.set("Augusta")
    last.set("King")
    last.set("King")
    #expect(recorder.values == ["Ada Lovelace", "Augusta Lovelace", "Augusta King"])
    #expect(runs == 3)
  }

  @Test func combineOfThreeInputsOfDifferentTypes() {
    let count = StateSource(2)
    let noun = StateSource("note")
    let loading = StateSource(false)
    let summary = DerivedState(combining: count, noun, loading) { count, noun, loading in
      loading ? "…" : "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
    let recorder = ValueRecorder(summary)
    loading.set(true)
    count.set(1)
    loading.set(false)
    #expect(recorder.values == ["2 notes", "…", "1 note"])
  }

  @Test func derivedFromDerived() {
    let source = StateSource(1)
    let chain = source.map { $0 * 10 }.removingDuplicates().map { "#\($0)" }
    let recorder = ValueRecorder(chain)
    source.set(2)
    #expect(recorder.values == ["#10", "#20"])
  }

  @Test func releasingADerivedValueEndsItsInputObservations() {
    let source = StateSource(1)
    var runs = 0
    var derived: DerivedState<Int>? = source.map { value -> Int in
      runs += 1
      return value + 1
    }
    source.set(2)
    #expect(derived?.value == 3)
    derived = nil
    source.set(3)
    #expect(runs == 2)
  }

  @Test func nonEquatableMapDeliversEveryRecompute() {
    struct Row { let text: String }
    let source = StateSource(1)
    let rows = source.map { Row(text: "\($0)") }
    let recorder = ValueRecorder(rows)
    source.set(2)
    #expect(recorder.values.map(\.text) == ["1", "2"])
  }
}
