// example-reconnect: a screen that goes away and comes back without replaying an alert.
//
//   swift run example-reconnect
//
// A feature outlives its screen: its content is state (a screen that attaches shows it at
// once), and each "Saved" alert is a durable outcome with an identity (shown until a screen
// acknowledges it, then never again). A save that finishes while no screen is attached
// waits for the next one; a save that finishes after the feature stopped shows nowhere. The
// program prints what the screen shows after each step and ends with status 1 if a promise
// is broken, so CI runs it as a test.

import AirframeBinding
import Foundation

/// An alert the user must see once: identified, so "once" can be kept.
struct SavedAlert: Identifiable, Equatable, Sendable {
  let id: Int
  let message: String
}

/// The feature: content, the alerts not yet acknowledged, and a save that runs off the
/// main actor.
@MainActor
final class SaveFeature {
  let content = StateSource("draft")
  let alerts = DurableOutcomes<SavedAlert>()
  let saving = AsyncProjection<String>()
  private var saves = 0
  private var savingObservation: Lifetime?

  init() {
    savingObservation = saving.observe { [weak self] phase in
      if case .loaded(let text) = phase { self?.saved(text) }
    }
  }

  /// Saves `text` in the background, as a server would, taking `latency`.
  func save(_ text: String, latency: Duration = .milliseconds(20)) {
    saving.load {
      try? await Task.sleep(for: latency)  // A server that ignores cancellation.
      return text
    }
  }

  /// Waits until the running save ends.
  func saveEnded() async {
    while case .loading = saving.value { try? await Task.sleep(for: .milliseconds(5)) }
  }

  /// Stops the feature: a save in flight must never reach a screen.
  func stop() {
    // The observation first: cancelling the load returns its phase to what it was before
    // (the last save's `.loaded`), which the observation would take for a new save.
    savingObservation?.cancel()
    saving.cancel()
  }

  private func saved(_ text: String) {
    content.set(text)
    saves += 1
    alerts.post(SavedAlert(id: saves, message: "Saved “\(text)”"))
  }
}

/// A screen: shows the content, shows each alert and acknowledges it.
@MainActor
final class Screen {
  private(set) var text = ""
  private(set) var alertsShown: [SavedAlert] = []
  private let binder = Binder(label: "screen")

  func attach(to feature: SaveFeature) {
    print("  (the screen attaches)")
    binder.bind { connect in
      connect.render(feature.content) { [unowned self] text in
        self.text = text
        print("  screen shows: \(text)")
      }
      connect.render(feature.alerts) { [unowned self] alert in
        alertsShown.append(alert)
        print("  screen alerts: \(alert.message) (#\(alert.id)), and the user dismisses it")
        feature.alerts.acknowledge(alert.id)
      }
    }
  }

  func detach() {
    print("  (the screen goes away)")
    binder.cancel()
  }
}

/// Ends the program with status 1 if `promise` does not hold.
func check(_ holds: Bool, _ promise: String) {
  guard holds else {
    print("BROKEN: \(promise)")
    exit(1)
  }
}

/// The exercise, step by step; everything it makes is released when it returns.
@MainActor
func runExercise() async {
  let feature = SaveFeature()
  let screen = Screen()

  print("The screen attaches: the content shows at once.")
  screen.attach(to: feature)
  check(screen.text == "draft", "content is state: shown on attach")

  print("\nA save finishes while the screen is attached: one alert.")
  feature.save("v1")
  await feature.saveEnded()
  check(screen.text == "v1", "the saved content shows")
  check(screen.alertsShown.map(\.id) == [1], "the alert shows once")

  print("\nThe screen goes away and comes back: the content again, the alert not.")
  screen.detach()
  screen.attach(to: feature)
  check(screen.text == "v1", "content replays on attach")
  check(screen.alertsShown.map(\.id) == [1], "an acknowledged alert never shows again")

  print("\nA save finishes while no screen is attached: its alert waits for the next one.")
  screen.detach()
  feature.save("v2")
  await feature.saveEnded()
  check(screen.alertsShown.map(\.id) == [1], "nothing shows while detached")
  screen.attach(to: feature)
  check(screen.text == "v2", "the newest content shows on attach")
  check(screen.alertsShown.map(\.id) == [1, 2], "the alert posted while away shows, once")

  print("\nThe feature stops while a save is in flight: its result shows nowhere.")
  feature.save("late", latency: .milliseconds(40))
  feature.stop()
  try? await Task.sleep(for: .milliseconds(80))
  check(screen.text == "v2", "a save that ends after stop() never reaches a screen")
  check(screen.alertsShown.map(\.id) == [1, 2], "nor alerts")
  check(feature.alerts.pending.isEmpty, "nor posts an alert")

  screen.detach()
}

await runExercise()
// What the exercise made is gone; so is every binding and observation it started (a
// lifetime released off the main actor ends on one of its later turns).
for _ in 0..<100 where BindingLedger.shared.liveCount > 0 { await Task.yield() }
check(BindingLedger.shared.liveCount == 0, "no binding outlives its owner")
print("\nEvery binding ended; every promise held.")
