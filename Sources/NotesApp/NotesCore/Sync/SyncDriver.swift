public import Airframe
import Foundation

/// Something that tells the sync driver when the server has news, such as the server's
/// signal listener.
@MainActor
public protocol SyncSignalListener: AnyObject {
  /// Starts listening.
  func start()
  /// Stops listening; nothing is reported afterwards.
  func stop()
}

/// What became of a request for a sync.
public enum SyncRequestOutcome: Sendable {
  /// A sync started; await the task for its end.
  case started(Task<Void, Never>)
  /// A sync runs; one more runs after it.
  case runsAfterTheCurrentOne
  /// Refused, with the reason to show.
  case refused(String)
}

/// The one owner of when the app syncs: it runs the syncs that ``SyncMachine`` decides on,
/// and writes their status to the model.
///
/// The composition root (`NotesLibrary` in NotesHost) makes one per open library, starts
/// live sync on it when the library has a server, and stops it first when the library
/// closes. Presentations only ask for a sync (the session's Sync Now calls
/// ``request(_:)`` with ``SyncTrigger/user``) and read the model's `sync` status.
///
/// ```swift
/// let driver = SyncDriver(model: model, service: service, caughtUp: { watcher.check() })
/// driver.startLive(listeningTo: signals)   // syncs now, after edits, on signals
/// driver.request(.user)                     // Sync Now
/// driver.stop()
/// ```
///
/// ## Guarantees
///
/// - Every decision is ``SyncMachine``'s: one sync at a time, the user's request refused
///   while one runs ("A sync is running."), automatic triggers coalesced into one more
///   sync, a failure of a live library tried again after the service's `retryDelay`. This
///   type only carries the decisions out (tasks, the retry timer, the commit observation,
///   the signal listener), so it keeps no state of its own about when to sync.
/// - An edit is pushed at once: the user's commit asks for the main actor's next turn (not
///   inside the commit's delivery, where the sync's own status write would be refused);
///   edits while a sync runs make one more sync after it.
/// - The model's `sync` status tells the truth from the first moment of every sync, one
///   the user asked for or one the app started: `.syncing(progress:)` as the sync starts
///   and at each progress report, then `.idle(lastSynced:)` with the time the service
///   returned (the engine records it, the one writer of the library's last success), or
///   `.failed(message:)` keeping the previous time. A success sets `syncKeptAside` in the
///   same write. A cancelled sync returns to `.idle` with the previous time. Not
///   flickering for a sync of a few milliseconds is the title's and the status bar's job
///   (`SyncDisplay`).
/// - Status changes go through `Model.write` with the origin `.background("sync status")`,
///   never through the undo history; the library's storage keeps none of them, so they
///   cost no disk write and wake no other process.
/// - After every sync the model catches up with what the sync wrote to the library file
///   (`caughtUp`), before the next sync starts.
/// - Time (the retry wait, the next turn) goes through `scheduler`, so tests drive it with
///   a virtual clock.
/// - ``stop()`` cancels the running sync and the retry wait and stops following commits
///   and signals; nothing starts afterwards. Releasing the driver cancels its tasks from
///   a plain deinit.
@MainActor
public final class SyncDriver {
  private let model: Model<NotesState>
  private let service: any SyncService
  private let scheduler: any WorkScheduler
  private let caughtUp: @MainActor () -> Void
  private var machine = SyncMachine()
  private var signals: (any SyncSignalListener)?
  private var commits: Lifetime?
  private var sync: Task<Void, Never>?
  private var retryTimer: Task<Void, Never>?

  /// The number of syncs started.
  public private(set) var syncCount = 0

  /// Creates a driver; it syncs only when asked until ``startLive(listeningTo:)``.
  ///
  /// - Parameters:
  ///   - model: The model whose `sync` status it writes and whose commits it follows.
  ///   - service: The service that does each sync.
  ///   - scheduler: Where syncs start and the waits pass; main-actor tasks by default.
  ///   - caughtUp: Makes the model apply what a sync wrote to the library file (the
  ///     watcher's `check()`); nothing by default.
  public init(
    model: Model<NotesState>, service: any SyncService,
    scheduler: any WorkScheduler = .mainActor,
    caughtUp: @escaping @MainActor () -> Void = {}
  ) {
    self.model = model
    self.service = service
    self.scheduler = scheduler
    self.caughtUp = caughtUp
  }

  /// Where the driver's state machine is.
  public var phase: SyncMachine.Phase { machine.phase }
  /// Whether live sync runs (``startLive(listeningTo:)`` ran and ``stop()`` did not).
  public var isLive: Bool { machine.isLive && machine.phase != .stopped }
  /// Whether a sync runs.
  public var isSyncing: Bool { machine.isSyncing }

  /// Starts live sync: follows the user's commits and `signals`, and syncs now.
  ///
  /// Calling it again does nothing.
  ///
  /// - Parameter signals: What reports the server's news; `nil` for none. The driver
  ///   starts and stops it.
  public func startLive(listeningTo signals: (any SyncSignalListener)?) {
    guard !machine.isLive else { return }
    self.signals = signals
    perform(machine.handle(.startLive))
  }

  /// Asks for a sync.
  ///
  /// - Parameter trigger: What asks; the user's request is refused while a sync runs,
  ///   any other runs one more sync after it.
  /// - Returns: The sync started, or what became of the request.
  @discardableResult
  public func request(_ trigger: SyncTrigger) -> SyncRequestOutcome {
    let actions = machine.handle(.requested(trigger))
    perform(actions)
    for action in actions {
      if case .refuse(let reason) = action { return .refused(reason) }
    }
    if actions.contains(.startSync), let sync { return .started(sync) }
    return .runsAfterTheCurrentOne
  }

  /// Cancels the running sync, if any; the model's status returns to idle with the
  /// previous time, and no sync owed for triggers that came meanwhile runs.
  public func cancel() {
    perform(machine.handle(.cancelRequested))
  }

  /// Stops for good: the running sync and the retry wait are cancelled, commits and
  /// signals no longer followed.
  public func stop() {
    perform(machine.handle(.stop))
  }

  private func handle(_ event: SyncMachine.Event) {
    perform(machine.handle(event))
  }

  private func perform(_ actions: [SyncMachine.Action]) {
    for action in actions {
      switch action {
      case .followCommits:
        commits = model.observeCommits { [weak self] commit in
          guard case .user = commit.origin else { return }
          self?.handle(.committed)
        }
      case .listen:
        signals?.start()
      case .startSync:
        startSync()
      case .refuse:
        break
      case .askOnNextTurn:
        scheduler.schedule { [weak self] in self?.handle(.turnCame) }
      case .setRetryTimer(let delay):
        let scheduler = scheduler
        retryTimer = scheduler.startTask { [weak self] in
          do { try await scheduler.sleep(for: delay) } catch { return }
          self?.retryTimer = nil
          self?.handle(.retryTimerFired)
        }
      case .cancelRetryTimer:
        retryTimer?.cancel()
        retryTimer = nil
      case .catchUp:
        caughtUp()
      case .stopFollowing:
        commits?.cancel()
        commits = nil
        signals?.stop()
        signals = nil
      case .cancelSync:
        sync?.cancel()
      }
    }
  }

  private func startSync() {
    syncCount += 1
    let lastSynced = model.state.sync.lastSynced
    setStatus(.syncing(progress: 0, lastSynced: lastSynced))
    let service = service
    weak let driver = self
    sync = scheduler.startTask {
      let result: Result<Date, any Error>
      var keptAside: Int?
      do {
        result = .success(
          try await service.sync { progress in
            await driver?.report(progress: progress, lastSynced: lastSynced)
          })
        keptAside = await service.keptAsideCount()
      } catch {
        result = .failure(error)
      }
      driver?.finish(result, lastSynced: lastSynced, keptAside: keptAside)
    }
  }

  private func report(progress: Double, lastSynced: Date?) {
    guard sync != nil else { return }
    setStatus(.syncing(progress: min(max(progress, 0), 1), lastSynced: lastSynced))
  }

  private func finish(_ result: Result<Date, any Error>, lastSynced: Date?, keptAside: Int?) {
    sync = nil
    let ending: SyncEnding
    switch result {
    case .success(let date):
      setStatus(.idle(lastSynced: date), keptAside: keptAside)
      ending = .succeeded
    case .failure(let error) where error is CancellationError:
      setStatus(.idle(lastSynced: lastSynced))
      ending = .cancelled
    case .failure(let error):
      setStatus(.failed(message: String(describing: error), lastSynced: lastSynced))
      ending = .failed(retryAfter: service.retryDelay)
    }
    handle(.finished(ending))
  }

  private func setStatus(_ status: SyncStatus, keptAside: Int? = nil) {
    // Runs in its own main-actor turn, never inside another write or a delivery, so the
    // model cannot refuse it as re-entrant.
    try? model.write(origin: .background("sync status")) { transaction in
      transaction.set(\.sync, to: status)
      if let keptAside { transaction.set(\.syncKeptAside, to: keptAside) }
    }
  }

  // A plain (nonisolated) deinit: it touches only `Task` values, which are Sendable, so
  // cancel-on-release needs no hop to the main actor and no `isolated deinit`
  // back-deployment shim.
  deinit {
    sync?.cancel()
    retryTimer?.cancel()
  }
}
