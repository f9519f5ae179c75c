/// A projection whose value lives in a `StateSource` of this module, so a derived value can
/// read it directly and join the derived graph.
///
/// `StateSource`, `DerivedState`, `AsyncProjection` and `ObservationProjection` conform.
/// Any other `StateProjection` is followed by observing it (see ``DerivationLink``).
@usableFromInline
@MainActor
protocol DerivationInput<Value>: StateProjection {
  /// The storage a derived value reads, without Observation tracking.
  var derivationSource: StateSource<Value> { get }
  /// The node a derived value links itself to.
  var derivationNode: GraphNode { get }
}

/// How a derived value follows one of its inputs: a link to the input's graph node, or,
/// for a projection outside the graph, an observation of it.
@usableFromInline
@MainActor
struct DerivationLink {
  /// The input's node, for an input in the graph.
  let node: GraphNode?
  /// Starts observing an input outside the graph; `onChange` runs for every value after
  /// the replay.
  let observeChanges: ((@escaping () -> Void) -> Lifetime)?
  /// The input, kept alive for as long as the derived value.
  let input: AnyObject

  /// The link to `input`.
  @usableFromInline
  init<Input: StateProjection>(_ input: Input) {
    self.input = input
    if let member = input as? any DerivationInput<Input.Value> {
      node = member.derivationNode
      observeChanges = nil
    } else {
      node = nil
      observeChanges = { onChange in
        var replaying = true
        let lifetime = input.observe { _ in
          guard !replaying else { return }
          onChange()
        }
        replaying = false
        return lifetime
      }
    }
  }

  /// The storage of `input`, when it is in the graph.
  @inlinable
  static func source<Input: StateProjection>(of input: Input) -> StateSource<Input.Value>? {
    (input as? any DerivationInput<Input.Value>)?.derivationSource
  }

  /// Reads `input`'s current value: from its storage when it is in the graph, otherwise
  /// through `value`.
  @inlinable
  static func reader<Input: StateProjection>(_ input: Input) -> () -> Input.Value {
    if let source = source(of: input) {
      return { source.stored }
    }
    return { input.value }
  }
}

extension StateSource: DerivationInput {
  @usableFromInline
  var derivationSource: StateSource<Value> { self }

  @usableFromInline
  var derivationNode: GraphNode { graphNode() }
}
