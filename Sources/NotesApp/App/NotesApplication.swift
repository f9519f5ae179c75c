// NotesApplication: the terminal presentation of one Notes model. (Skeleton; being
// implemented.)

public import Airframe
public import Foundation
public import NotesCore

/// The Notes app as a terminal presents it: keys in, screens out.
@MainActor
public final class NotesApplication {
  /// Whether the user asked to quit.
  public private(set) var isFinished = false
  /// Called when something shown changed outside a key press (such as sync progress).
  public var onNeedsDisplay: (@MainActor () -> Void)?

  /// Creates the app over a model.
  ///
  /// - Parameters:
  ///   - model: The Notes model.
  ///   - syncService: The service "Sync Now" talks to.
  ///   - now: The clock for modification dates.
  public init(
    model: Model<NotesState>, syncService: any SyncService, now: @escaping () -> Date = { Date() }
  ) {}

  /// Handles one key press.
  ///
  /// - Parameter key: The key.
  public func handle(_ key: Key) {}

  /// Draws every pane into a buffer of the given size.
  ///
  /// - Parameters:
  ///   - width: Columns.
  ///   - height: Rows.
  /// - Returns: The screen.
  public func render(width: Int, height: Int) -> ScreenBuffer {
    ScreenBuffer(width: width, height: height)
  }

  /// Saves the editor's draft and ends every binding; call it before the program exits.
  public func shutdown() {}
}
