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

public import Observation

extension StateSource: Observable {}
