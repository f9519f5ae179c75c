/// Work that arrived while its owner was busy delivering, kept in arrival order until the
/// owner can apply it: the one re-entrant drain loop of the binding layer.
///
/// `StateSource` (writes), `EventChannel` (sends), `DurableOutcomes` (posts and
/// acknowledgements) and the derived graph (writes to the sources it follows) all follow
/// the same rule: something asked for during a delivery pass is appended here, and applied
/// after the pass, oldest first.
///
/// ## Guarantees
/// - ``drain(_:)`` applies every item, oldest first, including items appended while it
///   runs (an applied item may start a delivery pass that queues more); it returns with the
///   backlog empty.
/// - A `drain` called while another `drain` of the same backlog runs does nothing: the
///   outer loop applies everything, so no item is applied twice or out of order.
/// - Items are applied with no lock held; the backlog is main-actor state.
@usableFromInline
@MainActor
final class Backlog<Item> {
  private var items: [Item] = []
  private var isDraining = false

  @usableFromInline
  init() {}

  /// Whether no item is waiting.
  var isEmpty: Bool { items.isEmpty }

  /// Whether a waiting item satisfies `predicate`.
  func contains(where predicate: (Item) -> Bool) -> Bool {
    items.contains(where: predicate)
  }

  /// Keeps `item` until the next ``drain(_:)``.
  @usableFromInline
  func append(_ item: Item) {
    items.append(item)
  }

  /// Applies every waiting item, oldest first, and the items appended while doing so.
  ///
  /// - Parameter apply: Applies one item; it may append to this backlog.
  @usableFromInline
  func drain(_ apply: (Item) -> Void) {
    guard !isDraining else { return }
    isDraining = true
    var index = 0
    while index < items.count {
      let next = items[index]
      index += 1
      apply(next)
    }
    items.removeAll(keepingCapacity: true)
    isDraining = false
  }
}
