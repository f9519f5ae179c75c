public import Airframe
internal import Dispatch
public import NotesCore

/// Keeps a model live with what other processes commit to its library file.
///
/// Every `interval` (100 ms by default) it asks the database whether another connection
/// has committed (``NotesDatabase/hasExternalChanges()``: one `PRAGMA data_version`, no
/// table read, so the timer costs next to nothing while nobody else writes). When one has,
/// it brings the model up to date with ``Model/catchUpWithStorage()``: one external commit
/// that every presentation observes like any other, and that undo history never records.
///
/// ```swift
/// let watcher = LibraryWatcher(database: database, model: model)
/// watcher.start()      // another process's commit shows within about 100 ms
/// ```
///
/// ## Guarantees
/// - Runs on the main queue, never while the model is writing or notifying (it waits for
///   the next tick instead), so it never races the user's own writes.
/// - A read that fails (the file is busy beyond its busy timeout) changes nothing and is
///   reported to `onError`; the next tick tries again.
/// - ``cancel()`` stops it; a released watcher stops at its next tick.
@MainActor
public final class LibraryWatcher {
  private let database: NotesDatabase
  private let model: Model<NotesState>
  private let interval: Duration
  private let onError: (any Error) -> Void
  private var timer: (any DispatchSourceTimer)?

  /// The number of times the watcher brought the model up to date.
  public private(set) var catchUpCount = 0

  /// Creates a watcher; call ``start()`` to begin.
  ///
  /// - Parameters:
  ///   - database: The library the model stores into.
  ///   - model: The model to keep up to date.
  ///   - interval: How often to look for other processes' commits.
  ///   - onError: Told about a failed read; the watcher goes on.
  public init(
    database: NotesDatabase, model: Model<NotesState>, interval: Duration = .milliseconds(100),
    onError: @escaping (any Error) -> Void = { _ in }
  ) {
    self.database = database
    self.model = model
    self.interval = interval
    self.onError = onError
  }

  /// Starts looking for other processes' commits every `interval`.
  public func start() {
    guard timer == nil else { return }
    let timer = DispatchSource.makeTimerSource(queue: .main)
    let nanoseconds =
      Int(interval.components.seconds) * 1_000_000_000
      + Int(interval.components.attoseconds / 1_000_000_000)
    timer.schedule(
      deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
      leeway: .milliseconds(10))
    timer.setEventHandler { [weak self] in
      MainActor.assumeIsolated {
        // A watcher released without `cancel()` stops at its next tick.
        guard let self else { return timer.cancel() }
        self.check()
      }
    }
    timer.resume()
    self.timer = timer
  }

  /// Looks once: brings the model up to date if another process has committed.
  ///
  /// - Returns: Whether the model caught up.
  @discardableResult
  public func check() -> Bool {
    guard !model.isBusy else { return false }
    do {
      guard try database.hasExternalChanges(), try model.catchUpWithStorage() else {
        return false
      }
      catchUpCount += 1
      return true
    } catch {
      onError(error)
      return false
    }
  }

  /// Stops looking.
  public func cancel() {
    timer?.cancel()
    timer = nil
  }
}
