public import Airframe
import Foundation

/// The window title's View State Controller.
///
/// ## Guarantees
///
/// - A lens: reads the model and the shown note; never writes the model.
/// - The title is recomputed when a commit touches the shown note, its notebook or the sync
///   status, or when the shown note or the unsaved flag changes; equal titles are not
///   delivered again. Each recomputation is O(1).
/// - Format: "<notebook> — <note>", "<notebook>" with no note, "Notes" with neither,
///   "Recently Deleted" while that is shown (whatever note the editor keeps); a
///   leading "• " while the editor has unsaved edits; a trailing " — Syncing 40%" or
///   " — Sync failed" while syncing or after a failure. A running sync shows only once it
///   has lasted the controller's delay (its `SyncDisplay`), so the sync the app runs after
///   each edit does not make the title flicker. Each title is isolated
///   (`BidiIsolation`): a title in a right-to-left script cannot reorder the other title,
///   the dashes or the sync state.
/// - The first title is the model's as it is when the controller is made: a sync already
///   running then shows at once, as does a failure.
@MainActor
@_spi(Instrumentation) public final class WindowTitleController: ViewStateController {
  private let model: Model<NotesState>
  private let titleSource: StateSource<String>
  private var lifetime: Lifetime?
  /// Whether a running sync is shown yet.
  private let syncDisplay: SyncDisplay

  /// The note shown in the editor, if any.
  public var note: NoteID? {
    didSet { if note != oldValue { refresh() } }
  }

  /// The notebook shown when no note is.
  public var notebook: NotebookID? {
    didSet { if notebook != oldValue { refresh() } }
  }

  /// Whether Recently Deleted is shown: the title names it, not the note or notebook.
  public var showsRecentlyDeleted = false {
    didSet { if showsRecentlyDeleted != oldValue { refresh() } }
  }

  /// Whether the editor has unsaved edits.
  public var hasUnsavedEdits = false {
    didSet { if hasUnsavedEdits != oldValue { refresh() } }
  }

  /// The model revision the title reflects.
  public private(set) var renderedRevision: Int

  /// Creates the controller and starts following `model`.
  ///
  /// - Parameters:
  ///   - model: The Notes model.
  ///   - syncDelay: How long a sync runs before the title shows it.
  ///   - scheduler: Where that delay passes.
  public init(
    model: Model<NotesState>, syncDelay: Duration = SyncDisplay.standardDelay,
    scheduler: any WorkScheduler = .mainActor
  ) {
    self.model = model
    renderedRevision = model.revision
    syncDisplay = SyncDisplay(status: model.state.sync, delay: syncDelay, scheduler: scheduler)
    // From the model as it is now: a sync already running, or one that failed, shows in
    // the first title.
    titleSource = StateSource(
      Self.title(
        for: model.state, showing: syncDisplay.shown(model.state.sync), note: nil,
        notebook: nil, hasUnsavedEdits: false))
    syncDisplay.onReveal = { [weak self] in self?.refresh() }
    lifetime = model.observeCommits { [weak self] commit in self?.apply(commit) }
  }

  /// The window title.
  public var title: some StateProjection<String> { titleSource }

  /// How the title differs from the title computed from the model now, or `nil` when
  /// they agree (see `ViewStateController`).
  ///
  /// - Returns: Both titles, when they differ.
  public func differenceFromModel() -> String? {
    let state = model.state
    let expected = Self.title(
      for: state, showing: syncDisplay.shown(state.sync), note: note, notebook: notebook,
      hasUnsavedEdits: hasUnsavedEdits, showsRecentlyDeleted: showsRecentlyDeleted)
    let shown = titleSource.value
    return shown == expected ? nil : "shows \"\(shown)\"; the model gives \"\(expected)\""
  }

  /// Stops following the model.
  public func cancel() {
    lifetime?.cancel()
    syncDisplay.cancel()
  }

  private func apply(_ commit: Commit<NotesState>) {
    renderedRevision = commit.revision
    let notes = commit.changes.changes(in: \.notes)
    let notebooks = commit.changes.changes(in: \.notebooks)
    if let note, notes.removed.contains(note) { self.note = nil }
    // A shown note or notebook that is inserted (an undone deletion) counts as touched.
    let touchesNote =
      note.map { notes.updated.contains($0) || notes.inserted.contains($0) } ?? false
    let shownNotebook = note.flatMap { commit.state.notes[$0]?.notebookID } ?? notebook
    if let notebook, notebooks.removed.contains(notebook) { self.notebook = nil }
    let touchesNotebook =
      shownNotebook.map { notebooks.updated.contains($0) || notebooks.inserted.contains($0) }
      ?? false
    let syncChanged = commit.changes.changed(\.sync)
    if syncChanged { syncDisplay.follow(commit.state.sync) }
    if touchesNote || touchesNotebook || syncChanged { refresh() }
  }

  private func refresh() {
    let state = model.state
    titleSource.set(
      Self.title(
        for: state, showing: syncDisplay.shown(state.sync), note: note, notebook: notebook,
        hasUnsavedEdits: hasUnsavedEdits, showsRecentlyDeleted: showsRecentlyDeleted))
  }

  /// The title for a state and view state, computed from scratch, with the model's sync
  /// status as it is (a running sync shown at once).
  ///
  /// - Parameters:
  ///   - state: A state.
  ///   - note: The shown note.
  ///   - notebook: The shown notebook when no note is shown.
  ///   - hasUnsavedEdits: Whether the editor has unsaved edits.
  ///   - showsRecentlyDeleted: Whether Recently Deleted is shown instead.
  /// - Returns: The window title.
  public static func title(
    for state: NotesState, note: NoteID?, notebook: NotebookID?, hasUnsavedEdits: Bool,
    showsRecentlyDeleted: Bool = false
  ) -> String {
    title(
      for: state, showing: state.sync, note: note, notebook: notebook,
      hasUnsavedEdits: hasUnsavedEdits, showsRecentlyDeleted: showsRecentlyDeleted)
  }

  /// The title for a state, the sync status shown and view state, computed from scratch.
  ///
  /// - Parameters:
  ///   - state: A state.
  ///   - sync: The sync status to show (see `SyncDisplay`).
  ///   - note: The shown note.
  ///   - notebook: The shown notebook when no note is shown.
  ///   - hasUnsavedEdits: Whether the editor has unsaved edits.
  ///   - showsRecentlyDeleted: Whether Recently Deleted is shown instead.
  /// - Returns: The window title.
  public static func title(
    for state: NotesState, showing sync: SyncStatus, note: NoteID?, notebook: NotebookID?,
    hasUnsavedEdits: Bool, showsRecentlyDeleted: Bool = false
  ) -> String {
    var title: String
    if showsRecentlyDeleted {
      title = "Recently Deleted"
    } else {
      let shownNote = note.flatMap { state.notes[$0] }
      let notebookTitle = (shownNote?.notebookID ?? notebook).flatMap {
        state.notebooks[$0]?.title
      }
      title = [notebookTitle, shownNote?.title].compactMap { $0 }
        .map { BidiIsolation.isolate($0) }.joined(separator: " — ")
      if title.isEmpty { title = "Notes" }
      if hasUnsavedEdits { title = "• " + title }
    }
    switch sync {
    case .idle: break
    case .syncing(let progress, _): title += " — Syncing \(Int((progress * 100).rounded()))%"
    case .failed: title += " — Sync failed"
    }
    return title
  }
}
