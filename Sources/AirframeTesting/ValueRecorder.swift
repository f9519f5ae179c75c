// ValueRecorder: records what a binding delivers, for assertions.
//
// Guarantees
// - Records every delivery in order, including the replay made while it starts.
// - Stops recording when cancelled or released; its observation is a normal lifetime, so
//   the live-binding check counts it until then.

public import AirframeBinding

/// Records every value a projection, event channel or outcome stream delivers.
///
/// ```swift
/// let title = StateSource("a")
/// let recorder = ValueRecorder(title)
/// title.set("b")
/// #expect(recorder.values == ["a", "b"])
/// recorder.cancel()
/// ```
@MainActor
public final class ValueRecorder<Value> {
  /// Holds the values; the observer closure captures it instead of the recorder, so the
  /// recorder is not kept alive by its own observation.
  @MainActor
  private final class Storage {
    var values: [Value] = []
  }

  private let storage = Storage()
  private let lifetime: Lifetime

  /// Every delivered value, oldest first.
  public var values: [Value] { storage.values }

  /// Starts recording whatever `subscribe` delivers to the observer it is given.
  ///
  /// - Parameter subscribe: Registers the recorder's observer and returns its lifetime.
  public init(subscribe: (@escaping (Value) -> Void) -> Lifetime) {
    let storage = storage
    lifetime = subscribe { storage.values.append($0) }
  }

  /// Records a state projection: its replay, then every later value.
  ///
  /// - Parameter projection: The projection to record.
  public convenience init<Projection: StateProjection>(_ projection: Projection)
  where Projection.Value == Value {
    self.init(subscribe: projection.observe)
  }

  /// Records every event sent from now on.
  ///
  /// - Parameter channel: The channel to record.
  public convenience init(_ channel: EventChannel<Value>) {
    self.init(subscribe: channel.observe)
  }

  /// Records every pending outcome, then each new one.
  ///
  /// - Parameter outcomes: The outcomes to record.
  public convenience init(_ outcomes: DurableOutcomes<Value>) where Value: Identifiable {
    self.init(subscribe: outcomes.observe)
  }

  /// The most recent value, if any.
  public var last: Value? { values.last }

  /// Forgets the values recorded so far; recording continues.
  public func removeAll() { storage.values.removeAll() }

  /// Whether the recorder is still recording.
  public var isRecording: Bool { !lifetime.isCancelled }

  /// Stops recording.
  public func cancel() {
    lifetime.cancel()
  }

  /// Waits, a bounded number of main-actor turns, until `condition` holds for the values.
  ///
  /// Use it for deliveries scheduled on the main actor (such as
  /// ``ObservationProjection``'s re-reads); it never waits on the clock.
  ///
  /// - Parameters:
  ///   - turns: The most main-actor turns to yield before giving up.
  ///   - condition: The state to wait for.
  /// - Returns: Whether `condition` held before the turns ran out.
  @discardableResult
  public func waitUntil(
    turns: Int = 1_000,
    _ condition: ([Value]) -> Bool
  ) async -> Bool {
    for _ in 0..<turns {
      if condition(values) { return true }
      await Task.yield()
    }
    return condition(values)
  }
}
