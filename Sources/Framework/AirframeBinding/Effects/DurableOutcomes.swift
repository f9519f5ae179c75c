/// Identified effects, such as a required confirmation or navigation after a save,
/// that are delivered until a consumer acknowledges them.
///
/// Unlike a replayed Boolean, an acknowledged outcome never shows up again; unlike an
/// ``EventChannel`` event, an outcome posted while no view is attached is not lost.
///
/// ```swift
/// let confirmations = DurableOutcomes<Confirmation>()
/// confirmations.post(Confirmation(id: 1, message: "Delete 3 notes?"))
/// let lifetime = confirmations.observe { outcome in
///   present(outcome) { confirmations.acknowledge(outcome.id) }
/// }
/// ```
///
/// ## Guarantees
/// - Held by an owner that outlives views (a controller or the model), not by a view.
/// - On observe, every pending (unacknowledged) outcome is delivered, oldest first, before
///   `observe` returns. Later posts are delivered to every observer as they happen.
/// - An outcome is delivered to every attaching consumer until it is acknowledged, and
///   never again after that.
/// - Duplicate ids are ignored: posting an id that is pending or was ever acknowledged by
///   this owner does nothing (ids are single-use; the owner remembers acknowledged ids).
/// - Posts and acknowledgements made during delivery are queued until the current pass
///   has finished, so every observer sees the same outcomes in the same order. An outcome
///   acknowledged earlier in a pass is still delivered to the rest of that pass's
///   observers (they were promised it when the pass began); it is not replayed later.
/// - ``observePending(_:)`` follows the pending outcomes as state: it replays the list at
///   once and delivers the whole list again after every post and every acknowledgement, so
///   a view that shows a dialog per outcome also learns when one was answered elsewhere
///   (in another window, by the owner withdrawing it) and closes it.
@MainActor
public final class DurableOutcomes<Outcome: Identifiable> {
  private enum Change {
    case post(Outcome)
    case acknowledge(Outcome.ID)
  }

  private let observers = ObserverList<Outcome>()
  private let pendingObservers = ObserverList<[Outcome]>()
  private var pendingOutcomes: [Outcome] = []
  private var seenIDs: Set<Outcome.ID> = []
  private let queued = Backlog<Change>()

  /// Creates an empty set of outcomes.
  public init() {}

  /// The outcomes posted and not yet acknowledged, oldest first.
  public var pending: [Outcome] { pendingOutcomes }

  /// The name of this source in the binding graph (see `BindingLedger.graphDescription`).
  public var label: String? {
    get { observers.label }
    set { observers.label = newValue }
  }

  /// The number of live observers, of outcomes and of the pending list.
  public var observerCount: Int { observers.count + pendingObservers.count }

  /// Replays every pending outcome, then delivers each new one.
  ///
  /// - Parameter observer: Called synchronously on the main actor.
  /// - Returns: The lifetime of the observation.
  public func observe(_ observer: @escaping (Outcome) -> Void) -> Lifetime {
    let lifetime = observers.add(observer)
    for outcome in pendingOutcomes where !lifetime.isCancelled {
      observer(outcome)
    }
    return lifetime
  }

  /// Replays the pending outcomes, oldest first, then delivers them again after every post
  /// and every acknowledgement.
  ///
  /// Where ``observe(_:)`` says "this outcome needs you", this says "these are the ones that
  /// still do": a view that presents each outcome (a dialog) uses it to dismiss what was
  /// acknowledged elsewhere.
  ///
  /// ```swift
  /// outcomes.observePending { pending in
  ///   for id in dialogs.keys where !pending.contains(where: { $0.id == id }) {
  ///     dialogs.removeValue(forKey: id)?.dismiss()
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter observer: Called synchronously on the main actor with every pending
  ///   outcome, oldest first; after a post, once every outcome observer has had it.
  /// - Returns: The lifetime of the observation.
  public func observePending(_ observer: @escaping ([Outcome]) -> Void) -> Lifetime {
    let lifetime = pendingObservers.add(observer)
    observer(pendingOutcomes)
    return lifetime
  }

  /// Adds `outcome` and delivers it, unless its id was posted before.
  ///
  /// - Parameter outcome: The outcome.
  /// - Returns: `false` if the id was already pending or acknowledged.
  @discardableResult
  public func post(_ outcome: Outcome) -> Bool {
    guard !seenIDs.contains(outcome.id) else { return false }
    if isDelivering {
      guard
        !queued.contains(where: { if case .post(let o) = $0 { o.id == outcome.id } else { false } })
      else { return false }
      queued.append(.post(outcome))
      return true
    }
    apply(.post(outcome))
    queued.drain(apply)
    return true
  }

  /// Marks the outcome with `id` handled: it is removed and never delivered again.
  ///
  /// - Parameter id: The id of a pending outcome.
  /// - Returns: `false` if no outcome with that id is pending.
  @discardableResult
  public func acknowledge(_ id: Outcome.ID) -> Bool {
    let isPending =
      pendingOutcomes.contains { $0.id == id }
      || queued.contains { if case .post(let o) = $0 { o.id == id } else { false } }
    guard isPending else { return false }
    if isDelivering {
      queued.append(.acknowledge(id))
    } else {
      apply(.acknowledge(id))
      queued.drain(apply)
    }
    return true
  }

  /// Whether a pass of either kind is delivering: changes made now are queued.
  private var isDelivering: Bool { observers.isDelivering || pendingObservers.isDelivering }

  private func apply(_ change: Change) {
    switch change {
    case .post(let outcome):
      guard !seenIDs.contains(outcome.id) else { return }
      seenIDs.insert(outcome.id)
      pendingOutcomes.append(outcome)
      observers.deliver(outcome)
    case .acknowledge(let id):
      guard pendingOutcomes.contains(where: { $0.id == id }) else { return }
      pendingOutcomes.removeAll { $0.id == id }
    }
    if pendingObservers.count > 0 { pendingObservers.deliver(pendingOutcomes) }
  }
}
