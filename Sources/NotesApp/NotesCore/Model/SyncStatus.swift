public import Foundation

/// Where synchronization with the server stands.
public enum SyncStatus: Equatable, Sendable {
  /// Not syncing; `lastSynced` is when the last sync finished, if ever.
  case idle(lastSynced: Date?)
  /// Syncing; `progress` runs from 0 to 1.
  case syncing(progress: Double, lastSynced: Date?)
  /// The last sync failed with `message`; a retry is possible.
  case failed(message: String, lastSynced: Date?)

  /// When the last successful sync finished, if ever.
  public var lastSynced: Date? {
    switch self {
    case .idle(let date), .syncing(_, let date), .failed(_, let date): date
    }
  }
}
