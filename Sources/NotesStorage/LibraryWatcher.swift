public import Airframe
internal import Dispatch
public import NotesCore

/// Keeps a model live with what other processes commit to its library file.
///
/// It wakes when the library's files are written (inotify on Linux, a dispatch file-system
/// source on Apple platforms) and asks the database whether another connection has
/// committed (``NotesDatabase/hasExternalChanges()``: one `PRAGMA data_version`, no table
/// read). When one has, it brings the model up to date with ``Model/catchUpWithStorage()``:
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
  private var events: FileEvents?
  private var polling: Task<Void, Never>?
  private var isCheckQueued = false
  private var isStarted = false

  /// What wakes the watcher since ``start()``; `nil` before.
  public private(set) var wake: Wake?
  /// The number of times the watcher brought the model up to date.
  public private(set) var catchUpCount = 0
  /// Called after each catch-up (tests and benchmarks wait on it).
  public var caughtUp: (() -> Void)?

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
  public init(
    database: NotesDatabase, model: Model<NotesState>, interval: Duration = .milliseconds(100),
    wake: Wake = .fileEvents, scheduler: any WorkScheduler = .mainActor,
    onError: @escaping (any Error) -> Void = { _ in }
  ) {
    self.database = database
    self.model = model
    self.interval = interval
    self.preferred = wake
    self.scheduler = scheduler
    self.onError = onError
  }

  /// Starts following other processes' commits.
  public func start() {
    guard !isStarted else { return }
    isStarted = true
    if preferred == .fileEvents,
      let events = FileEvents.start(
        path: database.path, changed: { [weak self] in self?.queueCheck() })
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

  /// Queues one check as a main-actor job, unless one is queued already.
  private func queueCheck() {
    guard !isCheckQueued else { return }
    isCheckQueued = true
    scheduler.schedule { [weak self] in
      guard let self else { return }
      self.isCheckQueued = false
      guard self.isStarted else { return }
      self.check()
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
  }
}
