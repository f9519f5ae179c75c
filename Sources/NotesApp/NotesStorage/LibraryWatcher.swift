public import Airframe
internal import Dispatch
public import NotesCore

/// Keeps a model live with what other processes commit to its library file.
///
/// It wakes when the library's files are written (inotify on Linux, a dispatch file-system
/// source on Apple platforms) and asks the database whether another connection has
/// committed (``NotesDatabase/hasExternalChanges()``: one `PRAGMA data_version`, no table
/// read). When one has, it brings the model up to date with `Model.catchUpWithStorage()`:
/// one external commit that every presentation observes like any other, and that undo
/// history never records. Where no file watch can be made, it asks every `interval`
/// instead.
///
/// ```swift
/// let watcher = LibraryWatcher(database: database, model: model)
/// watcher.start()      // another process's commit shows as soon as it is written
/// ```
///
/// ## Guarantees
/// - `PRAGMA data_version` is the truth; a wake-up only says when to ask. Writes of this
///   process wake it too, and find nothing to do.
/// - A commit becomes visible just after the write that wakes the watcher (SQLite updates
///   the write-ahead log's index in shared memory after its last write to the log, and
///   shared memory makes no file event). So a wake-up that finds nothing new looks again
///   after 2, 20 and 200 ms (stopping at the first that finds the commit), and a commit is
///   never left waiting for the next write.
/// - Runs on the main actor as a job of its own (through `scheduler`), never inside a write
///   or a delivery; wake-ups that arrive while a check is already queued are coalesced
///   into it.
/// - A read that fails (the file is busy beyond its busy timeout) changes nothing and is
///   reported to `onError`; the next wake-up tries again, and a watcher that polls asks
///   again after `interval`.
/// - Timing goes through `scheduler`: a test drives the polling with a virtual clock.
/// - ``cancel()`` stops it; a released watcher stops too.
@MainActor
public final class LibraryWatcher {
  /// What wakes the watcher.
  public enum Wake: Equatable, Sendable {
    /// Writes to the library's files.
    case fileEvents
    /// A timer, every so often.
    case polling(every: Duration)
  }

  private let database: NotesDatabase
  private let model: Model<NotesState>
  private let interval: Duration
  private let scheduler: any WorkScheduler
  private let preferred: Wake
  private let onError: (any Error) -> Void
  private var events: (any FileWatch)?
  private var polling: Task<Void, Never>?
  private var followUp: Task<Void, Never>?
  private let watchFiles: @MainActor (String, @escaping @MainActor () -> Void) -> (any FileWatch)?
  private var isCheckQueued = false
  private var isStarted = false

  /// What wakes the watcher since ``start()``; `nil` before.
  public private(set) var wake: Wake?
  /// The number of times the watcher brought the model up to date.
  public private(set) var catchUpCount = 0
  /// Called after each catch-up (tests and benchmarks wait on it).
  public var caughtUp: (() -> Void)?

  /// How long after a wake-up that found nothing the watcher looks again.
  static let followUpDelays: [Duration] = [.milliseconds(2), .milliseconds(20), .milliseconds(200)]

  /// Creates a watcher; call ``start()`` to begin.
  ///
  /// - Parameters:
  ///   - database: The library the model stores into.
  ///   - model: The model to keep up to date.
  ///   - interval: How often to ask when it polls.
  ///   - wake: What wakes it: `.fileEvents` (the default) falls back to polling where no
  ///     file watch can be made; `.polling` never watches the files.
  ///   - scheduler: Where its checks run and how it waits between polls.
  ///   - onError: Told about a failed read; the watcher goes on.
  public convenience init(
    database: NotesDatabase, model: Model<NotesState>, interval: Duration = .milliseconds(100),
    wake: Wake = .fileEvents, scheduler: any WorkScheduler = .mainActor,
    onError: @escaping (any Error) -> Void = { _ in }
  ) {
    self.init(
      database: database, model: model, interval: interval, wake: wake, scheduler: scheduler,
      onError: onError, watchFiles: { FileEvents.start(path: $0, changed: $1) })
  }

  /// Creates a watcher whose file watch `watchFiles` makes (tests pass a watch they fire).
  init(
    database: NotesDatabase, model: Model<NotesState>, interval: Duration, wake: Wake,
    scheduler: any WorkScheduler, onError: @escaping (any Error) -> Void,
    watchFiles: @escaping @MainActor (String, @escaping @MainActor () -> Void) -> (any FileWatch)?
  ) {
    self.database = database
    self.model = model
    self.interval = interval
    self.preferred = wake
    self.scheduler = scheduler
    self.onError = onError
    self.watchFiles = watchFiles
  }

  /// Starts following other processes' commits.
  public func start() {
    guard !isStarted else { return }
    isStarted = true
    if preferred == .fileEvents,
      let events = watchFiles(database.path, { [weak self] in self?.queueCheck(afterEvent: true) })
    {
      self.events = events
      wake = .fileEvents
    } else {
      wake = .polling(every: interval)
      let interval = interval
      let scheduler = scheduler
      polling = scheduler.startTask { [weak self] in
        while !Task.isCancelled {
          do { try await scheduler.sleep(for: interval) } catch { return }
          guard let self else { return }
          self.check()
        }
      }
    }
    // A commit made between opening the library and watching it is found at once.
    check()
  }

  /// Queues one check as a main-actor job, unless one is queued already; after a file
  /// event, one that finds nothing is followed up.
  private func queueCheck(afterEvent: Bool = false) {
    guard !isCheckQueued else { return }
    isCheckQueued = true
    scheduler.schedule { [weak self] in
      guard let self else { return }
      self.isCheckQueued = false
      guard self.isStarted else { return }
      if self.check() {
        self.followUp?.cancel()
      } else if afterEvent {
        self.followUpLater()
      }
    }
  }

  /// Looks again after each of ``followUpDelays``, until one finds a commit.
  private func followUpLater() {
    followUp?.cancel()
    let scheduler = scheduler
    followUp = scheduler.startTask { [weak self] in
      for delay in Self.followUpDelays {
        do { try await scheduler.sleep(for: delay) } catch { return }
        guard let self, self.isStarted else { return }
        if self.check() { return }
      }
    }
  }

  /// Looks once: brings the model up to date if another process has committed.
  ///
  /// - Returns: Whether the model caught up.
  @discardableResult
  public func check() -> Bool {
    guard !model.isBusy else {
      // Never the case for a job of its own; a caller inside a write gets a later look.
      queueCheck()
      return false
    }
    do {
      guard try database.hasExternalChanges(), try model.catchUpWithStorage() else {
        return false
      }
      catchUpCount += 1
      caughtUp?()
      return true
    } catch {
      onError(error)
      return false
    }
  }

  /// Stops looking.
  public func cancel() {
    isStarted = false
    events?.cancel()
    events = nil
    polling?.cancel()
    polling = nil
    followUp?.cancel()
    followUp = nil
  }
}
