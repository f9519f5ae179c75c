// White-box checks of the observer list's first-observer box (ObserverList.first): what
// keeps a running observer's closure alive when it ends its own observation. The
// behaviour is pinned by SelfCancelTests; these pin the mechanism, because only an
// optimized build calls through the box without a retain, and the suite runs in debug.

import AirframeTesting
import Testing

@testable import AirframeBinding

@Suite(.noLiveBindings)
@MainActor
struct FirstObserverBoxTests {
  @Test func theFirstObserverOfAnEmptyListGetsTheBoxAndOnlyIt() {
    let source = StateSource(0)
    #expect(source.observers.first == nil)
    let first = source.observe { _ in }
    #expect(source.observers.first != nil)
    let second = source.observe { _ in }
    second.cancel()
    #expect(source.observers.first != nil, "cancelling another observer took the box")
    first.cancel()
    #expect(source.observers.first == nil)
    #expect(source.observers.firstBox == nil)
  }

  @Test func aBoxVacatedDuringItsOwnCallIsKeptUntilThePassEnds() {
    let source = StateSource(0)
    var during: [(first: Bool, retired: Bool)] = []
    var holder: Lifetime?
    holder = source.observe { value in
      guard value == 1 else { return }
      holder = nil
      during.append((source.observers.first != nil, source.observers.retiredFirst != nil))
    }
    source.set(1)
    #expect(holder == nil)
    #expect(during.count == 1)
    #expect(during.first?.first == false, "the box still answers for a vacated slot 0")
    #expect(during.first?.retired == true, "the running observer's box was released")
    #expect(source.observers.retiredFirst == nil, "the box outlived the pass")
  }

  @Test func aBoxVacatedInAReservedPassThatNeverRunsIsReleasedWithIt() {
    // A derived value released during a pass cancels its reserved delivery.
    let source = StateSource(0)
    var derived: DerivedState<Int>? = source.map { $0 * 2 }
    var lifetime: Lifetime?
    lifetime = derived?.observe { _ in }
    let list = derived?.output.observers
    let before = source.observe { value in
      guard value == 1 else { return }
      lifetime = nil
      derived = nil
    }
    source.set(1)
    #expect(lifetime == nil && derived == nil)
    #expect(list?.retiredFirst == nil)
    before.cancel()
  }
}
