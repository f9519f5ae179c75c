// ListLens and Swift Observation.
//
// Guarantees
// - Reading `revision`, `count`, `rows`, `row(at:)`, `index(of:)` or `row(for:)` inside
//   `withObservationTracking` (and so inside a SwiftUI body) registers one read of
//   `revision`; every update the lens publishes (a commit that changed the list, or a
//   reload) fires that tracking's onChange before the new rows are visible to observers.
// - A lens whose accessors were never read skips the registrar when it publishes.
// - The selection is a `StateSource`, which is `Observable` itself: reading
//   `selection.value` registers that read.

public import Observation

extension ListLens: Observable {}

extension ListLens {
  func trackAccess() {
    mayBeTracked = true
    registrar.access(self, keyPath: revisionKeyPath)
  }

  @usableFromInline
  func notifyObservation() {
    guard mayBeTracked else { return }
    registrar.willSet(self, keyPath: revisionKeyPath)
    registrar.didSet(self, keyPath: revisionKeyPath)
  }
}
