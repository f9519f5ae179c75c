// A screen with replayed content and an identified confirmation, detached and
// reattached: content replays at once, a handled confirmation never shows twice.

import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct ReconnectTests {
  /// A feature that outlives its screens: content state plus durable confirmations, and
  /// an asynchronous save whose result arrives through an async projection.
  @MainActor
  final class SaveFeature {
    let content = StateSource("draft")
    let confirmations = DurableOutcomes<Confirmation>()
    let saving: AsyncProjection<String>
    private var nextID = 0
    private var savingObservation: Lifetime?

    init(scheduler: any WorkScheduler = .mainActor) {
      saving = AsyncProjection(scheduler: scheduler)
      savingObservation = saving.observe { [weak self] phase in
        if case .loaded(let text) = phase { self?.saveSucceeded(text) }
      }
    }

    func saveSucceeded(_ text: String) {
      content.set(text)
      nextID += 1
      confirmations.post(Confirmation(id: nextID, message: "Saved \(text)"))
    }

    /// Saves in the background; the result, if it still counts, is shown on completion.
    func save(_ work: @escaping @Sendable () async throws -> String) { saving.load(work) }

    /// Stops the feature: a save in flight must never reach a screen.
    func stop() { saving.cancel() }
  }

  /// A screen: renders content, shows each confirmation and acknowledges it.
  @MainActor
  final class Screen {
    let label = LabelControl()
    private(set) var shownConfirmations: [Confirmation] = []
    private let binder = Binder()
    var acknowledges = true

    func attach(to feature: SaveFeature) {
      binder.bind { connect in
        connect.render(feature.content) { [label] in label.render($0) }
        connect.render(feature.confirmations) { [weak self] confirmation in
          guard let self else { return }
          shownConfirmations.append(confirmation)
          if acknowledges { feature.confirmations.acknowledge(confirmation.id) }
        }
      }
    }

    func detach() { binder.cancel() }
  }

  @Test func contentReplaysAndAHandledConfirmationDoesNotAppearAgain() {
    let feature = SaveFeature()
    let screen = Screen()
    screen.attach(to: feature)
    feature.saveSucceeded("v1")
    #expect(screen.shownConfirmations.map(\.id) == [1])
    screen.detach()
    screen.attach(to: feature)
    #expect(screen.label.text == "v1")
    #expect(screen.shownConfirmations.map(\.id) == [1])
    screen.detach()
  }

  @Test func aConfirmationPostedWhileDetachedAppearsOnReattach() {
    let feature = SaveFeature()
    let screen = Screen()
    screen.attach(to: feature)
    screen.detach()
    feature.saveSucceeded("v2")
    #expect(screen.shownConfirmations.isEmpty)
    #expect(screen.label.text == "draft")
    screen.attach(to: feature)
    #expect(screen.label.text == "v2")
    #expect(screen.shownConfirmations.map(\.message) == ["Saved v2"])
    screen.detach()
    screen.attach(to: feature)
    #expect(screen.shownConfirmations.count == 1)
    screen.detach()
  }

  @Test func anUnacknowledgedConfirmationAppearsOnEveryReattach() {
    let feature = SaveFeature()
    let screen = Screen()
    screen.acknowledges = false
    feature.saveSucceeded("v3")
    screen.attach(to: feature)
    screen.detach()
    screen.attach(to: feature)
    #expect(screen.shownConfirmations.map(\.id) == [1, 1])
    screen.acknowledges = true
    screen.detach()
    screen.attach(to: feature)
    screen.detach()
    screen.attach(to: feature)
    #expect(screen.shownConfirmations.map(\.id) == [1, 1, 1])
    screen.detach()
  }

  @Test func repeatedAttachAndCancelLeavesNoOldObserverActing() {
    let feature = SaveFeature()
    let screen = Screen()
    for _ in 0..<10 {
      screen.attach(to: feature)
      screen.detach()
    }
    screen.attach(to: feature)
    feature.saveSucceeded("v4")
    #expect(screen.shownConfirmations.map(\.id) == [1])
    #expect(feature.content.observerCount == 1)
    #expect(feature.confirmations.observerCount == 1)
    screen.detach()
  }

  @Test func aDelayedResultAfterTheFeatureStopsShowsNothing() async {
    let scheduler = TestScheduler()
    let feature = SaveFeature(scheduler: scheduler)
    let screen = Screen()
    screen.attach(to: feature)
    let gate = Gate<String>()
    // The work ignores cancellation and returns normally: only the framework can drop it.
    feature.save { try await gate.wait() }
    #expect(await gate.waitForWaiters(1))
    feature.stop()
    await gate.open(returning: "late")
    await scheduler.runUntilIdle()
    #expect(feature.saving.droppedCompletionCount == 1)
    #expect(screen.label.text == "draft")
    #expect(screen.shownConfirmations.isEmpty)
    #expect(feature.confirmations.pending.isEmpty)
    screen.detach()
  }

  @Test func aSaveThatCompletesWhileAttachedIsShownOnce() async {
    let scheduler = TestScheduler()
    let feature = SaveFeature(scheduler: scheduler)
    let screen = Screen()
    screen.attach(to: feature)
    feature.save { "v5" }
    await scheduler.runUntilIdle()
    #expect(screen.label.text == "v5")
    #expect(screen.shownConfirmations.map(\.message) == ["Saved v5"])
    screen.detach()
  }
}
