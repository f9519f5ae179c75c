public import Airframe
import Foundation

/// What the status bar shows.
public struct StatusBar: Equatable, Sendable {
  /// "3 notebooks · 42 notes".
  public var counts: String
  /// "Synced", "Synced, 2 bad versions kept aside", "Syncing 40%", "Sync failed: …" or
  /// "Not synced".
  public var sync: String
  /// The last error or validation message, if any.
  public var message: String?

  /// The whole line, parts separated by " · ".
  public var text: String {
    ([counts, sync] + [message].compactMap { $0 }).joined(separator: " · ")
  }
}

/// The status bar's View State Controller.
///
/// ## Guarantees
///
/// - A lens: reads the model and the outcomes the app reports; never writes the model.
/// - Counts come from the tables' sizes (O(1) per commit); the sync text follows the model's
///   sync status, showing a running sync only once it has lasted the controller's delay
///   (its `SyncDisplay`), so the sync the app runs after each edit does not flicker; the
///   message is the last refused or failed outcome reported (or the last `inform` text),
///   cleared by the next successful one or by `clearMessage`. Equal status values are not
///   delivered again.
@MainActor
@_spi(Instrumentation) public final class StatusBarController: ViewStateController {
  private let statusSource: StateSource<StatusBar>
  private var lifetime: Lifetime?
  private var message: String?
  private let model: Model<NotesState>
  /// Whether a running sync is shown yet.
  private let syncDisplay: SyncDisplay
  /// The model revision the status reflects.
  public private(set) var renderedRevision: Int

  /// Creates the controller and starts following `model`.
  ///
  /// - Parameters:
  ///   - model: The Notes model.
  ///   - syncDelay: How long a sync runs before the status bar shows it.
  ///   - scheduler: Where that delay passes.
  public init(
    model: Model<NotesState>, syncDelay: Duration = SyncDisplay.standardDelay,
    scheduler: any WorkScheduler = .mainActor
  ) {
    self.model = model
    renderedRevision = model.revision
    statusSource = StateSource(Self.status(for: model.state, message: nil))
    syncDisplay = SyncDisplay(status: model.state.sync, delay: syncDelay, scheduler: scheduler)
    syncDisplay.onReveal = { [weak self] in
      guard let self else { return }
      render(self.model.state)
    }
    lifetime = model.observeCommits { [weak self] commit in
      guard let self else { return }
      renderedRevision = commit.revision
      if commit.changes.changed(\.sync) { syncDisplay.follow(commit.state.sync) }
      render(commit.state)
    }
  }

  private func render(_ state: NotesState) {
    statusSource.set(
      Self.status(for: state, showing: syncDisplay.shown(state.sync), message: message))
  }

  /// What the status bar shows.
  public var status: some StateProjection<StatusBar> { statusSource }

  /// Shows the message of a refused or failed outcome; a committed one clears it.
  ///
  /// - Parameter outcome: What a gesture's action did.
  public func report(_ outcome: ActionOutcome) {
    switch outcome {
    case .committed, .unchanged: message = nil
    case .cancelled, .superseded: return
    case .invalid, .failed, .rejected: message = outcome.displayDescription
    }
    statusSource.update { $0.message = message }
  }

  /// Shows a message that says what a gesture did, such as "Deleted “Groceries”".
  ///
  /// It stays until the next message, or until ``clearMessage()``.
  ///
  /// - Parameter text: The message.
  public func inform(_ text: String) {
    message = text
    statusSource.update { $0.message = text }
  }

  /// Removes the message, if one is shown.
  public func clearMessage() {
    guard message != nil else { return }
    message = nil
    statusSource.update { $0.message = nil }
  }

  /// How the status differs from the status computed from the model now (with the current
  /// message), or `nil` when they agree (see `ViewStateController`).
  ///
  /// - Returns: Both statuses, when they differ.
  public func differenceFromModel() -> String? {
    let state = model.state
    let expected = Self.status(for: state, showing: syncDisplay.shown(state.sync), message: message)
    let shown = statusSource.value
    return shown == expected ? nil : "shows \"\(shown.text)\"; the model gives \"\(expected.text)\""
  }

  /// Stops following the model.
  public func cancel() {
    lifetime?.cancel()
    syncDisplay.cancel()
  }

  /// The status for a state and message, computed from scratch, with the model's sync
  /// status as it is (a running sync shown at once).
  ///
  /// - Parameters:
  ///   - state: A state.
  ///   - message: The last error or validation message.
  /// - Returns: The status.
  public static func status(for state: NotesState, message: String?) -> StatusBar {
    status(for: state, showing: state.sync, message: message)
  }

  /// The status for a state, the sync status shown and a message, computed from scratch.
  ///
  /// - Parameters:
  ///   - state: A state.
  ///   - sync: The sync status to show (see `SyncDisplay`).
  ///   - message: The last error or validation message.
  /// - Returns: The status.
  public static func status(
    for state: NotesState, showing sync: SyncStatus, message: String?
  ) -> StatusBar {
    let notebooks = state.notebooks.count == 1 ? "1 notebook" : "\(state.notebooks.count) notebooks"
    let notes = state.notes.count == 1 ? "1 note" : "\(state.notes.count) notes"
    var text: String
    switch sync {
    case .idle(let last):
      text = last == nil ? "Not synced" : "Synced"
      if state.syncKeptAside > 0 {
        let versions =
          state.syncKeptAside == 1 ? "1 bad version" : "\(state.syncKeptAside) bad versions"
        text += ", \(versions) kept aside"
      }
    case .syncing(let progress, _): text = "Syncing \(Int((progress * 100).rounded()))%"
    case .failed(let reason, _): text = "Sync failed: \(reason)"
    }
    return StatusBar(counts: "\(notebooks) · \(notes)", sync: text, message: message)
  }
}
