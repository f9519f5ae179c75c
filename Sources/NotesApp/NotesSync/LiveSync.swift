public import Airframe
internal import Foundation
public import NotesCore
public import NotesServer

/// Drives the app's background syncs.
///
/// When the running app syncs — on start, as soon as the user commits an edit, when the server
/// signals another device's change, and again after a failure, backing off.
///
/// ## Guarantees
///
/// - One sync at a time: a reason to sync that comes while one runs (an edit, a signal)
///   runs exactly one more sync right after it, never two at once and never lost.
/// - An edit is pushed at once: the first local commit starts a sync on the main actor's
///   next turn (not inside the commit's delivery, where the sync's own status write would
///   be refused). Edits that come while that sync is in flight are batched into the one
///   that follows it, so a burst of typing costs two syncs, not one a key. Commits from
///   other writers (sync itself, other processes) and status changes start nothing.
/// - After every sync, `caughtUp` runs on the main actor, so the model applies what the
///   sync wrote at once.
/// - After a failure the next try comes after `retryDelay` (the service's: 1 s, doubling up
///   to 60 s); editing meanwhile is never blocked, and the edits stay pending until a sync
///   succeeds. A sync the user started that is still running is asked about again 100 ms
///   later.
/// - Time goes through `scheduler`: tests drive every delay with a virtual clock, the
///   server signals' heartbeat and reconnection included.
/// - `stop()` cancels the waits and the signal listener; nothing runs afterwards.
@MainActor
public final class LiveSync {
  /// How long to wait before asking again when a sync this driver did not start is running.
  public static let busyDelay: Duration = .milliseconds(100)

  private let model: Model<NotesState>
  private let retryDelay: @MainActor () -> Duration?
  private let startSync: @MainActor () -> Task<Void, Never>?
  private let caughtUp: @MainActor () -> Void
  private let scheduler: any WorkScheduler
  private let signals: ServerSignals?
  private var commits: Lifetime?
  private var running: Task<Void, Never>?
  private var another = false
  private var isRequestQueued = false
  private var wait: Task<Void, Never>?
  private var stopped = false

  /// The number of syncs this driver started.
  public private(set) var syncCount = 0

  /// Creates the driver; nothing happens until ``start()``.
  ///
  /// - Parameters:
  ///   - model: The app's model, whose local commits start syncs.
  ///   - retryDelay: How long to wait after a failed sync (the service's `retryDelay`);
  ///     `nil` to wait for the next reason instead.
  ///   - serverURL: The server, to listen for its signals; `nil` to listen to nothing.
  ///   - deviceID: This library's device id.
  ///   - sender: The sender the syncs' pushes signal with (the service's), whose signals
  ///     are ignored.
  ///   - network: How long the signals' connection waits on the network.
  ///   - signalTiming: The signals' heartbeat and delay before connecting again.
  ///   - startSync: Starts a sync and returns it, or `nil` if one is running (the session's
  ///     `startBackgroundSync()`).
  ///   - caughtUp: Makes the model apply what the sync wrote (the watcher's `check()`).
  ///   - scheduler: Where the deferred requests run and how the waits pass.
  public init(
    model: Model<NotesState>, retryDelay: @escaping @MainActor () -> Duration?,
    serverURL: String?, deviceID: String, sender: String, network: NetworkBounds = .standard,
    signalTiming: ServerSignals.Timing = .standard,
    startSync: @escaping @MainActor () -> Task<Void, Never>?,
    caughtUp: @escaping @MainActor () -> Void,
    scheduler: any WorkScheduler = .mainActor
  ) {
    self.model = model
    self.retryDelay = retryDelay
    self.startSync = startSync
    self.caughtUp = caughtUp
    self.scheduler = scheduler
    weak var driver: LiveSync?
    signals = serverURL.map {
      ServerSignals(
        url: $0, device: deviceID, sender: sender, bounds: network, timing: signalTiming,
        scheduler: scheduler
      ) { driver?.request() }
    }
    driver = self
  }

  /// Syncs now, listens for the server's signals and follows local edits.
  public func start() {
    commits = model.observeCommits { [weak self] commit in
      guard case .user = commit.origin else { return }
      // Not inside the commit's delivery: the sync writes its status to the model.
      self?.queueRequest()
    }
    signals?.start()
    request()
  }

  /// Stops everything; no sync starts afterwards.
  public func stop() {
    stopped = true
    commits?.cancel()
    commits = nil
    wait?.cancel()
    wait = nil
    signals?.stop()
  }

  /// A reason to sync: starts one, or one more after the running one.
  public func request() {
    guard !stopped else { return }
    guard running == nil else {
      another = true
      return
    }
    wait?.cancel()
    wait = nil
    guard let task = startSync() else {
      // A sync this driver did not start (the user's) is running: ask again shortly.
      after(Self.busyDelay)
      return
    }
    syncCount += 1
    running = task
    _ = scheduler.startTask { [weak self] in
      await task.value
      self?.finished()
    }
  }

  /// Requests a sync on the main actor's next turn, once however many ask before it.
  private func queueRequest() {
    guard !isRequestQueued, !stopped else { return }
    isRequestQueued = true
    scheduler.schedule { [weak self] in
      guard let self else { return }
      self.isRequestQueued = false
      self.request()
    }
  }

  /// Requests a sync after `delay` of the scheduler's time, unless another reason comes
  /// first.
  private func after(_ delay: Duration) {
    wait?.cancel()
    let scheduler = scheduler
    wait = scheduler.startTask { [weak self] in
      do { try await scheduler.sleep(for: delay) } catch { return }
      guard let self else { return }
      self.wait = nil
      self.request()
    }
  }

  private func finished() {
    running = nil
    caughtUp()
    guard !stopped else { return }
    if another {
      another = false
      request()
    } else if case .failed = model.state.sync, let delay = retryDelay() {
      after(delay)
    }
  }
}
