/// One line of the action log.
///
/// ## Guarantees
///
/// - One entry per dispatch, undo and redo, in order, including refused and failed ones.
/// - Bounded: past `limit` entries the oldest are dropped.
public struct ActionLogEntry: Sendable, CustomStringConvertible {
  /// The action's name, prefixed with "Undo " or "Redo " for history steps.
  public let name: String
  /// Where the action came from: the user's, or one applied for another writer.
  public let origin: CommitOrigin
  /// The validation result the action had.
  public let validation: ValidationResult
  /// What happened.
  public let outcome: ActionOutcome
  /// How long validation, the write and delivery took.
  public let duration: Duration
  /// Inserted, updated and removed counts per changed table, and changed values.
  ///
  /// Computed when read, so logging costs a write nothing but keeping the change set.
  public var changeSummary: String { summarize() }
  private let summarize: @Sendable () -> String

  init(
    name: String, origin: CommitOrigin, validation: ValidationResult, outcome: ActionOutcome,
    duration: Duration, changeSummary: @escaping @Sendable () -> String
  ) {
    self.name = name
    self.origin = origin
    self.validation = validation
    self.outcome = outcome
    self.duration = duration
    self.summarize = changeSummary
  }

  /// A readable line, such as `Rename Note: Done (revision 3). notes +0 ~1 -0 [0.1 ms]`.
  public var description: String {
    let summary = changeSummary.isEmpty ? "" : " \(changeSummary)"
    return "\(name): \(outcome)\(summary) [\(duration)]"
  }
}

/// The most recent dispatched actions with their outcomes.
///
/// - Complexity: Appending is O(1), also once the log is full: the entries are kept in a
///   ring, and the oldest is overwritten in place. Reading ``entries`` is O(`limit`).
@MainActor
public final class ActionLog {
  /// The entries, oldest first.
  public var entries: [ActionLogEntry] {
    Array(ring[start...] + ring[..<start])
  }
  /// The largest number of entries kept.
  public let limit: Int
  /// The entries in a ring of at most `limit`: the oldest is at `start`.
  private var ring: [ActionLogEntry] = []
  private var start = 0

  /// Creates an empty log.
  ///
  /// - Parameter limit: The largest number of entries kept.
  public init(limit: Int = 1_000) { self.limit = max(1, limit) }

  func append(_ entry: ActionLogEntry) {
    guard ring.count == limit else { return ring.append(entry) }
    ring[start] = entry
    start = (start + 1) % limit
  }

  /// Forgets every entry.
  public func removeAll() {
    ring.removeAll()
    start = 0
  }
}
