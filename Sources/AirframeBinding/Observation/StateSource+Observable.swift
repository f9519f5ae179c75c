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
