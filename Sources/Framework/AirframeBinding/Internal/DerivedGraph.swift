/// The derived graph: every `DerivedState` and the sources it reads, and the pass that
/// carries one write through them glitch-free.
///
/// A write to a source that derived values depend on runs one pass in two phases:
/// 1. Settle. Every derived value the write reaches is recomputed, each one once and only
///    after every input it reads has settled, so a transform never sees one input from
///    this write and another from before it. Values that come out equal to what they
///    were are not changed, and stop the pass on their branch.
/// 2. Deliver. The source's observers hear of the write, then the observers of each
///    derived value that changed, each value after the values it derives from.
///
/// ## Guarantees
/// - Glitch-free: a derived value with several inputs that one write reaches is
///   recomputed once, from the inputs' settled values; its observers see it once per write.
/// - Consistent reads: while any observer of the pass runs, every derived value in the
///   graph already holds its value for this write.
/// - One pass at a time: a write to a source that feeds the graph, made while a pass runs
///   (by an observer or a transform), is kept and applied after the pass, in the order
///   written, as a pass of its own; the same holds for a change reported by a projection
///   the graph cannot see into (any other `StateProjection`). All of them have been
///   applied when the write that started the first pass returns.
/// - An observer added during a pass is replayed the settled value and is not called
///   again in that pass; an observer cancelled, or a derived value released, during a
///   pass is not called again.
/// - Cost: a derived value with one input is recomputed the moment that input settles,
///   and one observed by exactly one downstream value hands its result straight to it
///   (a fused chain: no observer list, no pass of its own). Only values with several
///   inputs wait, in a heap ordered by rank (one more than the highest rank among their
///   inputs; a source's rank is 0). Nothing is sorted or searched, and a pass allocates
///   nothing once its buffers have grown to the graph's size.
@usableFromInline
@MainActor
enum DerivedGraph {
  // There is one graph: main-actor state, one pass at a time. Static state keeps the pass
  // free of reference counting on a graph object. The pass reads and writes it between
  // calls into user code, never across one, so the run-time exclusivity checks are
  // skipped.

  /// Whether a pass is running (from the start of its settle phase to the end of its
  /// delivery phase).
  @exclusivity(unchecked) @usableFromInline
  private(set) static var isRunning = false
  // Flags and counts in front of the collections: the collections are made on first use,
  // and a pass that needs none of them never touches them.

  /// Derived values with several inputs, waiting for their inputs to settle.
  @exclusivity(unchecked)
  private static var waiting = RankQueue()
  /// The number of values in `waiting`.
  @exclusivity(unchecked)
  private static var waitingCount = 0
  /// The first value that changed in this pass and has observers; most passes have one.
  @exclusivity(unchecked)
  private static var firstDelivery: Unmanaged<GraphNode>?
  /// The other values that changed in this pass and have observers, in the order they
  /// settled.
  @exclusivity(unchecked)
  private static var deliveries: ContiguousArray<Unmanaged<GraphNode>> = []
  /// Whether `deliveries` holds values.
  @exclusivity(unchecked)
  private static var hasMoreDeliveries = false
  /// Links ended during this pass (an input and its dependent), and nodes of derived
  /// values released during it.
  ///
  /// The pass follows links without retaining what they point to, so unlinking waits
  /// until the pass ends: during a pass, links are only added.
  @exclusivity(unchecked)
  private static var retired: ContiguousArray<(input: GraphNode?, node: GraphNode)> = []
  /// Whether `retired` holds anything.
  @exclusivity(unchecked)
  private static var hasRetired = false
  /// Work that arrived while a pass ran: writes to sources that feed the graph, and
  /// changes of inputs the graph follows by observing them.
  private static let deferred = Backlog<() -> Void>()
  /// Whether `deferred` may hold work; a flag keeps the pass off the lazily made backlog.
  @exclusivity(unchecked)
  private static var hasDeferredWork = false

  /// Settles every derived value that depends on `root`: the first phase of a write to
  /// the source `root` stands for.
  ///
  /// The caller then delivers the source's own observers and calls ``finish()``.
  @usableFromInline
  static func settle(from root: GraphNode) {
    begin()
    propagate(from: root)
    if waitingCount > 0 { settleWaiting() }
    UntrackedReads.depth -= 1
  }

  /// The second phase: delivers each derived value that changed, then applies what was
  /// deferred during the pass, each item a pass of its own.
  @usableFromInline
  static func finish() {
    if let node = firstDelivery {
      firstDelivery = nil
      node.withNode(deliver)
      if hasMoreDeliveries { deliverTheRest() }
    }
    if hasRetired { unlinkRetired() }
    isRunning = false
    if hasDeferredWork {
      deferred.drain { $0() }
      hasDeferredWork = false
    }
  }

  /// Keeps `work` until the running pass has finished.
  @usableFromInline
  static func afterPass(_ work: @escaping () -> Void) {
    deferred.append(work)
    hasDeferredWork = true
  }

  /// Keeps `node`, a released derived value's, alive until the running pass ends: the pass
  /// may still hold it unretained.
  static func retire(_ node: GraphNode) {
    guard isRunning else { return }
    retired.append((nil, node))
    hasRetired = true
  }

  /// Unlinks `dependent` from `input` now, or at the end of the running pass.
  static func unlink(_ dependent: GraphNode, from input: GraphNode) {
    guard isRunning else {
      input.removeDependent(dependent)
      return
    }
    retired.append((input, dependent))
    hasRetired = true
  }

  private static func unlinkRetired() {
    for (input, node) in retired {
      input?.removeDependent(node)
    }
    retired.removeAll()
    hasRetired = false
  }

  /// Runs a pass from `node`, a derived value one of whose observed inputs (a projection
  /// outside the graph) delivered a new value; during a pass, after it.
  static func inputChanged(_ node: GraphNode) {
    guard !isRunning else {
      afterPass { inputChanged(node) }
      return
    }
    begin()
    if !node.isDetached, node.evaluate() {
      record(node)
      propagate(from: node)
    }
    if waitingCount > 0 { settleWaiting() }
    UntrackedReads.depth -= 1
    finish()
  }

  /// Starts a pass.
  ///
  /// Transforms run untracked until the settle phase ends: a read they make never
  /// registers with an Observation scope that encloses the write.
  @inline(__always)
  private static func begin() {
    precondition(!isRunning, "a derived-graph pass started inside another")
    isRunning = true
    UntrackedReads.depth += 1
  }

  /// Settles what depends on `start`, whose value has just changed.
  ///
  /// A fused successor is evaluated at once, in a loop; other dependents with one input
  /// are evaluated at once too (their only input has settled), and those with several
  /// wait for ``settleWaiting()``.
  private static func propagate(from start: GraphNode) {
    var node = Unmanaged.passUnretained(start)
    while let next = node.withNode({ $0.fused }) {
      let changed = next.withNode { next in
        guard next.evaluate() else { return false }
        record(next)
        return true
      }
      guard changed else { return }
      node = next
    }
    node.withNode { propagateToDependents(of: $0) }
  }

  /// Settles or schedules the dependents of `node`, which is not fused.
  private static func propagateToDependents(of node: GraphNode) {
    guard node.feedsGraph else { return }
    // By index: a transform may link a derived value meanwhile (appended, and visited
    // too); nothing is unlinked until the pass ends.
    var index = 0
    while index < node.dependentLinks.count {
      let link = node.dependentLinks[index]
      index += 1
      link.withNode { dependent in
        if dependent.isDetached { return }
        if dependent.inputCount == 1 {
          if dependent.evaluate() {
            record(dependent)
            propagate(from: dependent)
          }
        } else if !dependent.isScheduled {
          dependent.isScheduled = true
          waiting.insert(link)
          waitingCount += 1
        }
      }
    }
  }

  /// Evaluates the waiting values lowest rank first, so each runs after all its inputs.
  private static func settleWaiting() {
    while waitingCount > 0 {
      waitingCount -= 1
      waiting.popFirst()?.withNode { node in
        node.isScheduled = false
        if !node.isDetached, node.evaluate() {
          record(node)
          propagate(from: node)
        }
      }
    }
  }

  /// Reserves a delivery for `node`, whose value changed in this pass, if it has observers.
  @inline(__always)
  private static func record(_ node: GraphNode) {
    guard node.observers.count > 0 else { return }
    node.deliveryEnd = node.observers.reserveDelivery()
    if firstDelivery == nil {
      firstDelivery = .passUnretained(node)
    } else {
      deliveries.append(.passUnretained(node))
      hasMoreDeliveries = true
    }
  }

  private static func deliver(_ node: GraphNode) {
    if node.isDetached {
      node.observers.cancelReservedDelivery()
    } else {
      node.deliver(node.deliveryEnd)
    }
  }

  private static func deliverTheRest() {
    var index = 0
    while index < deliveries.count {
      deliveries[index].withNode(deliver)
      index += 1
    }
    deliveries.removeAll(keepingCapacity: true)
    hasMoreDeliveries = false
  }
}
