/// An append-only, hole-tolerant list of observers with O(1) add and remove.
///
/// The delivery path is inlinable so that it is specialized for each element type in the
/// module that uses it; the bookkeeping (removal, compaction) is not.
///
/// ## Guarantees
/// - `deliver(_:)` calls each observer registered before the pass began, in registration
///   order. An observer removed during the pass is not called later in that pass; an
///   observer added during the pass is not called in that pass.
/// - A pass can be reserved before it runs (`reserveDelivery()` then
///   `deliverReserved(_:upTo:)`, which the derived graph uses to settle every value before
///   delivering any): it then calls the observers registered when it was reserved.
/// - `add` and removal are O(1) amortized: removal leaves a hole that delivery skips, the
///   last slot is popped directly, and holes are compacted (order preserved) only once
///   they make up half the list and no pass is running or reserved. Nothing is sorted or
///   searched.
/// - Observers are called with no lock held; the list is main-actor state.
/// - Cost of a call: the first observer is called without reference counting (see
///   ``ObserverList/first``); the others are copied out of the slot array, which retains
///   and releases their closure context around the call.
/// - The list never retains the lifetimes of its observers, so releasing a lifetime
///   ends the observation. Each lifetime retains the list (not the source that owns it),
///   so observing never keeps a source alive, and cancelling after the source is gone is
///   safe.
/// - A pass cannot start inside another pass of the same list; owners queue instead.
@usableFromInline
@MainActor
class ObserverSlots: LifetimeTarget {
  /// The lifetime of each slot, unretained, in registration order.
  ///
  /// A lifetime removes its slot before it is destroyed. Read only when compacting; its
  /// count is the number of slots. Accesses never overlap a call into user code, so the
  /// run-time exclusivity checks are skipped.
  @exclusivity(unchecked) @usableFromInline
  var lifetimes: ContiguousArray<Unmanaged<Lifetime>?> = []
  @exclusivity(unchecked) @usableFromInline
  var holes = 0
  /// Whether a pass is running or reserved: slots keep their positions until it ends.
  @exclusivity(unchecked) @usableFromInline
  var isDelivering = false

  /// The owner's name for the binding graph, such as `title`.
  var label: String?

  @usableFromInline
  override init() {}

  /// The number of live observers.
  @usableFromInline
  var count: Int { lifetimes.count - holes }

  /// Marks a pass as started and returns the number of slots it will visit.
  ///
  /// The pass visits the observers registered now; observers added before it runs are
  /// not called in it.
  func reserveDelivery() -> Int {
    precondition(!isDelivering, "ObserverList pass reserved twice; owners must queue")
    isDelivering = true
    return lifetimes.count
  }

  /// Ends a reserved pass that will not run after all.
  func cancelReservedDelivery() {
    isDelivering = false
    passEnded()
    if holes > 0 { compactIfNeeded() }
  }

  /// Lets go of what was kept alive only for the pass that just ended.
  func passEnded() {}

  /// Compacts the slots once holes make up half of them and no pass is running.
  @usableFromInline
  func compactIfNeeded() {}
}

/// The observers of one source, each called with the delivered `Element`; see
/// ``ObserverSlots`` for the guarantees.
@usableFromInline
@MainActor
final class ObserverList<Element>: ObserverSlots {
  /// One observer closure, stored at the abstraction of `add`'s parameter.
  ///
  /// An array of bare closures stores them at maximal abstraction
  /// (`(@in_guaranteed Element) -> @out ()`), so every `add` wrapped the closure in a
  /// heap-allocated reabstraction thunk.
  @usableFromInline
  struct Slot {
    /// `nil` marks a hole left by a cancellation.
    @usableFromInline
    var call: ((Element) -> Void)?

    @inlinable
    init(_ call: ((Element) -> Void)?) { self.call = call }
  }

  /// The observer of slot 0 once more, in an object of its own: set when an observer is
  /// added to an empty list, cleared when slot 0 is vacated.
  ///
  /// Why: calling a closure copied out of an array retains and releases its context
  /// around the call (the callee could empty the slot), two atomic operations that cost
  /// more than the rest of a one-observer delivery. A closure kept in a `let` of an
  /// object the list owns is called through a borrowed reference instead, with no
  /// reference counting. Most sources have one observer, so the first one gets the box;
  /// it costs one allocation per list that has observers, not one per observer.
  ///
  /// Unretained (an `Unmanaged` loads without a retain); `firstBox` owns it. A box whose
  /// observer is cancelled during a pass moves to `retiredFirst` until the pass ends: the
  /// observer may be the one running, and its context must outlive its call.
  @exclusivity(unchecked) @usableFromInline
  var first: Unmanaged<FirstObserver>?
  /// The owner of `first`'s box.
  @exclusivity(unchecked) @usableFromInline
  var firstBox: FirstObserver?
  /// A vacated `first`, kept until the running pass ends.
  @exclusivity(unchecked) @usableFromInline
  var retiredFirst: FirstObserver?

  /// A closure in an object of its own, so the delivery can call it through a borrowed
  /// reference.
  @usableFromInline
  final class FirstObserver {
    @usableFromInline
    let call: (Element) -> Void

    @usableFromInline
    init(_ call: @escaping (Element) -> Void) { self.call = call }
  }

  /// The observers in registration order.
  ///
  /// Accesses never overlap a call into user code (each one copies out one closure), so
  /// the run-time exclusivity check is skipped.
  @exclusivity(unchecked) @usableFromInline
  var observers: ContiguousArray<Slot> = []

  @usableFromInline
  override init() {}

  override var graphLabel: String { "\(label ?? "unlabeled") [\(Element.self)]" }

  /// Registers `observer` after every existing observer.
  @inlinable
  func add(_ observer: @escaping (Element) -> Void) -> Lifetime {
    let lifetime = Lifetime(target: self, handle: observers.count)
    if observers.isEmpty {
      let box = FirstObserver(observer)
      firstBox = box
      first = .passUnretained(box)
    }
    observers.append(Slot(observer))
    lifetimes.append(Unmanaged.passUnretained(lifetime))
    return lifetime
  }

  /// Calls every observer present when the pass begins, in registration order.
  @inlinable
  func deliver(_ element: Element) {
    precondition(!isDelivering, "ObserverList.deliver re-entered; owners must queue")
    if observers.isEmpty { return }
    isDelivering = true
    deliverReserved(element, upTo: observers.count)
  }

  /// Runs a pass reserved with `reserveDelivery()`: calls the observers in the first
  /// `end` slots, in registration order, skipping those cancelled since.
  @inlinable
  func deliverReserved(_ element: Element, upTo end: Int) {
    var index = 0
    // Slot 0 through its box while slot 0 holds the observer the box was made for.
    if end > 0, let first {
      first.call(with: element)
      index = 1
    }
    while index < end {
      if let observer = observers[index].call {
        observer(element)
      }
      index += 1
    }
    isDelivering = false
    if retiredFirst != nil { retiredFirst = nil }
    if holes > 0 { compactIfNeeded() }
  }

  override func passEnded() {
    retiredFirst = nil
  }

  override func lifetimeDidEnd(handle: Int) {
    if handle == 0, first != nil {
      first = nil
      if isDelivering { retiredFirst = firstBox }
      firstBox = nil
    }
    observers[handle].call = nil
    lifetimes[handle] = nil
    if handle == observers.count - 1, !isDelivering {
      observers.removeLast()
      lifetimes.removeLast()
      while let last = observers.last, last.call == nil {
        observers.removeLast()
        lifetimes.removeLast()
        holes -= 1
      }
    } else {
      holes += 1
      compactIfNeeded()
    }
  }

  @usableFromInline
  override func compactIfNeeded() {
    guard !isDelivering, holes > 16, holes * 2 >= observers.count else { return }
    OffMainReleases.ifNonePending { compact() }
  }

  /// Removes the holes, keeping order, and renumbers the live lifetimes' handles.
  private func compact() {
    var kept = 0
    for index in observers.indices where observers[index].call != nil {
      lifetimes[index]?._withUnsafeGuaranteedRef { $0.handle = kept }
      observers[kept] = observers[index]
      lifetimes[kept] = lifetimes[index]
      kept += 1
    }
    observers.removeLast(observers.count - kept)
    lifetimes.removeLast(lifetimes.count - kept)
    holes = 0
  }
}

extension Unmanaged {
  /// Calls the observer in the box, neither retaining nor releasing the box or the
  /// observer's context.
  ///
  /// The list keeps the box, and the context with it, alive until the pass ends. Not
  /// main-actor code: a closure literal handed to the standard library from main-actor
  /// code would check the executor on every call.
  @inlinable @inline(__always)
  func call<Element>(with element: Element)
  where Instance == ObserverList<Element>.FirstObserver {
    _withUnsafeGuaranteedRef { $0.call(element) }
  }
}
