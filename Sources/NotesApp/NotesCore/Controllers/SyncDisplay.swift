public import Airframe

/// What a View State Controller shows of the model's sync status: a sync shows as running
/// only once it has lasted a short delay.
///
/// The model tells the truth: its status is `.syncing` from the first moment of every sync.
/// The app starts a sync on its own after each edit, and most of those end within a few
/// milliseconds; a title and a status bar that showed each one would flicker on every
/// keystroke. Not flickering is a presentation's choice, so it is view state, here, and
/// the window title's and the status bar's controllers each own one.
///
/// ## Guarantees
///
/// - While the model's status is `.syncing` and the sync started less than `delay` ago,
///   ``shown(_:)`` is the status shown before the sync started; from the delay on it is
///   the model's status, with its latest progress.
/// - A sync's end (success, failure or cancellation) shows at once, and ends the timer. A
///   timer runs only while a sync runs and is not yet shown: nothing polls, nothing waits
///   while no sync runs.
/// - A delay of zero shows every sync from its first moment.
/// - Time passes on the scheduler given, so tests drive the delay with a virtual clock.
/// - ``onReveal`` runs when the delay ends with the sync still running, so the owner renders
///   again; a commit's change of the status is the owner's to render, as it renders any
///   commit.
@MainActor
public final class SyncDisplay {
  /// How long a sync runs before a title or a status bar shows it, unless told otherwise.
  public static let standardDelay: Duration = .milliseconds(500)

  private let delay: Duration
  private let scheduler: any WorkScheduler
  /// The status shown before the running sync started.
  private var beforeSync: SyncStatus
  /// Whether the running sync is shown.
  private var isRevealed: Bool
  /// Ends the running sync's delay; `nil` while no sync waits to be shown.
  private var timer: Task<Void, Never>?
  /// Counts the timers started, so a timer that wakes after its sync ended (and another
  /// began) reveals nothing.
  private var timers = 0

  /// Runs when a sync shows because its delay ended.
  public var onReveal: (@MainActor () -> Void)?

  /// Creates the display of a model's status as it is now.
  ///
  /// - Parameters:
  ///   - status: The model's sync status now; a sync already running shows at once.
  ///   - delay: How long a sync runs before it shows.
  ///   - scheduler: Where the delay passes.
  public init(status: SyncStatus, delay: Duration, scheduler: any WorkScheduler) {
    self.delay = delay
    self.scheduler = scheduler
    beforeSync = status
    if case .syncing = status { isRevealed = true } else { isRevealed = false }
  }

  /// The status to show while the model's status is `status`.
  ///
  /// - Parameter status: The model's sync status.
  /// - Returns: `status`, or the status shown before a sync that is not shown yet.
  public func shown(_ status: SyncStatus) -> SyncStatus {
    guard case .syncing = status, !isRevealed else { return status }
    return beforeSync
  }

  /// Follows a change of the model's status: starts the delay of a sync that starts, ends
  /// it when the sync ends.
  ///
  /// - Parameter status: The model's sync status after a commit.
  public func follow(_ status: SyncStatus) {
    guard case .syncing = status else {
      timer?.cancel()
      timer = nil
      isRevealed = false
      beforeSync = status
      return
    }
    guard !isRevealed, timer == nil else { return }
    guard delay > .zero else {
      isRevealed = true
      return
    }
    let scheduler = scheduler
    let delay = delay
    timers += 1
    let number = timers
    timer = scheduler.startTask { [weak self] in
      guard (try? await scheduler.sleep(for: delay)) != nil, let self else { return }
      self.reveal(timer: number)
    }
  }

  /// Stops the timer of the sync waiting to be shown, so nothing runs after its owner is
  /// cancelled.
  ///
  /// A later ``follow(_:)`` starts a timer again: the owner stops calling it when it stops
  /// following the model.
  public func cancel() {
    timer?.cancel()
    timer = nil
  }

  private func reveal(timer number: Int) {
    guard timer != nil, number == timers else { return }
    timer = nil
    isRevealed = true
    onReveal?()
  }

  // A plain (nonisolated) deinit: it touches only a `Task`, which is Sendable.
  deinit {
    timer?.cancel()
  }
}
