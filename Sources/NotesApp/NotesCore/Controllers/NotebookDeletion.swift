public import Airframe
public import Foundation

/// A pending question to the user: whether to delete a notebook and its notes.
public struct DeletionConfirmation: Identifiable, Equatable, Sendable {
  /// The confirmation's id.
  public let id: Int
  /// The notebook to delete.
  public let notebookID: NotebookID
  /// The question to show, such as `Delete "Work" and its 3 notes?`, the notebook's title
  /// isolated (`BidiIsolation`) so a right-to-left title cannot reorder the question.
  public let message: String
}

/// Turns "delete notebook" gestures into actions, asking first when notes would go too.
///
/// ## Guarantees
///
/// - An empty notebook is deleted at once (one undoable action).
/// - A notebook with notes is not deleted until the user confirms: the request becomes a
///   `DeletionConfirmation` posted to `confirmations`, a durable outcome held here, not by a
///   view. A view that detaches and reattaches sees a pending confirmation again; once
///   answered (confirmed or declined) it is never shown again.
/// - Confirming dispatches `DeleteNotebook(deletingNotes: true)`; declining changes nothing.
///   Answering an unknown or already answered confirmation does nothing.
/// - A confirmation whose notebook is gone (undone, deleted by another process or by sync)
///   is withdrawn at the commit that removed it, so no view asks about a notebook that no
///   longer exists.
/// - A request for a notebook that already awaits confirmation is not posted twice.
@MainActor
@_spi(Instrumentation) public final class NotebookDeletion {
  /// Confirmations waiting for an answer; views observe them and answer through
  /// ``answer(_:confirmed:)``, never by acknowledging them themselves.
  public var confirmations: PendingOutcomes<DeletionConfirmation> { outcomes.readOnly }
  private let outcomes = DurableOutcomes<DeletionConfirmation>()
  private let dispatcher: ActionDispatcher<NotesState>
  /// When a deletion happens, as Recently Deleted records it.
  private let now: () -> Date
  private var nextID = 0
  private var pendingByNotebook: [NotebookID: Int] = [:]
  private var lifetime: Lifetime?

  /// Creates the controller.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the deletions.
  ///   - now: The clock for the date Recently Deleted records; the current time by default.
  public init(dispatcher: ActionDispatcher<NotesState>, now: @escaping () -> Date = { Date() }) {
    self.dispatcher = dispatcher
    self.now = now
    lifetime = dispatcher.model.observeCommits { [weak self] commit in
      guard let self, !pendingByNotebook.isEmpty,
        !commit.changes.changes(in: \.notebooks).removed.isEmpty
      else { return }
      for (notebook, id) in pendingByNotebook where commit.state.notebooks[notebook] == nil {
        _ = outcomes.acknowledge(id)
        pendingByNotebook[notebook] = nil
      }
    }
  }

  /// Stops following the model; pending confirmations stay as they are.
  public func cancel() { lifetime?.cancel() }

  /// Deletes the notebook, or asks for confirmation if it has notes.
  ///
  /// - Parameter id: The notebook.
  /// - Returns: The outcome; `.unchanged` while a confirmation is pending.
  @discardableResult
  public func deleteRequested(_ id: NotebookID) -> ActionOutcome {
    let state = dispatcher.model.state
    guard let notebook = state.notebooks[id] else {
      return dispatcher.dispatch(DeleteNotebook(id: id, now: now()))
    }
    let count = state.notes.elements.lazy.filter { $0.notebookID == id }.count
    guard count > 0 else { return dispatcher.dispatch(DeleteNotebook(id: id, now: now())) }
    guard pendingByNotebook[id] == nil else { return .unchanged }
    nextID += 1
    pendingByNotebook[id] = nextID
    let notes = count == 1 ? "its note" : "its \(count) notes"
    outcomes.post(
      DeletionConfirmation(
        id: nextID, notebookID: id,
        message: "Delete \"\(BidiIsolation.isolate(notebook.title))\" and \(notes)?"))
    return .unchanged
  }

  /// Answers a confirmation: deletes the notebook and its notes if `confirmed`.
  ///
  /// - Parameters:
  ///   - id: The confirmation's id.
  ///   - confirmed: Whether the user confirmed.
  /// - Returns: The deletion's outcome, `.unchanged` when declined, or `.rejected` for an
  ///   unknown or already answered confirmation.
  @discardableResult
  public func answer(_ id: DeletionConfirmation.ID, confirmed: Bool) -> ActionOutcome {
    guard let confirmation = outcomes.pending.first(where: { $0.id == id }),
      outcomes.acknowledge(id)
    else { return .rejected("That confirmation was already answered.") }
    pendingByNotebook[confirmation.notebookID] = nil
    guard confirmed else { return .unchanged }
    return dispatcher.dispatch(
      DeleteNotebook(id: confirmation.notebookID, deletingNotes: true, now: now()))
  }
}
