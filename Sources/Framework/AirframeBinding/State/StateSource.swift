import Observation

/// Writable state with a stated delivery contract.
///
/// A state source holds one value. Observers are replayed the current value when they
/// start and then get each committed value, synchronously, in the order they registered,
/// after the value is stored.
///
/// ```swift
/// let title = StateSource("Untitled")
/// let lifetime = title.observe { print("title:", $0) }   // prints "title: Untitled"
/// title.set("Groceries")                                  // prints "title: Groceries"
/// title.set("Groceries")                                  // duplicate: prints nothing
/// ```
///
/// A write made by an observer while a value is being delivered is queued and delivered
/// after the current pass, so all observers see the same sequence of values.
///
/// - Complexity: ``observe(_:)`` and cancelling its lifetime are O(1) amortized;
///   ``set(_:)`` is O(*n*) in the number of observers.
///
/// ## Guarantees
/// - Replay: `observe` calls the new observer with the stored value before returning.
/// - Delivery: each committed value is delivered synchronously, to observers in
///   registration order, after it is stored: inside an observer, `value` is the value
///   being delivered (never willSet-style).
/// - Duplicates: for Equatable values a write equal to the stored value is suppressed,
///   unless the source was created with `deliversDuplicates: true` or a custom
///   `isDuplicate` predicate decides otherwise. Non-Equatable values always deliver.
/// - Writes during delivery: a `set` called while a pass is running is queued. It is
///   stored and delivered when the current pass has finished, in the order written, so
///   every observer sees the same values in the same order. All queued writes have been
///   delivered by the time the outermost `set` returns.
/// - Derived values: a source that derived values read (see ``DerivedState``) delivers
///   each write in a pass of the derived graph: every derived value settles first, then
///   the source's observers hear of the write, then the derived values' observers. Its
///   pass lasts until the last of them; a write to any source that feeds the graph,
///   made during a pass, is queued until the pass has finished.
/// - Cancelling during delivery: an observer cancelled during a pass is not called again,
///   not even later in that pass.
/// - Observing during delivery: an observer added during a pass is replayed the stored
///   value (the one being delivered) and is not called again for it in that pass.
/// - Cost: observe and cancel are O(1) amortized; a write is O(observers), with no sort
///   or search.
/// - Observation: reading `value` inside `withObservationTracking` (and so inside a
///   SwiftUI body or an `Observations` sequence) registers the read; the next committed
///   write fires that tracking's onChange, before the value is stored, exactly as an
///   `@Observable` property does. Duplicates suppressed by the source do not fire it.
/// - Writes to a source whose `value` has never been read skip Observation's registrar:
///   nothing can be tracking a value nobody read. Once read, every commit goes through it.
/// - Reads the framework makes for its own bookkeeping (a derived value recomputing from
///   its inputs) are untracked: they neither register with an enclosing tracking scope nor
///   switch a source onto the registrar path.
@MainActor
public final class StateSource<Value>: StateProjection {
  // The hot paths (`observe`, `set`, `commit`) are inlinable so that they are specialized
  // for each `Value` where they are used; the rare paths (queueing, Observation) are not.
  @exclusivity(unchecked) @usableFromInline
  var stored: Value
  @usableFromInline
  let isDuplicate: ((Value, Value) -> Bool)?
  @usableFromInline
  let observers = ObserverList<Value>()
  /// Writes queued during this source's own pass, outside a pass of the derived graph;
  /// made on first use.
  lazy var queued = Backlog<Value>()
  /// Whether `queued` holds writes; a stored flag keeps the write path free of generic
  /// collection calls.
  @exclusivity(unchecked) @usableFromInline
  var hasQueuedWrites = false
  /// The number of queued writes (here or in the derived graph) not yet applied.
  var pendingWrites = 0
  /// The most recently queued write, while `pendingWrites > 0`: what ``update(_:)``
  /// changes.
  var latestPendingWrite: Value?
  /// The source's node in the derived graph, made when the first derived value reads it.
  var node: GraphNode?
  /// `node`, unretained: the write path follows it without reference counting.
  @exclusivity(unchecked) @usableFromInline
  var nodeLink: Unmanaged<GraphNode>?
  /// Set when `value` is read from outside, so writes notify Observation only for sources
  /// that somebody may be tracking (see StateSource+Observable.swift).
  @exclusivity(unchecked) @usableFromInline
  var mayBeTracked = false
  let registrar = ObservationRegistrar()
  /// Built once: forming `\.value` in generic code costs a run-time key-path lookup.
  let valueKeyPath: KeyPath<StateSource<Value>, Value> = \.value

  /// Creates a source that delivers every write, for values that are not `Equatable`.
  ///
  /// - Parameter initialValue: The value replayed to the first observer.
  public init(_ initialValue: Value) {
    self.stored = initialValue
    self.isDuplicate = nil
  }

  /// Creates a source that decides with `isDuplicate` which writes to suppress.
  ///
  /// - Parameters:
  ///   - initialValue: The value replayed to the first observer.
  ///   - isDuplicate: Returns `true` when a write (second argument) should be suppressed
  ///     because it repeats the stored value (first argument).
  public init(_ initialValue: Value, isDuplicate: @escaping (Value, Value) -> Bool) {
    self.stored = initialValue
    self.isDuplicate = isDuplicate
  }

  /// The current value.
  ///
  /// Reading it inside `withObservationTracking` (or a SwiftUI body) registers the read,
  /// so a later write invalidates that tracking.
  public var value: Value {
    if UntrackedReads.depth == 0 {
      mayBeTracked = true
      registrar.access(self, keyPath: valueKeyPath)
    }
    return stored
  }

  /// The name of this source in the binding graph (see `BindingLedger.graphDescription`).
  public var label: String? {
    get { observers.label }
    set { observers.label = newValue }
  }

  /// The number of live observers (derived values that read this source are not
  /// observers).
  public var observerCount: Int { observers.count }

  /// Whether a write made now would be queued.
  ///
  /// That is while this source delivers a value, or while the derived graph it feeds runs
  /// a pass.
  public var isDelivering: Bool { observers.isDelivering || isHeldByGraphPass }

  /// Calls `observer` with the current value now, and with each later committed value.
  ///
  /// - Parameter observer: Called synchronously on the main actor.
  /// - Returns: The lifetime of the observation; cancel or release it to stop.
  /// - Complexity: O(1) amortized.
  @inlinable
  public func observe(_ observer: @escaping (Value) -> Void) -> Lifetime {
    let lifetime = observers.add(observer)
    observer(stored)
    return lifetime
  }

  /// Stores `newValue` and delivers it to every observer, unless it is a duplicate.
  ///
  /// Called during a delivery pass, the write is queued and takes effect after the pass;
  /// until then ``value`` still returns the value being delivered.
  ///
  /// - Parameter newValue: The value to commit.
  /// - Complexity: O(*n*) in the number of observers.
  @inlinable
  public func set(_ newValue: Value) {
    if observers.isDelivering || isHeldByGraphPass {
      enqueue(newValue)
      return
    }
    commit(newValue)
    if hasQueuedWrites { drainQueue() }
  }

  /// Changes the value in place and commits the result like ``set(_:)``.
  ///
  /// While writes are queued, `change` receives the latest of them, so two updates made
  /// during one pass both take effect.
  ///
  /// - Parameter change: Receives a copy of the current value to modify.
  public func update(_ change: (inout Value) -> Void) {
    var copy = latestPendingWrite ?? stored
    change(&copy)
    set(copy)
  }

  /// Whether this source feeds the derived graph while a pass of it runs.
  @inlinable
  var isHeldByGraphPass: Bool {
    guard let nodeLink else { return false }
    return nodeLink.withNode { $0.feedsGraph } && DerivedGraph.isRunning
  }

  @inlinable
  func commit(_ newValue: Value) {
    // Optional chaining calls the predicate without retaining it.
    if isDuplicate?(stored, newValue) == true { return }
    store(newValue)
    if let nodeLink {
      nodeLink.withNode { node in
        guard node.feedsGraph else {
          observers.deliver(newValue)
          return
        }
        DerivedGraph.settle(from: node)
        observers.deliver(newValue)
        DerivedGraph.finish()
      }
    } else {
      observers.deliver(newValue)
    }
  }

  /// Stores `newValue`, telling Observation if anybody may be tracking; delivers nothing.
  @inlinable
  func store(_ newValue: Value) {
    if mayBeTracked {
      storeNotifyingObservation(newValue)
    } else {
      stored = newValue
    }
  }

  @usableFromInline
  func storeNotifyingObservation(_ newValue: Value) {
    registrar.willSet(self, keyPath: valueKeyPath)
    stored = newValue
    registrar.didSet(self, keyPath: valueKeyPath)
  }

  /// Queues a write made during a pass: in the derived graph when this source feeds a
  /// running pass of it (the graph applies it after the pass, in order with writes to
  /// other sources), otherwise here, for the outermost `set` to apply.
  @usableFromInline
  func enqueue(_ newValue: Value) {
    pendingWrites += 1
    latestPendingWrite = newValue
    if isHeldByGraphPass {
      DerivedGraph.afterPass { [self] in applyQueued(newValue) }
    } else {
      queued.append(newValue)
      hasQueuedWrites = true
    }
  }

  @usableFromInline
  func drainQueue() {
    queued.drain(applyQueued)
    hasQueuedWrites = !queued.isEmpty
  }

  /// Gives a queued write its turn, as a `set` made now.
  private func applyQueued(_ newValue: Value) {
    pendingWrites -= 1
    if pendingWrites == 0 { latestPendingWrite = nil }
    set(newValue)
  }

  /// The source's node in the derived graph, made on first use.
  func graphNode() -> GraphNode {
    if let node { return node }
    let made = GraphNode(sourceWith: observers)
    node = made
    nodeLink = .passUnretained(made)
    return made
  }
}

extension StateSource where Value: Equatable {
  /// Creates a source that suppresses writes equal to the stored value.
  ///
  /// - Parameter initialValue: The value replayed to the first observer.
  @inlinable
  public convenience init(_ initialValue: Value) {
    self.init(initialValue, isDuplicate: { $0 == $1 })
  }

  /// Creates a source that suppresses equal writes unless told to deliver them.
  ///
  /// - Parameters:
  ///   - initialValue: The value replayed to the first observer.
  ///   - deliversDuplicates: Pass `true` to deliver every write, equal or not.
  @inlinable
  public convenience init(_ initialValue: Value, deliversDuplicates: Bool) {
    self.init(initialValue, isDuplicate: { deliversDuplicates ? false : $0 == $1 })
  }
}
