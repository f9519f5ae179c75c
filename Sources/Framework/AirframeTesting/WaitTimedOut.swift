public import Testing

/// A bounded wait that ended without what it waited for: what that was, how long it
/// waited, and the last value it saw.
///
/// The waits of AirframeTesting
/// (``eventually(_:within:isolation:sourceLocation:_:satisfies:)``,
/// ``withDeadline(_:within:isolation:sourceLocation:_:)``,
/// ``TestScheduler/waitForSleepers(_:within:isolation:sourceLocation:)``) throw it when
/// their deadline passes, and as soon as the waiting task is cancelled, as
/// Swift Testing cancels a test that runs past its time limit. A test that throws it ends
/// at the wait that failed, rather than going on into a later wait for something that can
/// no longer happen; the test's time limit then only has to catch what no wait bounds.
///
/// Its description is the whole report:
///
/// ```
/// Timed out after 20.0 s waiting until the sync's step sleeps on the test's clock
/// (SessionGestureTests.swift:189:5); the last value seen: 0
/// ```
public struct WaitTimedOut: Error, CustomStringConvertible, Sendable {
  /// What the wait waited for, as a phrase that follows "waiting until".
  public var awaited: String
  /// The deadline the wait was given.
  public var limit: Duration
  /// How long it waited before it gave up.
  public var waited: Duration
  /// The last value the wait saw, described; `nil` when it had none to see (work that had
  /// not returned).
  public var lastValue: String?
  /// Whether the wait ended because its task was cancelled, before its deadline.
  public var wasCancelled: Bool
  /// Where the wait was called.
  public var sourceLocation: SourceLocation

  /// A wait that ended without `awaited`.
  ///
  /// - Parameters:
  ///   - awaited: What it waited for, as a phrase that follows "waiting until".
  ///   - limit: The deadline it was given.
  ///   - waited: How long it waited.
  ///   - lastValue: The last value it saw, described, if any.
  ///   - wasCancelled: Whether its task was cancelled before the deadline.
  ///   - sourceLocation: Where it was called.
  public init(
    awaited: String, limit: Duration, waited: Duration, lastValue: String? = nil,
    wasCancelled: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.awaited = awaited
    self.limit = limit
    self.waited = waited
    self.lastValue = lastValue
    self.wasCancelled = wasCancelled
    self.sourceLocation = sourceLocation
  }

  /// What ended the wait, what it waited for, where, and the last value it saw.
  public var description: String {
    let place = "\(sourceLocation.fileName):\(sourceLocation.line):\(sourceLocation.column)"
    let ending =
      wasCancelled
      ? "Cancelled after \(Self.seconds(waited)) (its deadline was \(Self.seconds(limit)))"
      : "Timed out after \(Self.seconds(waited))"
    let seen = lastValue.map { "; the last value seen: \($0)" } ?? ""
    return "\(ending) waiting until \(awaited) (\(place))\(seen)"
  }

  /// `duration` in seconds with one decimal, such as "20.0 s".
  private static func seconds(_ duration: Duration) -> String {
    let tenths = (duration / .milliseconds(100)).rounded()
    return "\(tenths / 10) s"
  }
}
