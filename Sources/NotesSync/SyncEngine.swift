// SyncEngine: one device's sync — push what changed here, pull what changed elsewhere,
// merge, and repeat until both sides agree.
//
// Guarantees
// - A sync is rounds of push then pull. Push sends every pending change in one server
//   transaction; accepted ones become ancestors, refused ones (the server had a newer
//   version) are made again after the pull merged them. Pull applies the server's versions
//   in pages, each page one local transaction with its cursor. A round that pushed nothing
//   refused and left nothing pending ends the sync; at most `maximumRounds` rounds run.
// - Nothing is lost by a failure at any point: pending changes stay pending until
//   acknowledged, a change pushed twice is applied once (its id), a page is applied with
//   its cursor or not at all.
// - Never on the main actor: every call blocks on SQLite and the network. One engine, one
//   thread or serial queue.

internal import Foundation
internal import NotesCore
internal import NotesServer
internal import NotesStorage

/// What one sync moved.
public struct SyncReport: Equatable, Sendable {
  /// Changes the server accepted from this device.
  public var pushed = 0
  /// Versions pulled from the server that were new here (not this device's own changes).
  public var pulled = 0
  /// Entities that changed in the library.
  public var applied = 0
  /// Conflict copies saved.
  public var conflictCopies = 0
  /// What the user is told.
  public var notices: [String] = []
  /// Changes still waiting for the server (another device kept pushing).
  public var pending = 0

  /// An empty report.
  public init() {}
}

/// One device's sync with the server.
///
/// ```swift
/// let engine = try SyncEngine(libraryPath: path)   // the server set up with `notes sync setup`
/// let report = try engine.sync()
/// print("pushed \(report.pushed), pulled \(report.pulled)")
/// ```
public final class SyncEngine {
  /// Why a sync cannot start.
  public struct NotSetUp: Error, CustomStringConvertible {
    /// The explanation.
    public var description: String {
      "sync is not set up for this library: run `notes sync setup URL` first"
    }
  }

  /// Progress through one sync: changes pushed and versions pulled, of those known.
  public struct Progress: Equatable, Sendable {
    /// Changes and versions moved so far.
    public var done: Int
    /// Changes and versions known to move.
    public var total: Int

    /// The fraction done, from 0 to 1.
    public var fraction: Double { total == 0 ? 1 : min(1, Double(done) / Double(total)) }
  }

  /// The most push–pull rounds one sync runs.
  public static let maximumRounds = 5
  /// How many notes one pulled page holds.
  public static let pageSize = 1_000

  let store: LibrarySyncStore
  let server: SyncServer

  /// Opens the library's sync side and connects to its server.
  ///
  /// - Parameters:
  ///   - libraryPath: The library file, at the current schema version.
  ///   - serverURL: The server; the one set up for the library if `nil`.
  /// - Throws: ``NotSetUp``, a `NotesStorageError` or a `PostgresError`.
  public init(libraryPath: String, serverURL: String? = nil) throws {
    let store = try LibrarySyncStore(path: libraryPath)
    guard let url = try serverURL ?? store.server() else { throw NotSetUp() }
    self.store = store
    self.server = try SyncServer(url: url)
  }

  /// This library's device id.
  public var deviceID: String { store.deviceID }

  /// Closes the library and the server connection.
  public func close() {
    store.close()
    server.close()
  }

  /// Runs one sync.
  ///
  /// - Parameter progress: Called after each push and each page pulled.
  /// - Returns: What moved.
  /// - Throws: A `NotesStorageError` or `PostgresError`; what was done before stays done.
  @discardableResult
  public func sync(progress: (Progress) -> Void = { _ in }) throws -> SyncReport {
    var report = SyncReport()
    var moved = 0
    for _ in 0..<Self.maximumRounds {
      let changes = try store.outgoingChanges()
      let incoming = try server.count(after: try store.cursor())
      var total = moved + changes.count + incoming
      progress(Progress(done: moved, total: total))
      var refused: [OutgoingChange] = []
      if !changes.isEmpty {
        let outcomes = try server.push(changes, device: store.deviceID)
        var accepted: [(OutgoingChange, seq: Int64)] = []
        for (change, outcome) in zip(changes, outcomes) {
          switch outcome {
          case .accepted(let seq): accepted.append((change, seq))
          case .refused: refused.append(change)
          }
        }
        try store.acknowledge(accepted)
        try store.discardRefused(refused)
        report.pushed += accepted.count
        moved += changes.count
        progress(Progress(done: moved, total: total))
      }
      while true {
        let cursor = try store.cursor()
        let notebooks = try server.pull(.notebook, after: cursor, limit: Int(Int32.max))
        let notes = try server.pull(.note, after: cursor, limit: Self.pageSize)
        guard !notebooks.isEmpty || !notes.isEmpty else { break }
        let newCursor =
          notes.count == Self.pageSize
          ? notes[notes.count - 1].seq
          : max(notebooks.last?.seq ?? cursor, notes.last?.seq ?? cursor)
        let applied = try store.apply(notebooks + notes, cursor: newCursor)
        report.pulled += applied.received
        report.applied += applied.applied
        report.conflictCopies += applied.conflictCopies
        report.notices += applied.notices
        moved += notes.count
        total = max(total, moved)
        progress(Progress(done: moved, total: total))
      }
      report.pending = try store.pendingCount()
      if report.pending == 0 { break }
    }
    try store.recordSynced(at: Date())
    return report
  }
}
