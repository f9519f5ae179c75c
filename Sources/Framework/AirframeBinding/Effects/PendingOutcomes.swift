/// A read-only view of a ``DurableOutcomes``: what a view may do with outcomes it did not
/// post, which is read and observe them.
///
/// An owner keeps its `DurableOutcomes` private and publishes this view, so only the owner
/// posts an outcome, and an outcome is acknowledged only through the owner's intent (the
/// user's answer), which keeps the owner's own bookkeeping right:
///
/// ```swift
/// final class Deletion {
///   private let outcomes = DurableOutcomes<Confirmation>()
///   var confirmations: PendingOutcomes<Confirmation> { outcomes.readOnly }
///   func answer(_ id: Confirmation.ID, confirmed: Bool) { outcomes.acknowledge(id) … }
/// }
/// ```
///
/// ## Guarantees
/// - Observing through the view is observing the outcomes themselves: the same replay of
///   pending outcomes and the same deliveries (see ``DurableOutcomes``).
/// - The view cannot post or acknowledge; it keeps the outcomes it views alive.
@MainActor
public struct PendingOutcomes<Outcome: Identifiable> {
  private let outcomes: DurableOutcomes<Outcome>

  init(_ outcomes: DurableOutcomes<Outcome>) {
    self.outcomes = outcomes
  }

  /// The outcomes posted and not yet acknowledged, oldest first.
  public var pending: [Outcome] { outcomes.pending }

  /// The name of the viewed outcomes in the binding graph.
  public var label: String? { outcomes.label }

  /// The number of live observers of the viewed outcomes.
  public var observerCount: Int { outcomes.observerCount }

  /// Replays every pending outcome, then delivers each new one.
  ///
  /// - Parameter observer: Called synchronously on the main actor.
  /// - Returns: The lifetime of the observation.
  public func observe(_ observer: @escaping (Outcome) -> Void) -> Lifetime {
    outcomes.observe(observer)
  }

  /// Replays the pending outcomes, then delivers them again after every post and every
  /// acknowledgement (see ``DurableOutcomes/observePending(_:)``).
  ///
  /// - Parameter observer: Called synchronously on the main actor.
  /// - Returns: The lifetime of the observation.
  public func observePending(_ observer: @escaping ([Outcome]) -> Void) -> Lifetime {
    outcomes.observePending(observer)
  }
}

extension DurableOutcomes {
  /// A view of these outcomes that can observe them but not post or acknowledge: what an
  /// owner hands to views.
  public var readOnly: PendingOutcomes<Outcome> { PendingOutcomes(self) }
}
