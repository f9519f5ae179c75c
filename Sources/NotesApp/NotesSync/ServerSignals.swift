public import Airframe
internal import Foundation
public import NotesCore
public import NotesServer

/// The server's "another device pushed" signal, delivered to the main actor.
///
/// Listens for the server's signal that another device pushed, and tells the main actor; keeps the
/// listening connection alive, and makes it again when it is lost.
///
/// ```swift
/// let signals = ServerSignals(url: server, device: engine.deviceID, sender: engine.sender) {
///   driver.request(.signal)
/// }
/// driver.startLive(listeningTo: signals)   // the driver starts it, and stops it
/// ```
///
/// ## Guarantees
///
/// - Listens on its account's channel (`ServerAccount`: a name only that account can read)
///   over a connection of its own, so no other account's pushes reach it. Every libpq call
///   runs on that connection's serial queue (`ServerSignals.Connection`), never on the main
///   actor: the app never waits for the network.
/// - Signals of this program's own pushes (its `sender`; without one, an older release's, its
///   device's) are ignored; every batch received together with another's calls `onSignal` on
///   the main actor once. Copies of one library share its device id, so the sender, not the
///   device, tells them apart (`PushSignal`): each hears the other's pushes.
/// - A lost connection is noticed when the server closes it or the socket fails (at once),
///   or, for a network that went silent, by the heartbeat: every `timing.heartbeat` the
///   connection is asked a `SELECT 1`, which fails after `bounds.answer` of silence. A
///   silent signal connection is so noticed within heartbeat + answer.
/// - A lost or refused connection is made again `timing.reconnectDelay` later, until it
///   works. Signals sent while it was lost are not replayed, so a connection made again
///   calls `onSignal` once: the sync it starts pulls what was missed.
/// - Time (the heartbeat, the delay before reconnecting) passes on `scheduler`, so a test
///   drives every wait with a virtual clock; connecting and pinging are tasks of the
///   scheduler, so its `runUntilIdle()` waits for them. Events from the network (a signal, a
///   connection the server closed) reach the main actor as they happen; `status` says where
///   the listener is, for anyone (a test) to observe.
/// - `stop()` cancels every wait and closes the connection on its queue; nothing is called
///   afterwards. It never blocks the caller.
@MainActor
public final class ServerSignals {
  /// How often the connection is checked, and how long to wait before connecting again.
  public struct Timing: Equatable, Sendable {
    /// How long after a lost or refused connection the next one is tried.
    public var reconnectDelay: Duration
    /// How long between two checks that the connection still works.
    public var heartbeat: Duration

    /// Creates a timing.
    ///
    /// - Parameters:
    ///   - reconnectDelay: The wait before connecting again.
    ///   - heartbeat: The time between two checks of the connection.
    public init(reconnectDelay: Duration, heartbeat: Duration) {
      self.reconnectDelay = reconnectDelay
      self.heartbeat = heartbeat
    }

    /// A new try 2 s after a loss; a check every 15 s.
    public static let standard = Timing(reconnectDelay: .seconds(2), heartbeat: .seconds(15))
  }

  /// Where the listener is.
  public enum Status: Equatable, Sendable {
    /// Not started, or stopped.
    case stopped
    /// Connecting (and starting to listen).
    case connecting
    /// Listening for signals.
    case listening
    /// The connection was lost or refused, for `reason`; the next one is tried after the
    /// timing's delay.
    case waitingToReconnect(reason: String)
  }

  /// Where the listener is, as it changes.
  public var status: some StateProjection<Status> { statusSource }
  private let statusSource = StateSource<Status>(.stopped)
  /// The number of connections made, the first included.
  public private(set) var connectionCount = 0

  private let url: String
  private let device: String
  private let sender: String
  private let bounds: NetworkBounds
  private let timing: Timing
  private let scheduler: any WorkScheduler
  private let onSignal: @MainActor () -> Void
  private var connection: Connection?
  /// Counts connection attempts; an event or outcome of an older one is ignored.
  private var generation = 0
  private var waits: [Task<Void, Never>] = []
  private var isStarted = false
  private var isStopped = false

  /// Creates a listener; it waits for nothing until ``start()``.
  ///
  /// - Parameters:
  ///   - url: The server's connection string.
  ///   - device: This library's device id.
  ///   - sender: The sender this program's pushes signal with, whose signals are ignored
  ///     (`SyncEngine.sender`, `ServerSyncService.sender`).
  ///   - bounds: How long the connection waits on the network.
  ///   - timing: The heartbeat and the delay before connecting again.
  ///   - scheduler: Where the waits pass and the connection's work is started.
  ///   - onSignal: Called on the main actor when another device pushed, and after a
  ///     connection was made again.
  public init(
    url: String, device: String, sender: String, bounds: NetworkBounds = .standard,
    timing: Timing = .standard, scheduler: any WorkScheduler = .mainActor,
    onSignal: @escaping @MainActor () -> Void
  ) {
    self.url = url
    self.device = device
    self.sender = sender
    self.bounds = bounds
    self.timing = timing
    self.scheduler = scheduler
    self.onSignal = onSignal
  }

  /// Connects and starts listening; calling it again does nothing.
  public func start() {
    guard !isStarted, !isStopped else { return }
    isStarted = true
    connect()
  }

  /// Stops listening: every wait is cancelled, the connection closed on its queue, and
  /// nothing is called afterwards.
  public func stop() {
    guard !isStopped else { return }
    isStopped = true
    generation += 1
    for wait in waits { wait.cancel() }
    waits = []
    connection?.close()
    connection = nil
    statusSource.set(.stopped)
  }

  private func connect() {
    generation += 1
    let attempt = generation
    statusSource.set(.connecting)
    let connection = Connection(url: url, bounds: bounds) { [weak self] event in
      Task { @MainActor in self?.handle(event, of: attempt) }
    }
    self.connection = connection
    waits.append(
      scheduler.startTask { [weak self] in
        let outcome = await connection.open()
        self?.opened(outcome, attempt: attempt)
      })
  }

  private func opened(_ outcome: Result<Void, PostgresError>, attempt: Int) {
    guard attempt == generation, !isStopped else { return }
    switch outcome {
    case .success:
      connectionCount += 1
      statusSource.set(.listening)
      if connectionCount > 1 {
        // Whatever was signalled while the connection was lost is pulled now.
        onSignal()
      }
      checkAfterHeartbeat(attempt: attempt)
    case .failure(let error):
      lost(error.message)
    }
  }

  /// Every heartbeat, asks the connection whether it still works.
  private func checkAfterHeartbeat(attempt: Int) {
    let (scheduler, heartbeat) = (scheduler, timing.heartbeat)
    waits.append(
      scheduler.startTask { [weak self] in
        while true {
          do { try await scheduler.sleep(for: heartbeat) } catch { return }
          guard let connection = self?.current(attempt) else { return }
          if case .failure(let error) = await connection.ping() {
            self?.handle(.lost(error.message), of: attempt)
            return
          }
        }
      })
  }

  private func current(_ attempt: Int) -> Connection? {
    attempt == generation && !isStopped ? connection : nil
  }

  private func handle(_ event: Connection.Event, of attempt: Int) {
    guard attempt == generation, !isStopped else { return }
    switch event {
    case .signals(let payloads):
      let (sender, device) = (sender, device)
      let isOwn = { PushSignal(payload: $0)?.isSent(by: sender, device: device) ?? false }
      if !payloads.allSatisfy(isOwn) { onSignal() }
    case .lost(let reason):
      lost(reason)
    }
  }

  /// The connection is gone: close it, and try again after the delay.
  private func lost(_ reason: String) {
    generation += 1
    for wait in waits { wait.cancel() }
    waits = []
    connection?.close()
    connection = nil
    statusSource.set(.waitingToReconnect(reason: reason))
    let (scheduler, delay) = (scheduler, timing.reconnectDelay)
    waits.append(
      scheduler.startTask { [weak self] in
        do { try await scheduler.sleep(for: delay) } catch { return }
        guard let self, !self.isStopped else { return }
        self.connect()
      })
  }
}

extension ServerSignals: SyncSignalListener {}
