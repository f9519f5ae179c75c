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
}
