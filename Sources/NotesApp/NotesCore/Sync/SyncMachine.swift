public import Airframe

/// What asks for a sync.
public enum SyncTrigger: Sendable, Equatable, CaseIterable {
  /// The user chose Sync Now.
  case user
  /// Live sync began (the library opened with a server).
  case start
  /// The user committed a change (an edit, a new note, an undo).
  case edit
  /// The server said another device pushed, or its signal connection was made again.
  case signal
  /// The wait after a failed sync ended.
  case retry

  /// What a trigger does while a sync runs.
  ///
  /// The user's Sync Now is refused with a reason (`ReentrancyPolicy.rejectWhileRunning`):
  /// the sync they asked for is the one running. Every automatic trigger is coalesced
  /// (`ReentrancyPolicy.coalesce`): one more sync runs after the running one, however
  /// many triggers came meanwhile, so a burst of typing costs two syncs, not one a key.
  public var whileRunning: ReentrancyPolicy {
    self == .user ? .rejectWhileRunning : .coalesce
  }
}

/// How one sync ended, as the sync driver's state machine needs to know it.
public enum SyncEnding: Sendable, Equatable {
  /// It finished.
  case succeeded
  /// It failed; the next try comes after `retryAfter`, or waits for the next trigger when
  /// `nil`.
  case failed(retryAfter: Duration?)
  /// It was cancelled.
  case cancelled
}

/// When the app syncs, as a value: events in, the actions to perform out.
///
/// The decisions of ``SyncDriver``, kept apart from the tasks, timers and observations
/// that carry them out, so every decision is a pure function a test can walk through
/// without a clock (the state machine and storage split of swift-async-algorithms, used
/// here for the editor too).
///
/// In short (the NotesSync catalog's runtime-order article has the full table):
///
/// - **idle**: a request starts a sync (→ running).
/// - **running**: the user's request is refused; any other sets `again`. The sync's end
///   catches up, then starts the owed sync, or after a failure of a live library sets the
///   retry timer (→ waiting to retry), or goes idle.
/// - **waiting to retry**: a request cancels the timer and starts a sync; so does the
///   timer.
/// - **stopped**: every request is refused, every other event ignored.
///
/// A commit asks for a turn of the main actor (once, however many commits come before it)
/// and the turn is `requested(.edit)`, so a sync never starts inside a commit's delivery.
/// Only commits of the user's make `committed`: the sync's own writes, other processes'
/// commits and status changes start nothing.
///
/// ## Guarantees
///
/// - At most one sync runs: ``Action/startSync`` is returned only from a phase where
///   none runs, and moves to ``Phase/running(again:)``.
/// - No trigger is lost: an automatic trigger while a sync runs sets `again`, and the
///   sync's end starts exactly one more.
/// - A failure of a live library is tried again after the service's delay; a trigger
///   meanwhile starts a sync at once and cancels the wait.
/// - After ``Event/stop`` no action starts anything: the phase is ``Phase/stopped`` for
///   good.
public struct SyncMachine: Sendable, Equatable {
  /// Where the machine is.
  public enum Phase: Sendable, Equatable {
    /// No sync runs and no retry waits.
    case idle
    /// One sync runs; `again` when another is owed for triggers that came meanwhile.
    case running(again: Bool)
    /// The last sync failed; a retry timer is set.
    case waitingToRetry
    /// Stopped for good.
    case stopped
  }

  /// What happened.
  public enum Event: Sendable, Equatable {
    /// Live sync begins: follow the user's commits and the server's signals, and sync.
    case startLive
    /// Something asks for a sync.
    case requested(SyncTrigger)
    /// The user committed a change; a sync is asked for on the main actor's next turn.
    case committed
    /// The next turn asked for after a commit came.
    case turnCame
    /// The running sync ended.
    case finished(SyncEnding)
    /// The wait after a failure ended.
    case retryTimerFired
    /// Someone asked to cancel the running sync (it still ends with `finished`).
    case cancelRequested
    /// The library closes.
    case stop
  }

  /// What the runner does, in the order given.
  public enum Action: Sendable, Equatable {
    /// Start following the user's commits.
    case followCommits
    /// Start listening to the server's signals.
    case listen
    /// Start one sync.
    case startSync
    /// Refuse the request, with the reason to show.
    case refuse(String)
    /// Send ``Event/turnCame`` on the main actor's next turn.
    case askOnNextTurn
    /// Send ``Event/retryTimerFired`` after a wait.
    case setRetryTimer(Duration)
    /// Cancel the retry timer.
    case cancelRetryTimer
    /// Make the model apply what the sync wrote to the library file.
    case catchUp
    /// Stop following commits and signals.
    case stopFollowing
    /// Cancel the running sync.
    case cancelSync
  }

  /// Where the machine is.
  public private(set) var phase: Phase = .idle
  /// Whether live sync began (``Event/startLive``): only then are failures tried again.
  public private(set) var isLive = false
  /// Whether a turn was asked for and has not come yet.
  public private(set) var isTurnAsked = false

  /// A machine with no sync running, not live.
  public init() {}

  /// Whether a sync runs.
  public var isSyncing: Bool {
    if case .running = phase { true } else { false }
  }

  /// Takes an event and returns what to do.
  ///
  /// - Parameter event: What happened.
  /// - Returns: The actions to perform, in order.
  public mutating func handle(_ event: Event) -> [Action] {
    if phase == .stopped {
      if case .requested = event { return [.refuse("The library is closed.")] }
      return []
    }
    switch event {
    case .startLive:
      guard !isLive else { return [] }
      isLive = true
      return [.followCommits, .listen] + request(.start)
    case .requested(let trigger):
      return request(trigger)
    case .committed:
      guard !isTurnAsked else { return [] }
      isTurnAsked = true
      return [.askOnNextTurn]
    case .turnCame:
      isTurnAsked = false
      return request(.edit)
    case .finished(let ending):
      guard case .running(let again) = phase else { return [] }
      if again {
        phase = .running(again: false)
        return [.catchUp, .startSync]
      }
      if case .failed(let delay?) = ending, isLive {
        phase = .waitingToRetry
        return [.catchUp, .setRetryTimer(delay)]
      }
      phase = .idle
      return [.catchUp]
    case .cancelRequested:
      guard case .running = phase else { return [] }
      phase = .running(again: false)
      return [.cancelSync]
    case .retryTimerFired:
      guard phase == .waitingToRetry else { return [] }
      phase = .running(again: false)
      return [.startSync]
    case .stop:
      let wasLive = isLive
      defer { phase = .stopped }
      let following: [Action] = wasLive ? [.stopFollowing] : []
      switch phase {
      case .running: return following + [.cancelSync]
      case .waitingToRetry: return following + [.cancelRetryTimer]
      case .idle, .stopped: return following
      }
    }
  }

  private mutating func request(_ trigger: SyncTrigger) -> [Action] {
    switch phase {
    case .idle:
      phase = .running(again: false)
      return [.startSync]
    case .waitingToRetry:
      phase = .running(again: false)
      return [.cancelRetryTimer, .startSync]
    case .running:
      switch trigger.whileRunning {
      case .rejectWhileRunning:
        return [.refuse("A sync is running.")]
      default:
        phase = .running(again: true)
        return []
      }
    case .stopped:
      return [.refuse("The library is closed.")]
    }
  }
}
