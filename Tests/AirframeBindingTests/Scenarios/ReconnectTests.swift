// A screen with replayed content and an identified confirmation, detached and
// reattached: content replays at once, a handled confirmation never shows twice.

import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings, .timeLimit(.minutes(1)))
@MainActor
struct ReconnectTests {
  /// A feature that outlives its screens: content state plus durable confirmations.
  @MainActor
  final class SaveFeature {
    let content = StateSource("draft")
    let confirmations = DurableOutcomes<Confirmation>()
    private var nextID = 0
    private(set) var isRunning = true

    func saveSucceeded(_ text: String) {
      guard isRunning else { return }
      content.set(text)
      nextID += 1
      confirmations.post(Confirmation(id: nextID, message: "Saved \(text)"))
    }

    func stop() { isRunning = false }
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
        connect.own(
          feature.confirmations.observe { [weak self] confirmation in
            guard let self else { return }
            shownConfirmations.append(confirmation)
            if acknowledges { feature.confirmations.acknowledge(confirmation.id) }
          })
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
    let feature = SaveFeature()
    let screen = Screen()
    screen.attach(to: feature)
    let gate = Gate<String>()
    let pendingSave = Task { @MainActor in
      let text = try await gate.wait()
      feature.saveSucceeded(text)
    }
    #expect(await gate.waitForWaiters(1))
    feature.stop()
    await gate.open(returning: "late")
    _ = await pendingSave.result
    #expect(screen.label.text == "draft")
    #expect(screen.shownConfirmations.isEmpty)
    #expect(feature.confirmations.pending.isEmpty)
    screen.detach()
  }
}
