// StateSource and Swift Observation.
//
// Guarantees
// - Reading `StateSource.value` inside `withObservationTracking` (and so inside a
//   SwiftUI body or an `Observations` sequence) registers the read; the next committed
//   write fires that tracking's onChange, before the value is stored, exactly as an
//   `@Observable` property does.
// - Duplicates suppressed by the source do not fire onChange.
// - Writes to a source whose `value` has never been read skip the registrar: nothing can
//   be tracking a value nobody read. Once read, every commit goes through the registrar.
// - Reads the framework makes for its own bookkeeping (a derived value recomputing from
//   its inputs) are untracked: they neither register with an enclosing tracking scope nor
//   switch a source onto the registrar path.

public import Observation

extension StateSource: Observable {}

/// Marks framework-internal reads of `StateSource.value` as untracked.
@MainActor
enum UntrackedReads {
  static var depth = 0

  /// Runs `body` with `StateSource.value` reads untracked.
  static func perform<Result>(_ body: () -> Result) -> Result {
    depth += 1
    defer { depth -= 1 }
    return body()
  }
}
