// Cancelling and rebinding from inside the callbacks a lifetime, a bag, a binder or an
// input-slot token owns, the replay included: the end takes effect at once.

import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct SelfCancelTests {
  @Test func anObservationCanEndItselfDuringItsReplay() {
    let source = StateSource(1)
    var seen: [Int] = []
    let lifetime = source.observe(withLifetime: { value, lifetime in
      seen.append(value)
      lifetime.cancel()
    })
    #expect(lifetime.isCancelled)
    source.set(2)
    #expect(seen == [1])
    #expect(source.observerCount == 0)
  }

  @Test(arguments: [1, 3])
  func anObserverThatReleasesItsOwnLifetimeRunsToTheEndOfItsCall(observers: Int) {
    // The first observer is called through a box of its own, without a retain; the list
    // keeps that box (and so the closure's captures) alive until the pass ends. With
    // several observers, the others are called the ordinary way.
    final class Captured {}
    let source = StateSource(0)
    weak var watched: Captured?
    var aliveAfterRelease: [Bool] = []
    var others = 0
    var holder: Lifetime?
    do {
      let captured = Captured()
      watched = captured
      holder = source.observe { [captured] value in
        guard value == 1 else { return }
        holder = nil  // the only reference: ends the observation during its own call
        aliveAfterRelease.append(watched != nil)
        withExtendedLifetime(captured) {}
      }
    }
    let rest = (1..<observers).map { _ in source.observe { _ in others += 1 } }
    source.set(1)
    source.set(2)
    #expect(holder == nil)
    #expect(aliveAfterRelease == [true])
    #expect(watched == nil, "the closure was not released once the pass ended")
    #expect(source.observerCount == observers - 1)
    #expect(others == 3 * (observers - 1))
    for lifetime in rest { lifetime.cancel() }
  }

  @Test func aFirstObserverCancelledEarlierInAPassIsNotCalledAndALaterOneIs() {
    // The box belongs to the observer that was first into an empty list: once it is gone,
    // slot 0 is a hole and nothing calls through the box; a list emptied and filled
    // again boxes its new first observer.
    let source = StateSource(0)
    var seen: [String] = []
    var first: Lifetime?
    let second = source.observe { value in
      seen.append("second \(value)")
    }
    first = source.observe { value in seen.append("first \(value)") }
    second.cancel()
    first?.cancel()
    #expect(source.observerCount == 0)
    let third = source.observe { value in
      seen.append("third \(value)")
      if value == 1 { first = nil }
    }
    let fourth = source.observe { value in seen.append("fourth \(value)") }
    source.set(1)
    third.cancel()
    source.set(2)
    #expect(
      seen == ["second 0", "first 0", "third 0", "fourth 0", "third 1", "fourth 1", "fourth 2"])
    fourth.cancel()
  }

  @Test func theLifetimeHandedToEachCallIsTheOneReturned() {
    let source = StateSource(0)
    var handed: [Lifetime] = []
    let lifetime = source.observe(withLifetime: { value, lifetime in
      handed.append(lifetime)
      if value == 2 { lifetime.cancel() }
    })
    source.set(1)
    source.set(2)
    source.set(3)
    #expect(handed.count == 3)
    #expect(handed.allSatisfy { $0 === lifetime })
    #expect(lifetime.isCancelled)
  }

  @Test func aWriteDuringTheReplayIsNotDeliveredAfterTheReplayCancelled() {
    let source = StateSource(0)
    var seen: [Int] = []
    _ = source.observe(withLifetime: { value, lifetime in
      seen.append(value)
      if value == 0 {
        lifetime.cancel()
        source.set(1)  // not delivering: commits at once, to every live observer
      }
    })
    #expect(seen == [0])
    #expect(source.value == 1)
  }

  @Test func aReplayThatCancelsTheBagEndsTheObservationStoredThroughObserveIn() {
    let source = StateSource("a")
    let bag = LifetimeBag()
    var seen: [String] = []
    source.observe(in: bag) { value in
      seen.append(value)
      bag.cancelAll()
    }
    source.set("b")
    #expect(seen == ["a"])
    #expect(bag.liveCount == 0)
    #expect(source.observerCount == 0)
  }

  @Test func observingIntoAClosedBagNeverCalls() {
    let source = StateSource("a")
    let bag = LifetimeBag()
    bag.close()
    var calls = 0
    source.observe(in: bag) { _ in calls += 1 }
    #expect(calls == 0)
    #expect(source.observerCount == 0)
  }

  @Test func aBinderCancelledByItsOwnReplayRendersAndForwardsNothingMore() {
    let source = StateSource("first")
    let field = TextFieldControl()
    let binder = Binder()
    var forwarded: [String] = []
    binder.bind { connect in
      connect.render(source) { text in
        field.render(text)
        binder.cancel()
      }
      connect.forward(field.edits) { forwarded.append($0) }
    }
    source.set("second")
    #expect(field.text == "first")
    #expect(field.renderCount == 1)
    #expect(!field.userTypes("typed"))
    #expect(forwarded.isEmpty)
    #expect(!binder.isBound)
    #expect(!field.edits.isOccupied)
    #expect(source.observerCount == 0)
  }

  @Test func aRebindFromInsideTheReplayEndsTheOldBindingBeforeTheNewOneStarts() {
    // A reused row whose first render opens another item (a redirect).
    let redirected = StateSource("old item")
    let target = StateSource("new item")
    let field = TextFieldControl()
    let binder = Binder()
    var oldInputs: [String] = []
    var newInputs: [String] = []
    var laterOldConnectionMade = false
    binder.bind { connect in
      connect.render(redirected) { _ in
        binder.bind { connect in
          connect.render(target) { field.render($0) }
          connect.forward(field.edits) { newInputs.append($0) }
        }
      }
      // This bind call is outdated now: nothing it goes on making may take effect.
      #expect(!connect.isCurrent)
      connect.forward(field.edits) { oldInputs.append($0) }
      connect.own(Lifetime { laterOldConnectionMade = true })
    }
    #expect(laterOldConnectionMade)  // owned too late: cancelled at once
    redirected.set("old item, later")
    #expect(field.text == "new item")
    #expect(redirected.observerCount == 0)
    #expect(field.userTypes("typed"))
    #expect(newInputs == ["typed"])
    #expect(oldInputs.isEmpty)
    #expect(field.edits.replacementCount == 0)
    target.set("new item, later")
    #expect(field.text == "new item, later")
    binder.cancel()
  }

  @Test func aRebindFromALaterRenderEndsTheOldConnections() {
    let first = StateSource(0)
    let second = StateSource(100)
    let binder = Binder()
    var rendered: [Int] = []
    binder.bind { connect in
      connect.render(first) { value in
        rendered.append(value)
        if value == 1 {
          binder.bind { connect in connect.render(second) { rendered.append($0) } }
        }
      }
    }
    first.set(1)
    first.set(2)
    second.set(101)
    #expect(rendered == [0, 1, 100, 101])
    #expect(first.observerCount == 0)
    binder.cancel()
  }

  @Test func anInputTokenCancelledInsideItsHandlerForwardsNothingMore() {
    let slot = InputSlot<String>()
    var received: [String] = []
    var token: Lifetime?
    token = slot.install { input in
      received.append(input)
      token?.cancel()
    }
    #expect(slot.send("one"))
    #expect(!slot.send("two"))
    #expect(received == ["one"])
    #expect(token?.isCancelled == true)
  }

  @Test func aBinderCancelledByAForwardedInputStopsRendering() {
    let source = StateSource("shown")
    let field = TextFieldControl()
    let binder = Binder()
    binder.bind { connect in
      connect.render(source) { field.render($0) }
      connect.forward(field.edits) { _ in binder.cancel() }
    }
    #expect(field.userTypes("close"))
    source.set("hidden")
    #expect(field.text == "close")
    #expect(!field.userTypes("again"))
  }
}

@Suite(.noLiveBindings)
@MainActor
struct BinderEffectTests {
  struct Confirmation: Identifiable, Equatable {
    let id: Int
    let message: String
  }

  @Test func durableOutcomesAreBoundLikeAnyProjectionAndRenderedSilently() {
    let outcomes = DurableOutcomes<Confirmation>()
    outcomes.post(Confirmation(id: 1, message: "Delete 3 notes?"))
    let binder = Binder()
    var shown: [Int] = []
    var renderedSilently: [Bool] = []
    binder.bind { connect in
      connect.render(outcomes) { outcome in
        shown.append(outcome.id)
        renderedSilently.append(Rendering.isActive)
      }
    }
    outcomes.post(Confirmation(id: 2, message: "Discard the draft?"))
    #expect(shown == [1, 2])
    #expect(renderedSilently == [true, true])
    outcomes.acknowledge(1)
    binder.bind { connect in connect.render(outcomes) { shown.append($0.id) } }
    #expect(shown == [1, 2, 2])
    binder.cancel()
    outcomes.post(Confirmation(id: 3, message: "Later"))
    #expect(shown == [1, 2, 2])
    #expect(outcomes.observerCount == 0)
  }

  @Test func aPresentationThatEndsItsBinderStopsThePendingReplay() {
    let outcomes = DurableOutcomes<Confirmation>()
    outcomes.post(Confirmation(id: 1, message: "first"))
    outcomes.post(Confirmation(id: 2, message: "second"))
    let binder = Binder()
    var shown: [Int] = []
    binder.bind { connect in
      connect.render(outcomes) { outcome in
        shown.append(outcome.id)
        binder.cancel()  // a modal presentation takes over after the first outcome
      }
    }
    #expect(shown == [1])
    #expect(outcomes.pending.count == 2)
  }

  @Test func eventsAreBoundAndEndWithTheBinder() {
    let toasts = EventChannel<String>()
    let binder = Binder()
    var shown: [String] = []
    binder.bind { connect in connect.render(toasts) { shown.append($0) } }
    toasts.send("Saved")
    binder.cancel()
    toasts.send("Lost")
    #expect(shown == ["Saved"])
    #expect(toasts.droppedCount == 1)
  }
}
