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
///   sync status; the message is the last refused or failed outcome reported (or the last
///   `inform` text), cleared by the next successful one or by `clearMessage`. Equal status
///   values are not delivered again.
@MainActor
@_spi(Instrumentation) public final class StatusBarController: ViewStateController {
  private let statusSource: StateSource<StatusBar>
  private var lifetime: Lifetime?
  private var message: String?
  private let model: Model<NotesState>
  /// The model revision the status reflects.
  public private(set) var renderedRevision: Int

  /// Creates the controller and starts following `model`.
  ///
  /// - Parameter model: The Notes model.
  public init(model: Model<NotesState>) {
    self.model = model
    renderedRevision = model.revision
    statusSource = StateSource(Self.status(for: model.state, message: nil))
    lifetime = model.observeCommits { [weak self] commit in
      guard let self else { return }
      renderedRevision = commit.revision
      statusSource.set(Self.status(for: commit.state, message: message))
    }
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
    let expected = Self.status(for: model.state, message: message)
    let shown = statusSource.value
    return shown == expected ? nil : "shows \"\(shown.text)\"; the model gives \"\(expected.text)\""
  }

  /// Stops following the model.
  public func cancel() { lifetime?.cancel() }

  /// The status for a state and message, computed from scratch.
  ///
  /// - Parameters:
  ///   - state: A state.
  ///   - message: The last error or validation message.
  /// - Returns: The status.
  public static func status(for state: NotesState, message: String?) -> StatusBar {
    let notebooks = state.notebooks.count == 1 ? "1 notebook" : "\(state.notebooks.count) notebooks"
    let notes = state.notes.count == 1 ? "1 note" : "\(state.notes.count) notes"
    var sync: String
    switch state.sync {
    case .idle(let last):
      sync = last == nil ? "Not synced" : "Synced"
      if state.syncKeptAside > 0 {
        let versions =
          state.syncKeptAside == 1 ? "1 bad version" : "\(state.syncKeptAside) bad versions"
        sync += ", \(versions) kept aside"
      }
    case .syncing(let progress, _): sync = "Syncing \(Int((progress * 100).rounded()))%"
    case .failed(let reason, _): sync = "Sync failed: \(reason)"
    }
    return StatusBar(counts: "\(notebooks) · \(notes)", sync: sync, message: message)
  }
}
