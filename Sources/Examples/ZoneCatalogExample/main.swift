// example-zone-catalog: the fallible asynchronous catalog, as a program to run and read.
//
//   swift run example-zone-catalog
//
// Two screens show one catalog of time zones, loaded from a slow server that sometimes
// fails. Every state a screen can be in is a value it renders (idle, loading, ready,
// failed, each with the last zones it had); the selection is checked against every source
// it comes from (the user's choice, and each refresh); a screen that attaches late shows
// the catalog as it is at once. The program prints what each screen shows after each step
// and ends with status 1 if a promise is broken, so CI runs it as a test.

import AirframeBinding
import Foundation

/// A time zone the catalog lists.
struct Zone: Equatable, Sendable {
  let id: String
  let title: String
}

/// Why the server did not answer.
struct ServerUnavailable: Error, CustomStringConvertible {
  var description: String { "the server is unavailable" }
}

/// A slow server with scripted answers: each fetch takes `latency`, then gives the next one.
actor ZoneServer {
  private var answers: [Result<[Zone], ServerUnavailable>]
  private let latency: Duration

  init(answers: [Result<[Zone], ServerUnavailable>], latency: Duration) {
    self.answers = answers
    self.latency = latency
  }

  func fetch() async throws -> [Zone] {
    try await Task.sleep(for: latency)
    guard !answers.isEmpty else { throw ServerUnavailable() }
    return try answers.removeFirst().get()
  }
}

/// The catalog, shared by every screen: the zones as an asynchronous projection, the
/// selection, and the text a screen shows, derived from both.
@MainActor
final class ZoneCatalog {
  /// The zones: idle, loading, loaded or failed, each keeping the last zones loaded.
  let zones = AsyncProjection<[Zone]>()
  /// The selected zone's id.
  let selection = StateSource<String?>(nil)
  /// What a screen shows.
  let shown: DerivedState<String>
  private let server: ZoneServer
  private var refreshes: Lifetime?

  init(server: ZoneServer) {
    self.server = server
    shown = DerivedState(combining: zones, selection) { phase, selected in
      let names = (phase.latestValue ?? []).map { $0.id == selected ? "[\($0.title)]" : $0.title }
      let list = names.isEmpty ? "no zones" : names.joined(separator: ", ")
      switch phase {
      case .idle: return "idle"
      case .loading: return "loading… (\(list))"
      case .loaded: return "ready: \(list)"
      case .failed(let error, _): return "failed, \(error) (\(list))"
      }
    }
    // A refresh is a source of the selection too: one that no longer lists the selected
    // zone clears it, so no screen shows a selection of something that is gone.
    refreshes = zones.observe { [weak self] phase in
      guard let self, case .loaded(let zones) = phase, let id = selection.value,
        !zones.contains(where: { $0.id == id })
      else { return }
      selection.set(nil)
    }
  }

  /// Loads the zones again; a load still running is superseded, its answer dropped.
  func refresh() {
    let server = server
    zones.load { try await server.fetch() }
  }

  /// Selects a zone the catalog lists; anything else is refused.
  @discardableResult
  func select(_ id: String) -> Bool {
    guard zones.value.latestValue?.contains(where: { $0.id == id }) == true else { return false }
    selection.set(id)
    return true
  }

  /// Waits until the running load ends, loaded or failed.
  func loadEnded() async {
    while case .loading = zones.value { try? await Task.sleep(for: .milliseconds(5)) }
  }

  /// Ends the catalog's own observation and any load in flight.
  func close() {
    refreshes?.cancel()
    zones.cancel()
  }
}

/// A screen that prints what it shows: one binding, which `detach()` ends.
@MainActor
final class TextScreen {
  let name: String
  private(set) var text = ""
  private let binder: Binder

  init(name: String) {
    self.name = name
    binder = Binder(label: name)
  }

  func attach(to catalog: ZoneCatalog) {
    binder.bind { connect in
      connect.render(catalog.shown) { [unowned self] text in
        self.text = text
        print("  \(name): \(text)")
      }
    }
  }

  func detach() { binder.cancel() }
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
  let amman = Zone(id: "amman", title: "Amman")
  let berlin = Zone(id: "berlin", title: "Berlin")
  let lima = Zone(id: "lima", title: "Lima")
  let server = ZoneServer(
    answers: [
      .failure(ServerUnavailable()), .success([amman, berlin, lima]), .success([amman, lima]),
    ],
    latency: .milliseconds(30))
  let catalog = ZoneCatalog(server: server)
  let left = TextScreen(name: "left ")
  let right = TextScreen(name: "right")

  print("Two screens attach; each shows the catalog at once.")
  left.attach(to: catalog)
  right.attach(to: catalog)
  check(
    left.text == "idle" && right.text == "idle",
    "a screen shows the state as it is when it attaches")

  print("\nA refresh, and the server fails: loading, then the failure, on both screens.")
  catalog.refresh()
  await catalog.loadEnded()
  check(
    left.text.hasPrefix("failed") && right.text == left.text, "a failure is a state screens show")

  print("\nA second refresh brings the zones.")
  catalog.refresh()
  await catalog.loadEnded()
  check(left.text == "ready: Amman, Berlin, Lima", "the zones are shown once loaded")

  print("\nThe user selects Berlin; a zone the catalog does not list cannot be selected.")
  check(catalog.select(berlin.id), "a listed zone can be selected")
  check(!catalog.select("tokyo"), "a zone that is not listed is refused")
  check(right.text == "ready: Amman, [Berlin], Lima", "every screen shows the selection")

  print("\nA refresh that no longer lists Berlin: the selection goes with it.")
  catalog.refresh()
  check(left.text.hasPrefix("loading… (Amman, [Berlin], Lima)"), "loading keeps what was shown")
  await catalog.loadEnded()
  check(catalog.selection.value == nil, "a refresh clears a selection it no longer lists")
  check(left.text == "ready: Amman, Lima", "no screen shows a selection of a zone that is gone")

  print("\nThe right screen detaches and attaches again: it shows the catalog as it is, at once.")
  right.detach()
  right.attach(to: catalog)
  check(right.text == left.text, "a screen attached late agrees with the others")

  left.detach()
  right.detach()
  catalog.close()
}

await runExercise()
// What the exercise made is gone; so is every binding and observation it started (a
// lifetime released off the main actor ends on one of its later turns).
for _ in 0..<100 where BindingLedger.shared.liveCount > 0 { await Task.yield() }
check(BindingLedger.shared.liveCount == 0, "no binding outlives its owner")
print("\nEvery binding ended; every promise held.")
