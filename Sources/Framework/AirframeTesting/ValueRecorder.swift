public import AirframeBinding
public import Testing

/// Records every value a projection, event channel or outcome stream delivers.
///
/// ```swift
/// let title = StateSource("a")
/// let recorder = ValueRecorder(title)
/// title.set("b")
/// #expect(recorder.values == ["a", "b"])
/// recorder.cancel()
/// ```
///
/// ## Guarantees
/// - Records every delivery in order, including the replay made while it starts.
/// - Stops recording when cancelled or released; its observation is a normal lifetime, so
///   the live-binding check counts it until then.
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

  /// Records every pending outcome, then each new one, through a read-only view.
  ///
  /// - Parameter outcomes: The view of the outcomes to record.
  public convenience init(_ outcomes: PendingOutcomes<Value>) where Value: Identifiable {
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

  /// Waits until `condition` holds for the recorded values, for at most `timeout`.
  ///
  /// Use it for deliveries that arrive on later main-actor turns from work the test did
  /// not schedule itself (see ``eventually(timeout:isolation:_:)``); with a
  /// ``TestScheduler``, run it until idle and assert on ``values`` instead.
  ///
  /// - Parameters:
  ///   - timeout: The longest to wait.
  ///   - condition: The state to wait for.
  /// - Returns: Whether `condition` held before the timeout.
  @discardableResult
  public func waitUntil(
    timeout: Duration = .seconds(20),
    _ condition: ([Value]) -> Bool
  ) async -> Bool {
    await eventually(timeout: timeout) { condition(values) }
  }

  /// Waits until `condition` holds for the recorded values; throws ``WaitTimedOut``, naming
  /// what it waited for and the values recorded, when `limit` passes first or the waiting
  /// task is cancelled.
  ///
  /// The form of ``waitUntil(timeout:_:)`` that ends the test where the wait failed and
  /// says why (see ``eventually(_:within:isolation:sourceLocation:_:satisfies:)``).
  ///
  /// - Parameters:
  ///   - awaited: What the test waits for, as a phrase that follows "waiting until".
  ///   - limit: The longest to wait.
  ///   - sourceLocation: Where the wait is, for the report.
  ///   - condition: The state to wait for.
  /// - Returns: The values recorded once `condition` held.
  /// - Throws: ``WaitTimedOut`` past `limit` or on cancellation.
  @discardableResult
  public func waitUntil(
    _ awaited: String, within limit: Duration = .seconds(20),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: ([Value]) -> Bool
  ) async throws -> [Value] {
    try await eventually(awaited, within: limit, sourceLocation: sourceLocation) {
      values
    } satisfies: {
      condition($0)
    }
  }
}
