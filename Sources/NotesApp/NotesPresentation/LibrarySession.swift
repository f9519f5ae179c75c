public import Airframe
public import Foundation
@_spi(Instrumentation) public import NotesCore

/// The part of a Notes session that every presentation of one library shares.
///
/// A library open in one process has one `LibrarySession`, and each presentation (a desktop
/// window, the terminal app, a test) has a ``NotesSession`` of its own over it:
///
/// ```swift
/// let library = LibrarySession(model: model, sync: SyncDriver(model: model, service: service))
/// let first = NotesSession(library: library)
/// let second = NotesSession(library: library)   // a second window
/// first.noteSelected(groceries)                  // the second keeps its own selection
/// second.close(); first.close(); library.close()
/// ```
///
/// What is shared is what belongs to the library rather than to a view of it: the model,
/// the dispatcher and with it **one undo history**, the deletions waiting for the user's
/// answer, and the sync driver. What a presentation shows (selection, search, sort, the
/// editor's draft and cursor, the window title, the status bar's message) belongs to its
/// own session.
///
/// ## Guarantees
///
/// - One undo history per library, as AppKit keeps one undo manager per document however
///   many windows show it: Undo in any presentation takes back the library's last step,
///   whichever presentation took it. Histories per window would let one window undo its
///   own older step under a newer one another window made to the same note, which an
///   inverse-based undo cannot do without losing the newer edit.
/// - A deletion waiting for an answer is the library's, not the asking window's: every
///   presentation can show it and answer it, it outlives the window that asked, and once
///   answered anywhere it is gone everywhere (see ``NotesSession/confirmations``).
/// - `close()` ends the shared bindings; close every session over the library first.
///   Calling it again does nothing.
@MainActor
public final class LibrarySession {
  /// The library's model.
  ///
  /// Internal: presentations read their session's projections and change the library
  /// through its gestures. Whoever opens the library made the model and keeps it (see
  /// `NotesLibrary` in NotesHost).
  let model: Model<NotesState>
  /// Runs every action and keeps the library's one undo history.
  let dispatcher: ActionDispatcher<NotesState>
  /// Deleting notebooks, with confirmations every presentation shares.
  let notebookDeletion: NotebookDeletion
  /// The library's sync driver, which sessions only ask for a sync (Sync Now).
  ///
  /// Whoever opened the library made it and stops it (see `NotesLibrary`): when syncs start
  /// is not a presentation's business.
  let sync: SyncDriver
  /// The clock for modification dates.
  let now: () -> Date
  /// Where notes' kept versions are read from; `nil` when the library keeps none.
  let historyReader: (any NoteHistoryReader)?
  /// The latest model revision, published after every commit.
  let revision: StateSource<Int>
  /// The notes in Recently Deleted, most recently deleted first (then by id), kept in order
  /// from each commit's changes: one list for every presentation, never re-sorted.
  let recentlyDeleted: ListLens<NotesState, DeletedNote, DeletedNote>
  private let bag = LifetimeBag(label: "LibrarySession")

  /// Shares a library's model among its presentations.
  ///
  /// - Parameters:
  ///   - model: The library's model.
  ///   - sync: The library's sync driver, which "Sync Now" asks.
  ///   - now: The clock for modification dates.
  ///   - history: Where notes' kept versions are read from (the library's storage); `nil`
  ///     for none.
  public init(
    model: Model<NotesState>, sync: SyncDriver, now: @escaping () -> Date = { Date() },
    history: (any NoteHistoryReader)? = nil
  ) {
    self.model = model
    self.sync = sync
    self.now = now
    self.historyReader = history
    dispatcher = ActionDispatcher(model: model)
    notebookDeletion = NotebookDeletion(dispatcher: dispatcher, now: now)
    revision = StateSource(model.revision)
    recentlyDeleted = ListLens(
      model: model, table: \.recentlyDeleted,
      order: ListOrder { ($0.deleted, $0.id.rawValue) > ($1.deleted, $1.id.rawValue) })
    model.observeCommits { [unowned self] commit in revision.set(commit.revision) }.store(in: bag)
  }

  /// Ends the shared bindings; call it after every session over the library has closed.
  ///
  /// Calling it again does nothing.
  public func close() {
    bag.cancelAll()
    notebookDeletion.cancel()
    recentlyDeleted.cancel()
  }
}
