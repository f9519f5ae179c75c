public import Airframe
import Foundation

/// Runs syncs through a ``SyncService`` and reflects them in the model's sync status.
///
/// ## Guarantees
///
/// - One sync at a time: `syncNow()` while a sync runs is refused (returns nil).
/// - The model's `sync` status tells the truth from the first moment of every sync, one the
///   user asked for or one the app started on its own: `.syncing(progress:)` as the sync
///   starts and at each progress report, then `.idle(lastSynced:)` on success (the time the
///   service recorded) or `.failed(message:)` on failure (keeping the last successful
///   time). A success also sets `syncKeptAside`, in the same write, to the service's count
///   of versions kept aside. A cancelled sync returns to `.idle` with the previous time.
///   `retry()` starts a new sync after a failure. Not making the title and the status bar
///   flicker for a sync of a few milliseconds is their View State Controllers' job (see
///   `SyncDisplay`), not a reason for the model to say something untrue.
/// - Status changes go through `Model.write` like every other change, with the origin
///   `.background("sync status")`, and not through the undo history: a sync is not a user
///   edit to undo, and undo never reverts or is blocked by a status change. The library's
///   storage keeps none of them (see `NotesDatabase`): they cost no disk write and wake no
///   other process.
/// - Releasing the coordinator cancels its sync from a plain deinit (it touches only the
///   `Task`, which is Sendable), so nothing depends on the `isolated deinit` shim.
@MainActor
@_spi(Instrumentation) public final class SyncCoordinator {
  private let model: Model<NotesState>
  private let service: any SyncService
  private var task: Task<Void, Never>?
  private let scheduler: any WorkScheduler

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

  /// Starts a sync, unless one is running.
  ///
  /// - Returns: The running sync, to await in tests; `nil` if one was already running.
  @discardableResult
  public func syncNow() -> Task<Void, Never>? {
    guard task == nil else { return nil }
    let lastSynced = model.state.sync.lastSynced
    setStatus(.syncing(progress: 0, lastSynced: lastSynced))
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
    return task
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
    setStatus(.syncing(progress: min(max(progress, 0), 1), lastSynced: lastSynced))
  }

  private func finish(_ result: Result<Date, any Error>, lastSynced: Date?, keptAside: Int?) {
    task = nil
    switch result {
    case .success(let date):
      setStatus(.idle(lastSynced: date), keptAside: keptAside)
    case .failure(let error) where error is CancellationError:
      setStatus(.idle(lastSynced: lastSynced))
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
  }
}
