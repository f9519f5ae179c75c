public import Airframe
import Foundation

/// Runs syncs through a ``SyncService`` and reflects them in the model's sync status.
///
/// ## Guarantees
///
/// - One sync at a time: `syncNow()` while a sync runs is refused (returns nil).
/// - The model's `sync` status follows the sync: `.syncing(progress:)` at the start and at each
///   progress report, then `.idle(lastSynced:)` on success or `.failed(message:)` on failure
///   (keeping the last successful time). A success also sets `syncKeptAside`, in the same write, to
///   the service's count of versions kept aside. A cancelled sync returns to `.idle` with the
///   previous time. `retry()` starts a new sync after a failure.
/// - A quiet sync (`syncNow(quietFor:)`, what the app starts on its own after each edit)
///   leaves the status alone while it runs, unless it is still running when the quiet
///   period ends: from then on it reports `.syncing(progress:)` like any other, starting
///   with its latest progress. Its end is reported like any other's (a success's new time,
///   a failure), except that a cancelled quiet sync that never showed changes nothing. So
///   a sync of one edit, a few milliseconds, does not make the title and the status bar
///   flicker on every keystroke, and a long one (a first sync) still shows its progress.
/// - ``running`` is true exactly while a sync runs, shown or quiet.
/// - Status changes go through `Model.write` like every other change, with the origin
///   `.background("sync status")`, and not through the undo history: a sync is not a user
///   edit to undo, and undo never reverts or is blocked by a status change.
/// - Releasing the coordinator cancels its sync from a plain deinit (it touches only the
///   `Task`, which is Sendable), so nothing depends on the `isolated deinit` shim.
@MainActor
@_spi(Instrumentation) public final class SyncCoordinator {
  private let model: Model<NotesState>
  private let service: any SyncService
  private var task: Task<Void, Never>?
  private let scheduler: any WorkScheduler
  private let runningSource = StateSource(false)
  /// Whether the running sync reports its progress to the model (not quiet, or no longer).
  private var shown = true
  /// The running sync's latest progress, reported or not.
  private var latestProgress = 0.0
  /// Ends a quiet sync's quiet period; cancelled when the sync ends first.
  private var reveal: Task<Void, Never>?

  /// How long a sync the app starts on its own stays quiet (see ``syncNow(quietFor:)``).
  public static let backgroundQuietPeriod: Duration = .milliseconds(500)

  /// Creates a coordinator.
  ///
  /// - Parameters:
  ///   - model: The model whose `sync` status it drives.
  ///   - service: The service that does the work.
  ///   - scheduler: Where syncs start; plain main-actor tasks by default.
  public init(
    model: Model<NotesState>, service: any SyncService,
    scheduler: any WorkScheduler = .mainActor
  ) {
    self.model = model
    self.service = service
    self.scheduler = scheduler
  }

  /// Whether a sync is running.
  public var isSyncing: Bool { task != nil }

  /// Whether a sync is running, shown or quiet, as a state to observe.
  public var running: some StateProjection<Bool> { runningSource }

  /// Starts a sync, unless one is running.
  ///
  /// - Parameter quietPeriod: How long the sync leaves the model's status alone before it
  ///   shows its progress; `nil` (a sync the user asked for) shows it from the start.
  /// - Returns: The running sync, to await in tests; `nil` if one was already running.
  @discardableResult
  public func syncNow(quietFor quietPeriod: Duration? = nil) -> Task<Void, Never>? {
    guard task == nil else { return nil }
    let lastSynced = model.state.sync.lastSynced
    shown = quietPeriod == nil
    latestProgress = 0
    if shown { setStatus(.syncing(progress: 0, lastSynced: lastSynced)) }
    let service = self.service
    weak let coordinator = self
    let task = scheduler.startTask {
      let result: Result<Date, any Error>
      var keptAside: Int?
      do {
        result = .success(
          try await service.sync { progress in
            await coordinator?.report(progress: progress, lastSynced: lastSynced)
          })
        keptAside = await service.keptAsideCount()
      } catch {
        result = .failure(error)
      }
      coordinator?.finish(result, lastSynced: lastSynced, keptAside: keptAside)
    }
    self.task = task
    runningSource.set(true)
    if let quietPeriod {
      let scheduler = self.scheduler
      reveal = scheduler.startTask {
        guard (try? await scheduler.sleep(for: quietPeriod)) != nil else { return }
        coordinator?.endQuietPeriod(of: task, lastSynced: lastSynced)
      }
    }
    return task
  }

  /// Shows the progress of `sync` from now on, if it is still the one running.
  private func endQuietPeriod(of sync: Task<Void, Never>, lastSynced: Date?) {
    reveal = nil
    guard task == sync, !shown else { return }
    shown = true
    setStatus(.syncing(progress: latestProgress, lastSynced: lastSynced))
  }

  /// Starts a new sync after a failure.
  ///
  /// - Returns: The running sync; `nil` if one was already running.
  @discardableResult
  public func retry() -> Task<Void, Never>? { syncNow() }

  /// Cancels the running sync; the status returns to idle with the previous sync time.
  public func cancel() {
    task?.cancel()
  }

  private func report(progress: Double, lastSynced: Date?) {
    guard task != nil else { return }
    latestProgress = min(max(progress, 0), 1)
    guard shown else { return }
    setStatus(.syncing(progress: latestProgress, lastSynced: lastSynced))
  }

  private func finish(_ result: Result<Date, any Error>, lastSynced: Date?, keptAside: Int?) {
    task = nil
    reveal?.cancel()
    reveal = nil
    runningSource.set(false)
    switch result {
    case .success(let date):
      setStatus(.idle(lastSynced: date), keptAside: keptAside)
    case .failure(let error) where error is CancellationError:
      if shown { setStatus(.idle(lastSynced: lastSynced)) }
    case .failure(let error):
      setStatus(.failed(message: String(describing: error), lastSynced: lastSynced))
    }
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
    task?.cancel()
    reveal?.cancel()
  }
}
