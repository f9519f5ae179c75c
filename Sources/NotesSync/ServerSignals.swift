// ServerSignals: waits for the server's signal that another device pushed, on a thread of
// its own, and tells the main actor.
//
// Guarantees
// - Listens on its account's channel (`ServerAccount`: a name only that account can read)
//   over a connection of its own, on a thread of its own (libpq waits block), so the main
//   actor never waits for the network, and no other account's pushes reach it.
// - Signals from this device's own pushes are ignored; every other one calls `onSignal`
//   on the main actor, at most once per batch of signals received together.
// - A lost connection is made again every 2 seconds until it works; signals sent while it
//   was lost are not replayed — the next sync (on start, on a commit, by hand) pulls them.
// - `stop()` ends the thread within half a second; it never blocks the caller.

internal import Foundation
internal import NotesServer

/// The server's "another device pushed" signal, delivered to the main actor.
///
/// ```swift
/// let signals = ServerSignals(url: server, device: engine.deviceID) { session.startBackgroundSync() }
/// signals.start()
/// ```
public final class ServerSignals: @unchecked Sendable {
  private let url: String
  private let device: String
  private let onSignal: @MainActor @Sendable () -> Void
  private let lock = NSLock()
  private var stopped = false

  /// Creates a listener; it waits for nothing until ``start()``.
  ///
  /// - Parameters:
  ///   - url: The server's connection string.
  ///   - device: This device's id, whose own signals are ignored.
  ///   - onSignal: Called on the main actor when another device pushed.
  public init(url: String, device: String, onSignal: @escaping @MainActor @Sendable () -> Void) {
    self.url = url
    self.device = device
    self.onSignal = onSignal
  }

  /// Starts listening on a thread of its own.
  public func start() {
    let thread = Thread { [self] in listen() }
    thread.name = "notes.sync.signals"
    thread.start()
  }

  /// Stops listening; the thread ends within half a second.
  public func stop() {
    lock.withLock { stopped = true }
  }

  private var isStopped: Bool { lock.withLock { stopped } }

  private func listen() {
    var connection: PostgresConnection?
    while !isStopped {
      do {
        if connection == nil {
          let fresh = try PostgresConnection(url: url)
          try fresh.listen(try ServerAccount(checking: fresh).channel)
          connection = fresh
        }
        let signals = try connection?.notifications(waitingUpTo: .milliseconds(500)) ?? []
        let fromOthers = signals.contains { !$0.payload.hasSuffix(" \(device)") }
        if fromOthers, !isStopped {
          let onSignal = onSignal
          DispatchQueue.main.async { MainActor.assumeIsolated { onSignal() } }
        }
      } catch {
        connection?.close()
        connection = nil
        for _ in 0..<4 where !isStopped { Thread.sleep(forTimeInterval: 0.5) }
      }
    }
    connection?.close()
  }
}
