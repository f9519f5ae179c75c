/// A value computed from one or more projections and cached until an input changes.
///
/// Create one with `map(_:)` or ``StateProjection/removingDuplicates(by:)`` on any
/// projection, or with `init(combining:transform:)` for several inputs:
///
/// ```swift
/// let count = StateSource(3)
/// let label = count.map { "\($0) notes" }            // computed once: "3 notes"
/// let both = DerivedState(combining: count, label) { "\($0) / \($1)" }
/// ```
///
/// Derived values that share a source stay consistent with each other. Two values derived
/// from one source and combined again see each write once, with both inputs from it:
///
/// ```swift
/// let source = StateSource(1)
/// let doubled = source.map { $0 * 2 }
/// let tripled = source.map { $0 * 3 }
/// let pair = DerivedState(combining: doubled, tripled) { "\($0),\($1)" }   // "2,3"
/// source.set(2)                                   // pair delivers "4,6", and only that
/// ```
///
/// - Complexity: Reading ``value`` and observing are O(1). A write to an input costs one
///   transform call for each derived value it changes, plus delivery to their observers.
///
/// ## Guarantees
/// - Replay: observing replays the cached derived value; nothing is recomputed.
/// - Caching: the transform runs once when the derived state is created and then only
///   when an input it reads delivers a new value (inputs suppress their own duplicates),
///   never when the derived value is read or observed.
/// - Duplicates: a recomputed value equal to the cached one (Equatable values, or a
///   `removingDuplicates(by:)` predicate) is not delivered, and nothing derived from it
///   is recomputed.
/// - Glitch-free: a write reaches derived values in dependency order. A derived value is
///   recomputed at most once per write, after every input it reads has settled, so its
///   transform and its observers only ever see inputs from the same write: a combination
///   of two values derived from one source is delivered once per write, never half
///   updated.
/// - Consistent reads: every derived value settles before any observer hears of the write,
///   so an observer reading any derived value sees it as of that write.
/// - Order: a write is delivered to the source's observers first, then to the observers of
///   each derived value that changed, each after the values it derives from; within one
///   value, in registration order.
/// - Writes during delivery: a write to a source that feeds derived values, made while a
///   pass runs (from any observer), is queued and delivered after the pass, in the order
///   written, so every observer sees the same values in the same order.
/// - Lifetime: a derived state follows its inputs for as long as it exists; releasing it
///   ends those links, and a pass in progress delivers nothing more for it. It holds its
///   inputs strongly and is held by nobody but its owner.
/// - Other projections: an input that is not a `StateSource`, `DerivedState`,
///   `AsyncProjection` or `ObservationProjection` is followed by observing it; each value
///   it delivers starts a pass of its own from this derived value.
@MainActor
public final class DerivedState<Value>: StateProjection {
  /// The cached value and its observers.
  @usableFromInline
  let output: StateSource<Value>
  /// This value's place in the derived graph.
  @usableFromInline
  let node: GraphNode
  /// The links to the inputs: they end when this derived state is released.
  private var links: [Lifetime] = []
  /// The inputs, kept alive while this value reads them.
  private var inputs: [AnyObject] = []

  /// Creates a derived value whose cache is `output` and whose `evaluate` recomputes it.
  ///
  /// - Parameters:
  ///   - output: Holds the initial value, computed from the inputs' current values.
  ///   - inputs: One link per input, in order.
  ///   - evaluate: Recomputes the value from the inputs, stores it in `output` unless it
  ///     is a duplicate, and returns whether it stored it.
  @inlinable
  init(output: StateSource<Value>, inputs: [DerivationLink], evaluate: @escaping () -> Bool) {
    self.output = output
    self.node = GraphNode(
      derivedFrom: inputs, observers: output.observers, evaluate: evaluate,
      deliver: { end in output.observers.deliverReserved(output.stored, upTo: end) })
    connect(inputs)
  }

  /// Links the node to each input: to its graph node, or by observing it.
  @usableFromInline
  func connect(_ inputs: [DerivationLink]) {
    self.inputs = inputs.map(\.input)
    for input in inputs {
      if let inputNode = input.node {
        links.append(inputNode.addDependent(node))
      } else if let observeChanges = input.observeChanges {
        links.append(observeChanges { [node] in DerivedGraph.inputChanged(node) })
      }
    }
  }

  /// The cached derived value.
  public var value: Value { output.value }

  /// Replays the cached value, then delivers each new derived value.
  ///
  /// - Parameter observer: Called synchronously on the main actor.
  /// - Returns: The lifetime of the observation.
  @inlinable
  public func observe(_ observer: @escaping (Value) -> Void) -> Lifetime {
    output.observe(observer)
  }

  // Nonisolated, like `Lifetime`'s: on the main actor the links end before the release
  // returns; elsewhere on the main actor's next turn, and until then the node keeps
  // everything it reads alive.
  deinit {
    let node = self.node
    let links = self.links
    MainActorCheck.run {
      node.isDetached = true
      DerivedGraph.retire(node)
      for link in links { link.cancel() }
    }
  }
}

extension DerivedState: DerivationInput {
  @usableFromInline
  var derivationSource: StateSource<Value> { output }

  @usableFromInline
  var derivationNode: GraphNode { node }
}
