import Airframe
public import Foundation

/// A service that synchronizes the notes with a server; injected into the app.
///
/// ## Guarantees a conformer must keep
///
/// - `sync(progress:)` reports progress from 0 to 1 in increasing order, then returns the
///   time the sync finished, or throws. It may run on any executor.
/// - Cancellation of the calling task ends the sync; a conformer should throw
///   `CancellationError` promptly.
public protocol SyncService: Sendable {
  /// Runs one sync.
  ///
  /// - Parameter progress: Called with values from 0 to 1, in increasing order.
  /// - Returns: When the sync finished.
  /// - Throws: Why the sync failed, or `CancellationError`.
  func sync(progress: @escaping @Sendable (Double) async -> Void) async throws -> Date

  /// How many versions from the server the library keeps aside unread (they broke the
  /// app's rules and were not applied); asked after each successful sync, for the status.
  ///
  /// - Returns: The count; 0 by default.
  func keptAsideCount() async -> Int

  /// How long to wait after a failed sync before live sync tries again; `nil` to wait for
  /// the next reason to sync instead.
  var retryDelay: Duration? { get }
}

extension SyncService {
  /// No version is ever kept aside: the default for a service that applies what it
  /// receives through the actions.
  ///
  /// - Returns: 0.
  public func keptAsideCount() async -> Int { 0 }

  /// No retry of its own: the next reason to sync tries again.
  public var retryDelay: Duration? { nil }
}
