/// A token that keeps one binding alive until it is cancelled or released.
///
/// Every observation, input handler and binder in Airframe returns a `Lifetime`. Keep it
/// for as long as the connection should last: store it in the owner's ``LifetimeBag``
/// or in a property. Dropping the last reference cancels the binding, so a forgotten
/// token never leaves a connection running.
///
/// ```swift
/// let bag = LifetimeBag()
/// title.observe { label.text = $0 }.store(in: bag)
/// ```
///
/// - Complexity: Creating and cancelling a lifetime are O(1).
///
/// ## Guarantees
/// - `cancel()` is idempotent: the first call ends the binding, later calls do nothing.
/// - Releasing the last reference cancels, exactly as `cancel()` would: released on the
///   main actor it cancels before the release returns; released elsewhere it cancels on
///   the main actor's next turn. (The deinit is nonisolated, not an `isolated deinit`, so
///   it needs no back-deployed runtime support on older Apple systems.)
/// - Cancelling from inside the binding's own callbacks, the replay included, ends it at
///   once; ``StateProjection/observe(withLifetime:)`` hands the replay its lifetime. A
///   callback that cancels itself, or releases its own lifetime, finishes its call with
///   everything it captured still alive; the captures are released once the delivery pass
///   that was running ends, at the latest.
/// - Cancelling never calls back into user code except a closure the creator of the
///   lifetime passed to `init(onCancel:)`.
/// - Every lifetime is counted by the `BindingLedger` that was current when it was
///   created, from creation until it is cancelled.
@MainActor
public final class Lifetime {
  /// What to tell when this lifetime ends; `nil` once cancelled.
  ///
  /// A class reference, not a protocol existential, keeps a lifetime at 40 bytes.
  private var target: LifetimeTarget?
  /// The target's handle for this lifetime: a slot index or an installation number.
  ///
  /// Internal and mutable because a target may renumber its slots while compacting.
  var handle: Int
  /// The ledger that counts this lifetime while it is live.
  let ledger: BindingLedger

  @usableFromInline
  init(target: LifetimeTarget, handle: Int) {
    self.target = target
    self.handle = handle
    self.ledger = BindingLedger.current ?? BindingLedger.shared
    ledger.lifetimeStarted(self, target: target)
  }

  /// Creates a lifetime counted by `ledger` instead of the current one.
  init(target: LifetimeTarget, handle: Int, ledger: BindingLedger) {
    self.target = target
    self.handle = handle
    self.ledger = ledger
    ledger.lifetimeStarted(self, target: target)
  }

  /// Creates a lifetime that runs `onCancel` once, when it is cancelled or released.
  ///
  /// Use this to give a custom connection the same ownership rules as the built-in ones.
  ///
  /// - Parameter onCancel: Runs exactly once, on the main actor.
  public convenience init(onCancel: @escaping @MainActor () -> Void) {
    self.init(target: CancelAction(onCancel), handle: 0)
  }

  /// Whether the binding this lifetime kept alive has ended.
  public var isCancelled: Bool { target == nil }

  /// Ends the binding; calling it again does nothing.
  ///
  /// After `cancel()` returns, the binding delivers nothing more, even if it was
  /// cancelled in the middle of a delivery pass.
  public func cancel() {
    guard let target else { return }
    self.target = nil
    ledger.lifetimeEnded(ObjectIdentifier(self))
    target.lifetimeDidEnd(handle: handle)
  }

  /// Hands this lifetime to `bag`, which then owns it.
  ///
  /// - Parameter bag: The owner's bag; the lifetime ends when the bag is cancelled or
  ///   released.
  public func store(in bag: LifetimeBag) {
    bag.insert(self)
  }

  // Nonisolated on purpose (see `MainActorCheck`): on the main actor it cancels before
  // the release returns; elsewhere the observer list hears of it on the main actor's next
  // turn, and compaction waits for that (see `OffMainReleases`).
  deinit {
    // Already cancelled (the common case, through a bag or `cancel()`): nothing to end.
    // Only the main actor clears `target`, and nothing else can reach a lifetime that is
    // being destroyed.
    guard target != nil else { return }
    if MainActorCheck.isOnMainActor {
      MainActor.assumeIsolated { cancel() }
      return
    }
    OffMainReleases.begin()
    let target = self.target
    let handle = self.handle
    let ledger = self.ledger
    OffMainReleases.unlock()
    guard let target else {
      OffMainReleases.end()
      return
    }
    let identifier = ObjectIdentifier(self)
    Task { @MainActor in
      ledger.lifetimeEnded(identifier)
      target.lifetimeDidEnd(handle: handle)
      OffMainReleases.end()
    }
  }
}

/// The object a lifetime notifies when it ends.
///
/// An observer list, an input slot's installation, or a closure; subclasses override
/// ``lifetimeDidEnd(handle:)``.
@usableFromInline
@MainActor
class LifetimeTarget {
  @usableFromInline
  init() {}

  /// Called once, when the lifetime with this `handle` is cancelled or released.
  func lifetimeDidEnd(handle: Int) {}

  /// What the binding graph calls the source a lifetime observes.
  var graphLabel: String { "\(type(of: self))" }
}

/// The target of ``Lifetime/init(onCancel:)``.
@MainActor
private final class CancelAction: LifetimeTarget {
  private let action: @MainActor () -> Void
  init(_ action: @escaping @MainActor () -> Void) { self.action = action }
  override func lifetimeDidEnd(handle: Int) { action() }
  override var graphLabel: String { "custom lifetime" }
}

extension Lifetime {
  /// Creates a lifetime before the connection it will end exists, so that the
  /// connection's first callback (the replay) can already cancel it.
  ///
  /// The new lifetime is first stored in `bag`, if one is given (a closed bag cancels it
  /// at once). Then `connect` receives it and returns the lifetime of the connection it
  /// made. Cancelling the new lifetime, even inside `connect`, cancels that connection; a
  /// callback that checks `isCancelled` on the lifetime it was handed therefore stops at
  /// once. The ledger counts the connection, not the link: one binding, one count, shown in
  /// the binding graph under the connection's source and the bag's owner.
  static func linked(
    storedIn bag: LifetimeBag? = nil, _ connect: (Lifetime) -> Lifetime
  ) -> Lifetime {
    let link = LinkedConnection()
    let lifetime = Lifetime(target: link, handle: 0, ledger: .uncounted)
    bag?.insert(lifetime)
    let connection = connect(lifetime)
    if lifetime.isCancelled {
      connection.cancel()
    } else {
      link.connection = connection
      if let bag { connection.ledger.lifetime(connection, isOwnedBy: bag.label) }
    }
    return lifetime
  }
}

/// The target of a ``Lifetime/linked(_:)`` lifetime: the connection it ends.
@MainActor
private final class LinkedConnection: LifetimeTarget {
  var connection: Lifetime?
  override func lifetimeDidEnd(handle: Int) {
    connection?.cancel()
    connection = nil
  }
  override var graphLabel: String { "linked lifetime" }
}
