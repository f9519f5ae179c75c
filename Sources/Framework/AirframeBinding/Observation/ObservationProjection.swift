import Observation

/// A projection of state kept in `@Observable` objects, re-read whenever Observation
/// reports that something the read used has changed.
///
/// ```swift
/// @Observable final class Counter { var count = 0 }
/// let counter = Counter()
/// let count = ObservationProjection { counter.count }
/// let lifetime = count.observe { print($0) }   // prints 0
/// counter.count = 1                            // prints 1 on the main actor's next turn
/// ```
///
/// ## Guarantees
/// - Replay: the read runs once at creation, inside `withObservationTracking`; observing
///   replays the value it produced, synchronously.
/// - Scheduling: Observation reports a change before the new value is stored (willSet),
///   possibly on another thread. The projection therefore re-reads later: it hands one job
///   to its `WorkScheduler` (by default a main-actor task), which runs the read again
///   under fresh tracking (the re-tracking loop) and delivers the result. Several changes
///   before that job runs coalesce into one re-read, which sees the latest state.
/// - Delivery: after the re-read, synchronously on the main actor, in registration order,
///   like `StateSource`; equal values are suppressed when `Value` is Equatable.
/// - Lifetime: releasing the projection stops the loop: a pending re-read does nothing
///   and no tracking is re-registered.
@MainActor
public final class ObservationProjection<Value>: StateProjection {
  /// Lets the tracking callback find the projection without retaining it.
  @MainActor
  private final class WeakReference {
    weak var projection: ObservationProjection<Value>?
  }

  private let read: @MainActor () -> Value
  private let output: StateSource<Value>
  private let reference: WeakReference
  private let scheduler: any WorkScheduler

  /// The number of re-reads performed after a change was reported.
  public private(set) var rereadCount = 0

  private init(
    read: @escaping @MainActor () -> Value,
    scheduler: any WorkScheduler,
    output: (Value) -> StateSource<Value>
  ) {
    let reference = WeakReference()
    self.read = read
    self.reference = reference
    self.scheduler = scheduler
    self.output = output(Self.trackedRead(read, reference: reference, scheduler: scheduler))
    reference.projection = self
  }

  /// Creates a projection of what `read` returns; every write is delivered.
  ///
  /// - Parameters:
  ///   - scheduler: Where re-reads run; a main-actor task per change by default.
  ///   - read: Reads `@Observable` state; runs now and after each change.
  public convenience init(
    scheduler: any WorkScheduler = .mainActor,
    _ read: @escaping @MainActor () -> Value
  ) {
    self.init(read: read, scheduler: scheduler, output: { StateSource($0) })
  }

  /// The value of the latest read.
  public var value: Value { output.value }

  /// Replays the latest read, then delivers each re-read value.
  ///
  /// - Parameter observer: Called synchronously on the main actor.
  /// - Returns: The lifetime of the observation.
  public func observe(_ observer: @escaping (Value) -> Void) -> Lifetime {
    output.observe(observer)
  }

  /// Runs `read` under tracking; the first change schedules one re-read on the main actor.
  private static func trackedRead(
    _ read: @MainActor () -> Value,
    reference: WeakReference,
    scheduler: any WorkScheduler
  ) -> Value {
    withObservationTracking {
      read()
    } onChange: {
      scheduler.schedule { reference.projection?.reread() }
    }
  }

  private func reread() {
    rereadCount += 1
    output.set(Self.trackedRead(read, reference: reference, scheduler: scheduler))
  }
}

extension ObservationProjection where Value: Equatable {
  /// Creates a projection of what `read` returns; equal values are not delivered again.
  ///
  /// - Parameters:
  ///   - scheduler: Where re-reads run; a main-actor task per change by default.
  ///   - read: Reads `@Observable` state; runs now and after each change.
  public convenience init(
    scheduler: any WorkScheduler = .mainActor,
    _ read: @escaping @MainActor () -> Value
  ) {
    self.init(read: read, scheduler: scheduler, output: { StateSource($0) })
  }
}

extension ObservationProjection: DerivationInput {
  @usableFromInline
  var derivationSource: StateSource<Value> { output }

  @usableFromInline
  var derivationNode: GraphNode { output.graphNode() }
}
