public import Airframe
public import Foundation
public import NotesCore
public import NotesPresentation
public import NotesServer
public import NotesStorage
public import NotesSync

/// One open Notes library for a program: its database, model, sessions, watcher and sync
/// driver.
///
/// The one way a program opens a Notes library, keeps it live and closes it.
///
/// ```swift
/// let library = try NotesLibrary.open(path: nil, samples: .whenNew)
/// library.start()
/// let app = TerminalApplication(session: library.session)   // any presentation
/// …
/// library.close()
/// ```
///
/// ## Guarantees
///
/// - One path for every program: the full-screen app, the desktop window
///   (Apps/NotesDesktop), the command line and the benchmarks open a library here, so
///   opening, the sample library, the watcher, live sync and the shutdown order exist once.
/// - Opening: the file at the given path (or the default location) is opened, created when
///   missing; with `samples`, a library that did not exist before gets the sample notebooks
///   and notes. Any failure throws before anything is started, with the file closed.
/// - The library owns its one `SyncDriver`, which decides when syncs start; the session
///   only asks it for one (Sync Now). `start()` follows other writers (a `LibraryWatcher`
///   applying their commits as external commits) and, when the library has a sync server,
///   starts live sync on the driver (on start, after local edits, on the server's signal,
///   which `ServerSignals` listens for under the driver). Without a server nothing syncs on
///   its own and "Sync Now" says how to set one up.
/// - One `LibrarySession` (model, undo history, pending confirmations), and a
///   `NotesSession` for each presentation: ``session`` for a program with one (the
///   full-screen app, the command line), ``openSession(showing:)`` for each more (a desktop
///   window each).
/// - `close()` stops in the order that loses nothing: the sync driver (the running sync
///   cancelled, no new one starts, the signals closed), the watcher, every session still
///   open (each saves its editor's draft), the library session, then the database. Calling
///   it again does nothing.
/// - Presentations get sessions and nothing below them: the model stays here, reachable
///   only through the Instrumentation SPI that tests and benchmarks import.
@MainActor
public final class NotesLibrary {
  /// Whether a library that did not exist is filled with the sample notebooks and notes.
  public enum Samples: Sendable {
    /// A new library gets the samples (the full-screen apps).
    case whenNew
    /// A new library starts empty (scripts want exactly what they put there).
    case never
  }

  /// Where the library file is, and why that place.
  public let location: DatabaseLocation
  /// What every presentation of the library shares.
  public let shared: LibrarySession
  /// The session of a program's one presentation, made when first asked for.
  ///
  /// A program with several presentations (a window each) opens a session for each with
  /// ``openSession(showing:)`` instead.
  public var session: NotesSession {
    if let first { return first }
    let session = openSession()
    first = session
    return session
  }
  /// The database file.
  let database: NotesDatabase
  /// The library's model: the one home of its state.
  @_spi(Instrumentation) public let model: Model<NotesState>
  /// The service every sync runs on.
  let syncService: ServerSyncService
  /// The one owner of when syncs start.
  @_spi(Instrumentation) public let syncDriver: SyncDriver
  /// How long sync waits on the network, and how the server's signals are kept alive.
  private let network: NetworkBounds
  private let signalTiming: ServerSignals.Timing
  private var watcher: LibraryWatcher?
  private var isClosed = false
  /// The key of each command in the program's presentations.
  private let shortcuts: [SessionCommand: String]
  private var first: NotesSession?
  /// Every session opened, held weakly: a presentation keeps its own.
  private var sessions: [WeakSession] = []

  private init(
    location: DatabaseLocation, database: NotesDatabase, model: Model<NotesState>,
    shortcuts: [SessionCommand: String], now: @escaping () -> Date, network: NetworkBounds,
    signalTiming: ServerSignals.Timing
  ) {
    self.location = location
    self.database = database
    self.model = model
    self.network = network
    self.signalTiming = signalTiming
    self.shortcuts = shortcuts
    let syncService = ServerSyncService(libraryPath: database.path, bounds: network)
    self.syncService = syncService
    weak var library: NotesLibrary?
    syncDriver = SyncDriver(model: model, service: syncService) { library?.catchUp() }
    shared = LibrarySession(model: model, sync: syncDriver, now: now, history: database)
    library = self
  }

  /// Opens one more presentation's session over the library: its own selection, search,
  /// editor and status bar, over the library's shared state and undo history.
  ///
  /// Close it when its presentation goes (`NotesSession.close()` saves its draft); the
  /// library closes any still open when it closes.
  ///
  /// - Parameter other: A session to start from (its notebook, search, sort and note), as
  ///   a new window starts where the window it was opened from is; `nil` starts on the
  ///   first note of "All notes".
  /// - Returns: The session.
  public func openSession(showing other: NotesSession? = nil) -> NotesSession {
    let session = NotesSession(library: shared) { [shortcuts] in shortcuts[$0] ?? "" }
    if let other { session.show(sameAs: other) }
    sessions.removeAll { $0.session == nil }
    sessions.append(WeakSession(session: session))
    return session
  }

  /// Opens (creating if needed) the library at `path`, or at the default location.
  ///
  /// - Parameters:
  ///   - path: The library file; `nil` for the default (see `DatabaseLocation`).
  ///   - samples: Whether a new library gets the sample notes.
  ///   - shortcut: The key that runs each command in this presentation, as its menus show
  ///     it; none by default.
  ///   - now: The clock for modification dates.
  ///   - network: How long sync waits on the network at each step.
  ///   - signalTiming: How often the server's signal connection is checked, and how soon
  ///     a lost one is made again.
  /// - Returns: The open library, not yet started.
  /// - Throws: The storage's error if the file cannot be opened, read or filled; nothing
  ///   is left open then.
  public static func open(
    path: String?, samples: Samples, shortcut: (SessionCommand) -> String = { _ in "" },
    now: @escaping () -> Date = { Date() }, network: NetworkBounds = .standard,
    signalTiming: ServerSignals.Timing = .standard
  ) throws -> NotesLibrary {
    let location = DatabaseLocation.resolve(explicitPath: path)
    let isNew = !FileManager.default.fileExists(atPath: location.path)
    let database = try NotesDatabase(location: location)
    do {
      let state = try database.loadState()
      let model = Model(state, storage: database)
      if samples == .whenNew, isNew, state.notebooks.count == 0, state.notes.count == 0 {
        try SampleLibrary.add(to: model, now: now())
      }
      // Notes in Recently Deleted past the time they are kept go for good. A library that
      // cannot be written now (read-only) keeps them until one that can opens it.
      _ = try? RecentlyDeleted.removeExpired(from: model, now: now())
      // Note history is thinned once a day (see `NoteHistory`), off the main actor.
      database.thinHistory(now: now())
      let shortcuts = Dictionary(
        uniqueKeysWithValues: SessionCommand.allCases.map { ($0, shortcut($0)) })
      return NotesLibrary(
        location: location, database: database, model: model, shortcuts: shortcuts, now: now,
        network: network, signalTiming: signalTiming)
    } catch {
      database.close()
      throw error
    }
  }

  /// The library file's path.
  public var path: String { database.path }

  /// Why the last change that failed to save failed, or `nil` if none did.
  ///
  /// A session reports a failed save as text; a program that answers it with an exit
  /// status (a full disk, a read-only file) reads the cause here.
  public var lastSaveFailure: NotesStorageError? { database.lastCommitFailure }

  /// Starts following other writers and, with a sync server, syncing live.
  ///
  /// - Parameter wake: What wakes the watcher that applies other writers' commits: writes
  ///   to the library's files (the default; it polls every 100 ms where no file watch can
  ///   be made), or a timer.
  public func start(watching wake: LibraryWatcher.Wake = .fileEvents) {
    guard !isClosed, watcher == nil else { return }
    let interval: Duration
    if case .polling(let every) = wake { interval = every } else { interval = .milliseconds(100) }
    let watcher = LibraryWatcher(database: database, model: model, interval: interval, wake: wake)
    watcher.start()
    self.watcher = watcher
    startLiveSync()
  }

  /// Starts live sync on the driver, listening to the server's signals; nothing without a
  /// server.
  private func startLiveSync() {
    guard let store = try? LibrarySyncStore(path: database.path) else { return }
    defer { store.close() }
    guard let server = try? store.server() else { return }
    let driver = syncDriver
    let signals = ServerSignals(
      url: server, device: store.deviceID, sender: syncService.sender, bounds: network,
      timing: signalTiming
    ) { [weak driver] in driver?.request(.signal) }
    driver.startLive(listeningTo: signals)
  }

  /// Whether live sync runs (the library has a server and ``start(watching:)`` ran).
  public var isSyncingLive: Bool { syncDriver.isLive }

  /// Applies what other writers committed since the last check, now.
  ///
  /// - Returns: Whether there was anything.
  @discardableResult
  public func catchUp() -> Bool { watcher?.check() ?? ((try? model.catchUpWithStorage()) ?? false) }

  /// Stops the sync driver and the watcher, closes every session still open (each saving
  /// its editor's draft), the library session and the database, in that order; calling it
  /// again does nothing.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    syncDriver.stop()
    watcher?.cancel()
    for session in sessions.compactMap(\.session) { session.close() }
    sessions = []
    first = nil
    shared.close()
    database.close()
  }
}

/// A session the library closes if its presentation has not.
private struct WeakSession {
  weak var session: NotesSession?
}
