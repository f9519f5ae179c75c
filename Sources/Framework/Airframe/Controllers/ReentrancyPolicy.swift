/// What an ``AsyncActionController`` does when its command is triggered again while an
/// earlier run is still suspended at an `await`.
public enum ReentrancyPolicy: Sendable, Equatable {
  /// Refuse the new run (outcome `.rejected`) until the running one has finished.
  case rejectWhileRunning
  /// Cancel the running one (its result is never committed) and start the new run.
  case cancelPrevious
  /// Start the new run after every earlier run has finished, in trigger order.
  case queue
  /// Run both; each commits its own result when it finishes.
  case allowConcurrent
  /// Run once more after the running one, for every trigger that came meanwhile.
  ///
  /// A trigger during a run starts nothing at once: it is remembered, and when the run
  /// finishes one more run starts, with the latest trigger's input. However many triggers
  /// come during a run, they cost one more run, and each of them gets that run's outcome.
  /// The policy of work that must see every trigger but need not run once per trigger,
  /// such as pushing edits to a server while the user types.
  case coalesce
}
