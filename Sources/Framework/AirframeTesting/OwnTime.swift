/// The time a wait has had: wall-clock time, except that a stretch in which the waiting
/// code got no turn counts as at most a second.
///
/// A deadline is a safety net against a hang, not a measurement. In a parallel run every
/// main-actor test shares one thread, and a test whose body runs for a minute without
/// suspending holds it for that minute: a wait measured on the wall clock would fail
/// without ever having looked. Counted in the waiter's own time, such a stretch costs a
/// second, and the test's time limit remains the bound of last resort.
struct OwnTime {
  /// The longest a single stretch between two ticks counts.
  static let longestStretch = Duration.seconds(1)

  let clock = ContinuousClock()
  let start: ContinuousClock.Instant
  private var last: ContinuousClock.Instant
  /// The time counted so far.
  private(set) var counted = Duration.zero

  init(start: ContinuousClock.Instant = .now) {
    self.start = start
    last = start
  }

  /// Counts the time from the last tick to `now`, at most ``longestStretch``.
  mutating func tick(at now: ContinuousClock.Instant = .now) {
    counted += min(last.duration(to: now), Self.longestStretch)
    last = max(last, now)
  }

  /// The wall-clock time since the wait began.
  var waited: Duration { start.duration(to: clock.now) }
}
