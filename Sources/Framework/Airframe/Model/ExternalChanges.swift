/// What other writers stored since a model last read its storage, ready to apply.
///
/// A ``ModelStorage`` shared with other writers (another process on the same file)
/// returns one from ``ModelStorage/externalChanges()``; the model applies it with
/// ``Model/catchUpWithStorage()`` as one commit whose origin is
/// ``CommitOrigin/external(_:)``, without persisting it again (it is already stored).
public struct ExternalChanges<State> {
  /// Who made the changes, for the commit's origin, such as `"another process"`.
  public var source: String
  /// Changes a transaction on the model's state so that it matches the storage.
  public var apply: (inout Transaction<State>) throws -> Void
  /// Called once the changes are part of the model's state: the storage moves its cursor.
  public var applied: () -> Void

  /// Creates a set of external changes.
  ///
  /// - Parameters:
  ///   - source: Who made the changes.
  ///   - apply: Brings a transaction's state up to date with the storage.
  ///   - applied: Runs after the model has applied them (or found nothing to change).
  public init(
    source: String,
    apply: @escaping (inout Transaction<State>) throws -> Void,
    applied: @escaping () -> Void
  ) {
    self.source = source
    self.apply = apply
    self.applied = applied
  }
}

/// An error a storage throws from ``ModelStorage/persist(_:)`` when another writer changed
/// what it stores since it last caught up.
///
/// The model then rolls the write back, catches up through
/// ``ModelStorage/externalChanges()``, and runs the write's body again against the new
/// state (optimistic concurrency, as a database retries a transaction). A body that
/// validates (every ``ActionDispatcher`` step does) therefore refuses, with its reason,
/// what the other writer's change made invalid, and never overwrites it unseen.
public protocol StorageBehindError: Error {
  /// Whether the write should be retried after catching up.
  var isBehind: Bool { get }
}
