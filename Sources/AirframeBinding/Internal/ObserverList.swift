// ObserverList: the registration-ordered observers behind every push primitive.
//
// Guarantees
// - `deliver(_:)` calls each observer registered before the pass began, in registration
//   order. An observer removed during the pass is not called later in that pass; an
//   observer added during the pass is not called in that pass.
// - `add` and removal are O(1) amortized: removal leaves a hole that delivery skips, the
//   last slot is popped directly, and holes are compacted (order preserved) only once
//   they make up half the list and no pass is running. Nothing is sorted or searched.
// - Observers are called with no lock held; the list is main-actor state.
// - The list never retains the lifetimes of its observers, so releasing a lifetime
//   ends the observation. Each lifetime retains the list (not the source that owns it),
//   so observing never keeps a source alive, and cancelling after the source is gone is
//   safe.
// - A pass cannot start inside another pass of the same list; owners queue instead.

/// An append-only, hole-tolerant list of observers with O(1) add and remove.
@MainActor
final class ObserverList<Element>: LifetimeTarget {
  private struct Slot {
    var observer: ((Element) -> Void)?
    /// Unretained: the lifetime removes its slot before it is destroyed.
    var lifetime: Unmanaged<Lifetime>?
  }

  private var slots: ContiguousArray<Slot> = []
  private var holes = 0
  private(set) var isDelivering = false

  /// The number of live observers.
  var count: Int { slots.count - holes }

  /// Registers `observer` after every existing observer.
  func add(_ observer: @escaping (Element) -> Void) -> Lifetime {
    let lifetime = Lifetime(target: self, handle: slots.count)
    slots.append(Slot(observer: observer, lifetime: Unmanaged.passUnretained(lifetime)))
    return lifetime
  }

  /// Calls every observer present when the pass begins, in registration order.
  func deliver(_ element: Element) {
    precondition(!isDelivering, "ObserverList.deliver re-entered; owners must queue")
    isDelivering = true
    let end = slots.count
    var index = 0
    while index < end {
      if let observer = slots[index].observer {
        observer(element)
      }
      index += 1
    }
    isDelivering = false
    compactIfNeeded()
  }

  func lifetimeDidEnd(handle: Int) {
    slots[handle] = Slot(observer: nil, lifetime: nil)
    if handle == slots.count - 1, !isDelivering {
      slots.removeLast()
      while let last = slots.last, last.observer == nil {
        slots.removeLast()
        holes -= 1
      }
    } else {
      holes += 1
      compactIfNeeded()
    }
  }

  private func compactIfNeeded() {
    guard !isDelivering, holes > 16, holes * 2 >= slots.count else { return }
    var kept = 0
    for index in slots.indices where slots[index].observer != nil {
      let slot = slots[index]
      slot.lifetime?._withUnsafeGuaranteedRef { $0.handle = kept }
      slots[kept] = slot
      kept += 1
    }
    slots.removeLast(slots.count - kept)
    holes = 0
  }
}
