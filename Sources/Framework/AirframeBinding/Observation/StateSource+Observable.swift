public import Observation

extension StateSource: Observable {}

/// Marks framework-internal reads of `StateSource.value` as untracked.
@usableFromInline
@MainActor
enum UntrackedReads {
  @exclusivity(unchecked)
  static var depth = 0

  /// Runs `body` with `StateSource.value` reads untracked.
  @usableFromInline
  static func perform<Result>(_ body: () -> Result) -> Result {
    depth += 1
    defer { depth -= 1 }
    return body()
  }
}
