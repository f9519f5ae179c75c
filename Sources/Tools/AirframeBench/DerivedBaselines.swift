// The baselines of figure 4: a derived chain and a diamond written by hand through
// closures, and the diamond as an Observation user would write it.

import Observation

/// The hand-written chain: f, a duplicate check, g and the observer, through closures.
@MainActor
final class ClosureChain {
  var value: Int
  private var lastMapped: Int
  private let transform: (Int) -> Int
  private let finish: (Int) -> Int
  private let observer: (Int) -> Void

  init(
    _ value: Int,
    transform: @escaping (Int) -> Int,
    finish: @escaping (Int) -> Int,
    observer: @escaping (Int) -> Void
  ) {
    self.value = value
    self.transform = transform
    self.finish = finish
    self.observer = observer
    self.lastMapped = transform(value)
  }

  func set(_ newValue: Int) {
    value = newValue
    let mapped = transform(newValue)
    guard mapped != lastMapped else { return }
    lastMapped = mapped
    observer(finish(mapped))
  }
}

/// The hand-written diamond: both branches, each compared with its previous result, then
/// their combination, compared too, then the observer; what the derived diamond does,
/// minus the graph.
@MainActor
final class ClosureDiamond {
  var value: Int
  private var lastLeft: Int
  private var lastRight: Int
  private var lastCombined: Int
  private let left: (Int) -> Int
  private let right: (Int) -> Int
  private let combine: (Int, Int) -> Int
  private let observer: (Int) -> Void

  init(
    _ value: Int,
    left: @escaping (Int) -> Int,
    right: @escaping (Int) -> Int,
    combine: @escaping (Int, Int) -> Int,
    observer: @escaping (Int) -> Void
  ) {
    self.value = value
    self.left = left
    self.right = right
    self.combine = combine
    self.observer = observer
    lastLeft = left(value)
    lastRight = right(value)
    lastCombined = combine(lastLeft, lastRight)
  }

  func set(_ newValue: Int) {
    value = newValue
    let newLeft = left(newValue)
    let newRight = right(newValue)
    guard newLeft != lastLeft || newRight != lastRight else { return }
    lastLeft = newLeft
    lastRight = newRight
    let combined = combine(newLeft, newRight)
    guard combined != lastCombined else { return }
    lastCombined = combined
    observer(combined)
  }
}

/// The diamond in Observation: one observer re-tracking a read that combines two values
/// computed from one property, the way a SwiftUI body reads two computed properties.
///
/// Observation is lazy, so it has no intermediate combination to publish: each write
/// fires onChange once, and the re-tracking read computes both branches. As in figure 1,
/// onChange runs before the write is stored, so the read sees the previous value.
///
/// `@unchecked Sendable` for the same reason as `RetrackingObservers`.
final class RetrackingDiamond: @unchecked Sendable {
  let model = ObservedModel()
  /// The number of onChange calls.
  private(set) var deliveries = 0
  /// The sum of the combinations read while re-tracking.
  private(set) var total = 0

  init() { track() }

  private func track() {
    let read = withObservationTracking {
      (model.value &* 2) &+ (model.value &* 3)
    } onChange: { [self] in
      deliveries += 1
      track()
    }
    total &+= read
  }
}
