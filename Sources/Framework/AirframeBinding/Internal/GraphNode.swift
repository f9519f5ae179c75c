/// One value in the derived graph: a source that derived values read, or a derived value.
///
/// A node knows what the pass needs and nothing typed: its rank, how many graph inputs it
/// has, the values that depend on it, and two closures made where its value type is known
/// (so they are specialized): `evaluate` recomputes and stores the value, `deliver` hands
/// it to the observers.
///
/// ## Guarantees
/// - Links: a dependent is kept (strongly) from the moment a derived value is made until
///   the lifetime of that link ends, which happens when the derived value is released.
///   Releasing it marks its node detached at once, so a pass in progress skips it; the
///   link itself is removed when no pass runs, so a pass only ever sees links added.
/// - Fusion: a node whose only dependent has no other input holds that dependent in
///   `fused`, and a pass hands its result straight on. Adding a second dependent un-fuses
///   it (the pass then visits its dependents in order); removing one fuses it again.
///   Observers never affect fusion: a stage that gains observers is delivered to, and its
///   chain stays fused.
/// - Cost: adding a dependent is O(1) amortized, removing one O(dependents).
@usableFromInline
@MainActor
final class GraphNode {
  /// The observers of the value this node stands for.
  let observers: ObserverSlots
  /// 0 for a source; one more than the highest rank among a derived value's graph inputs.
  let rank: Int
  /// The number of links to graph inputs (0 for a source).
  let inputCount: Int
  /// Recomputes the derived value from its inputs, stores it, and returns whether it
  /// changed.
  ///
  /// Never called for a source.
  let evaluate: () -> Bool
  /// Delivers the stored value to the observers in the first `end` slots.
  let deliver: (Int) -> Void

  // The pass reads and writes these between calls into user code, never across one, so
  // the run-time exclusivity checks are skipped.

  /// The derived values that read this one, in the order they were made.
  @exclusivity(unchecked)
  private(set) var dependents: ContiguousArray<GraphNode> = []
  /// `dependents`, unretained, for the pass to follow without reference counting.
  @exclusivity(unchecked)
  private(set) var dependentLinks: ContiguousArray<Unmanaged<GraphNode>> = []
  /// The only dependent, when it has no other input: evaluated straight after this node.
  ///
  /// Unretained, so a pass follows it without reference counting: `dependents` holds it,
  /// and a link ended during a pass is only removed when the pass ends (see
  /// `DerivedGraph.unlink(_:from:)`).
  @exclusivity(unchecked)
  private(set) var fused: Unmanaged<GraphNode>?
  /// Whether any derived value reads this one.
  @exclusivity(unchecked) @usableFromInline
  private(set) var feedsGraph = false

  /// Whether the node waits in the pass's rank queue.
  @exclusivity(unchecked)
  var isScheduled = false
  /// Whether the derived value was released: a pass skips the node.
  @exclusivity(unchecked)
  var isDetached = false
  /// The number of observer slots the reserved delivery of this pass visits.
  @exclusivity(unchecked)
  var deliveryEnd = 0

  /// Creates the node of a source: rank 0, nothing to evaluate, delivered by the source.
  @usableFromInline
  init(sourceWith observers: ObserverSlots) {
    self.observers = observers
    self.rank = 0
    self.inputCount = 0
    self.evaluate = { false }
    self.deliver = { _ in }
  }

  /// Creates the node of a derived value that reads `inputs`.
  @usableFromInline
  init(
    derivedFrom inputs: [DerivationLink],
    observers: ObserverSlots,
    evaluate: @escaping () -> Bool,
    deliver: @escaping (Int) -> Void
  ) {
    let graphInputs = inputs.compactMap(\.node)
    self.observers = observers
    self.rank = 1 + graphInputs.reduce(0) { max($0, $1.rank) }
    self.inputCount = graphInputs.count
    self.evaluate = evaluate
    self.deliver = deliver
  }

  /// Links `dependent` after this node's other dependents, until the returned lifetime
  /// ends.
  func addDependent(_ dependent: GraphNode) -> Lifetime {
    dependents.append(dependent)
    dependentLinks.append(.passUnretained(dependent))
    dependentsChanged()
    return Lifetime(target: DerivationEdge(input: self, dependent: dependent), handle: 0)
  }

  /// Unlinks `dependent`; the derived graph calls it when no pass runs.
  func removeDependent(_ dependent: GraphNode) {
    guard let index = dependents.firstIndex(where: { $0 === dependent }) else { return }
    dependents.remove(at: index)
    dependentLinks.remove(at: index)
    dependentsChanged()
  }

  private func dependentsChanged() {
    feedsGraph = !dependents.isEmpty
    fused = dependents.count == 1 && dependents[0].inputCount == 1 ? dependentLinks[0] : nil
  }
}

extension Unmanaged where Instance == GraphNode {
  /// Runs `body` with the node, neither retaining nor releasing it.
  ///
  /// The caller guarantees that something else keeps the node alive meanwhile. Unlike
  /// calling `_withUnsafeGuaranteedRef` from main-actor code directly, this passes no
  /// main-actor closure literal to the standard library, which would check the executor
  /// on every call.
  @inlinable @inline(__always)
  @MainActor
  func withNode<Result>(_ body: (GraphNode) -> Result) -> Result {
    _withUnsafeGuaranteedRef(body)
  }
}

/// The link from a derived value to one graph input, as the target of its lifetime.
@MainActor
private final class DerivationEdge: LifetimeTarget {
  let input: GraphNode
  let dependent: GraphNode

  init(input: GraphNode, dependent: GraphNode) {
    self.input = input
    self.dependent = dependent
  }

  override func lifetimeDidEnd(handle: Int) {
    dependent.isDetached = true
    DerivedGraph.unlink(dependent, from: input)
  }

  override var graphLabel: String { input.observers.graphLabel }
}
