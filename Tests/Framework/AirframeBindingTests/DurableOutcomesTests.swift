import AirframeBinding
import AirframeTesting
import Testing

struct Confirmation: Identifiable, Equatable {
  let id: Int
  let message: String
}

@Suite(.noLiveBindings)
@MainActor
struct DurableOutcomesTests {
  @Test func pendingOutcomesAreDeliveredOnObserveOldestFirst() {
    let outcomes = DurableOutcomes<Confirmation>()
    outcomes.post(Confirmation(id: 1, message: "one"))
    outcomes.post(Confirmation(id: 2, message: "two"))
    let recorder = ValueRecorder(outcomes)
    #expect(recorder.values.map(\.id) == [1, 2])
    outcomes.post(Confirmation(id: 3, message: "three"))
    #expect(recorder.values.map(\.id) == [1, 2, 3])
  }

  @Test func everyAttachingConsumerGetsAnOutcomeUntilItIsAcknowledged() {
    let outcomes = DurableOutcomes<Confirmation>()
    outcomes.post(Confirmation(id: 1, message: "Delete?"))
    let first = ValueRecorder(outcomes)
    first.cancel()
    let second = ValueRecorder(outcomes)
    #expect(second.values.map(\.id) == [1])
    #expect(outcomes.acknowledge(1))
    second.cancel()
    let third = ValueRecorder(outcomes)
    #expect(third.values.isEmpty)
    #expect(outcomes.pending.isEmpty)
    third.cancel()
  }

  @Test func acknowledgedOutcomesAreNeverDeliveredAgain() {
    let outcomes = DurableOutcomes<Confirmation>()
    outcomes.post(Confirmation(id: 1, message: "Delete?"))
    #expect(outcomes.acknowledge(1))
    #expect(!outcomes.acknowledge(1))
    #expect(!outcomes.post(Confirmation(id: 1, message: "Delete again?")))
    let recorder = ValueRecorder(outcomes)
    #expect(recorder.values.isEmpty)
  }

  @Test func duplicateIdsAreIgnored() {
    let outcomes = DurableOutcomes<Confirmation>()
    let recorder = ValueRecorder(outcomes)
    #expect(outcomes.post(Confirmation(id: 7, message: "first")))
    #expect(!outcomes.post(Confirmation(id: 7, message: "second")))
    #expect(recorder.values == [Confirmation(id: 7, message: "first")])
    #expect(outcomes.pending.count == 1)
  }

  @Test func postDuringDeliveryIsQueuedAndSeenByEveryObserverInOrder() {
    let outcomes = DurableOutcomes<Confirmation>()
    var first: [Int] = []
    let chaining = outcomes.observe { outcome in
      first.append(outcome.id)
      if outcome.id == 1 { outcomes.post(Confirmation(id: 2, message: "follow-up")) }
    }
    let second = ValueRecorder(outcomes)
    outcomes.post(Confirmation(id: 1, message: "start"))
    #expect(first == [1, 2])
    #expect(second.values.map(\.id) == [1, 2])
    chaining.cancel()
  }

  @Test func acknowledgementDuringDeliveryTakesEffectAfterThePass() {
    let outcomes = DurableOutcomes<Confirmation>()
    let acknowledging = outcomes.observe { outcomes.acknowledge($0.id) }
    let other = ValueRecorder(outcomes)
    outcomes.post(Confirmation(id: 1, message: "handled by the first observer"))
    #expect(other.values.map(\.id) == [1])
    #expect(outcomes.pending.isEmpty)
    acknowledging.cancel()
    other.cancel()
    let late = ValueRecorder(outcomes)
    #expect(late.values.isEmpty)
  }

  @Test func acknowledgingDuringReplayStopsNothingElse() {
    let outcomes = DurableOutcomes<Confirmation>()
    outcomes.post(Confirmation(id: 1, message: "a"))
    outcomes.post(Confirmation(id: 2, message: "b"))
    var seen: [Int] = []
    let lifetime = outcomes.observe { outcome in
      seen.append(outcome.id)
      outcomes.acknowledge(outcome.id)
    }
    #expect(seen == [1, 2])
    #expect(outcomes.pending.isEmpty)
    lifetime.cancel()
  }

  @Test func aReadOnlyViewObservesWhatTheOutcomesDeliver() {
    let outcomes = DurableOutcomes<Confirmation>()
    outcomes.label = "confirmations"
    let view = outcomes.readOnly
    outcomes.post(Confirmation(id: 1, message: "one"))
    let recorder = ValueRecorder(view)
    #expect(recorder.values.map(\.id) == [1])
    #expect(view.observerCount == 1 && outcomes.observerCount == 1)
    #expect(view.label == "confirmations")
    outcomes.post(Confirmation(id: 2, message: "two"))
    #expect(recorder.values.map(\.id) == [1, 2])
    #expect(outcomes.acknowledge(1))
    #expect(view.pending.map(\.id) == [2])
    recorder.cancel()
    #expect(view.observerCount == 0)
  }
}

/// The pending outcomes as state: what a view that shows one dialog per outcome needs to
/// close a dialog answered elsewhere.
@Suite(.noLiveBindings)
@MainActor
struct PendingOutcomesStateTests {
  @Test func thePendingListIsReplayedAndFollowsEveryPostAndAcknowledgement() {
    let outcomes = DurableOutcomes<Confirmation>()
    outcomes.post(Confirmation(id: 1, message: "one"))
    var lists: [[Int]] = []
    let lifetime = outcomes.readOnly.observePending { lists.append($0.map(\.id)) }
    outcomes.post(Confirmation(id: 2, message: "two"))
    #expect(outcomes.acknowledge(1))
    #expect(!outcomes.acknowledge(1))
    #expect(!outcomes.post(Confirmation(id: 1, message: "again")))
    #expect(outcomes.acknowledge(2))
    #expect(lists == [[1], [1, 2], [2], []])
    lifetime.cancel()
  }

  @Test func anAcknowledgementElsewhereReachesEveryViewShowingTheOutcome() {
    // Two windows each show a dialog for every pending outcome; the user answers in one.
    let outcomes = DurableOutcomes<Confirmation>()
    var shown: [[Int]] = [[], []]
    var lifetimes: [Lifetime] = []
    for window in 0..<2 {
      lifetimes.append(outcomes.observe { shown[window].append($0.id) })
      lifetimes.append(
        outcomes.observePending { pending in
          shown[window].removeAll { id in !pending.contains { $0.id == id } }
        })
    }
    outcomes.post(Confirmation(id: 5, message: "Delete?"))
    #expect(shown == [[5], [5]])
    #expect(outcomes.acknowledge(5))
    #expect(shown == [[], []])
    for lifetime in lifetimes { lifetime.cancel() }
  }

  @Test func anAcknowledgementDuringThePendingDeliveryIsQueuedAndDeliveredAfterIt() {
    let outcomes = DurableOutcomes<Confirmation>()
    var first: [[Int]] = []
    var second: [[Int]] = []
    let answering = outcomes.observePending { pending in
      first.append(pending.map(\.id))
      if pending.contains(where: { $0.id == 1 }) { outcomes.acknowledge(1) }
    }
    let watching = outcomes.observePending { second.append($0.map(\.id)) }
    outcomes.post(Confirmation(id: 1, message: "one"))
    // Both saw [1] in the same pass before the acknowledgement made in it took effect.
    #expect(first == [[], [1], []])
    #expect(second == [[], [1], []])
    #expect(outcomes.pending.isEmpty)
    answering.cancel()
    watching.cancel()
  }
}
