// LiveSync: when the running app syncs — on start, shortly after each edit, when the
// server signals another device's change, and again after a failure, backing off.
//
// Guarantees
// - One sync at a time: a reason to sync that comes while one runs (an edit, a signal)
//   runs one more sync right after it, never two at once and never lost.
// - Edits are batched: a sync starts `editDelay` after the last local commit of a burst
//   (typing), not once per keystroke. Commits from other writers (sync itself, other
//   processes) and status changes start nothing.
// - After every sync, `caughtUp` runs on the main actor, so the model applies what the
//   sync wrote at once instead of at the next watcher tick.
// - After a failure the next try comes after the service's `retryDelay` (1 s, doubling
//   up to 60 s); editing meanwhile is never blocked, and the edits stay pending until a
//   sync succeeds.
// - `stop()` cancels the timers and the signal listener; nothing runs afterwards.

public import Airframe
internal import Foundation
public import NotesCore

/// Drives the app's background syncs.
@MainActor
public final class LiveSync {
  /// How long after the last edit of a burst a sync starts.
  public static let editDelay: Duration = .milliseconds(10)

  private let model: Model<NotesState>
  private let service: ServerSyncService
  private let startSync: @MainActor () -> Task<Void, Never>?
  private let caughtUp: @MainActor () -> Void
  private let signals: ServerSignals?
  private var commits: Lifetime?
  private var running: Task<Void, Never>?
  private var another = false
  private var pendingEdit: DispatchWorkItem?
  private var retry: DispatchWorkItem?
  private var stopped = false

  /// Creates the driver; nothing happens until ``start()``.
  ///
  /// - Parameters:
  ///   - model: The app's model, whose local commits start syncs.
  ///   - service: The service the syncs run on, which says when to try again.
  ///   - serverURL: The server, to listen for its signals; `nil` to listen to nothing.
  ///   - deviceID: This library's device id (its own signals are ignored).
  ///   - startSync: Starts a sync and returns it, or `nil` if one is running (the session's
  ///     `startBackgroundSync()`).
  ///   - caughtUp: Makes the model apply what the sync wrote (the watcher's `check()`).
  public init(
    model: Model<NotesState>, service: ServerSyncService, serverURL: String?, deviceID: String,
    startSync: @escaping @MainActor () -> Task<Void, Never>?,
    caughtUp: @escaping @MainActor () -> Void
  ) {
    self.model = model
    self.service = service
    self.startSync = startSync
    self.caughtUp = caughtUp
    weak var driver: LiveSync?
    signals = serverURL.map {
      ServerSignals(url: $0, device: deviceID) { driver?.request() }
    }
    driver = self
  }

  /// Syncs now, listens for the server's signals and follows local edits.
  public func start() {
    commits = model.observeCommits { [weak self] commit in
      guard case .user = commit.origin else { return }
      self?.editCommitted()
    }
    signals?.start()
    request()
  }

  /// Stops everything; no sync starts afterwards.
  public func stop() {
    stopped = true
    commits?.cancel()
    commits = nil
    pendingEdit?.cancel()
    retry?.cancel()
    signals?.stop()
  }

  /// A reason to sync: starts one, or one more after the running one.
  public func request() {
    guard !stopped else { return }
    guard running == nil else {
      another = true
      return
    }
    retry?.cancel()
    guard let task = startSync() else {
      // A sync this driver did not start (the user's) is running: ask again shortly.
      let item = DispatchWorkItem { [weak self] in MainActor.assumeIsolated { self?.request() } }
      retry = item
      DispatchQueue.main.asyncAfter(deadline: .now() + 0.1, execute: item)
      return
    }
    running = task
    Task { [weak self] in
      await task.value
      self?.finished()
    }
  }

  private func editCommitted() {
    pendingEdit?.cancel()
    let item = DispatchWorkItem { [weak self] in MainActor.assumeIsolated { self?.request() } }
    pendingEdit = item
    DispatchQueue.main.asyncAfter(deadline: .now() + Self.seconds(Self.editDelay), execute: item)
  }

  private func finished() {
    running = nil
    caughtUp()
    guard !stopped else { return }
    if another {
      another = false
      request()
    } else if case .failed = model.state.sync, let delay = service.retryDelay {
      let item = DispatchWorkItem { [weak self] in MainActor.assumeIsolated { self?.request() } }
      retry = item
      DispatchQueue.main.asyncAfter(deadline: .now() + Self.seconds(delay), execute: item)
    }
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
