public import Airframe
public import Foundation

/// What the editor shows.
public struct EditorState: Equatable, Sendable {
  /// The note being edited, if any.
  public var noteID: NoteID?
  /// The draft title.
  public var title: String
  /// The draft body.
  public var body: String
  /// Whether the draft differs from the note as last saved or loaded.
  public var isDirty: Bool
  /// The note as changed elsewhere while the draft had unsaved edits, if that happened.
  public var conflict: Note?
  /// Whether the note was deleted while open.
  public var isDeleted: Bool

  /// An editor with nothing open.
  public static let closed = EditorState(
    noteID: nil, title: "", body: "", isDirty: false, conflict: nil, isDeleted: false)
}

/// The editor's View State Controller.
///
/// ## Guarantees
///
/// - A lens with an edit session: it holds the draft (view state) and writes only through
///   actions dispatched by `save()`.
/// - The session records the note as it was when editing began (its base). A commit that
///   changes the note while the draft has no unsaved edits refreshes the draft (a render,
///   not an edit). A commit that changes it while there are unsaved edits is surfaced as a
///   conflict: the draft is neither overwritten nor saved over the other change until the
///   user resolves it.
/// - The editor's own save is recognized as its own: it never becomes a conflict and never
///   echoes back as an edit.
/// - A save checks the stored note against what the editor last saw (compare and set): if
///   another writer changed the title or text meanwhile (another process, found when the
///   save caught up with the storage), the save is refused and becomes the conflict, with
///   the draft kept.
/// - If the note is deleted elsewhere, the session says so and saving is refused until the
///   note comes back (an undo of the deletion).
/// - Typing runs: saves made with `save(asTyping: true)` in a row form one undo step
///   ("Undo Typing" reverts all of them). Opening a note, resolving a conflict, a refresh
///   from another change, or `endTypingRun()` starts a new run.
@MainActor
public final class EditorController: ViewStateController {
  private let dispatcher: ActionDispatcher<NotesState>
  private let stateSource = StateSource(EditorState.closed)
  private var base: Note?
  /// The note as of the last commit this editor saw outside its own saves' catch-up.
  ///
  /// A save checks the stored note against it (compare and set). Unlike `base`, it
  /// follows every change made in this process, the editor's own partial saves included.
  private var known: Note?
  private var isSaving = false
  /// Numbers typing runs; saves with the same number merge into one undo step.
  private var typingRun = 0
  private var lifetime: Lifetime?
  private let now: () -> Date
  /// The model revision the editor reflects.
  public private(set) var renderedRevision: Int

  /// Creates the controller and starts following the dispatcher's model.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the editor's save actions.
  ///   - now: The clock used for modification dates.
  public init(dispatcher: ActionDispatcher<NotesState>, now: @escaping () -> Date = { Date() }) {
    self.dispatcher = dispatcher
    self.now = now
    renderedRevision = dispatcher.model.revision
    lifetime = dispatcher.model.observeCommits { [weak self] commit in self?.apply(commit) }
  }

  /// What the editor shows.
  public var state: some StateProjection<EditorState> { stateSource }

  /// Opens `id` for editing, discarding any unsaved draft; `nil` closes the editor.
  ///
  /// - Parameter id: The note to edit.
  public func open(_ id: NoteID?) {
    endTypingRun()
    base = id.flatMap { dispatcher.model.state.notes[$0] }
    known = base
    guard let base else {
      stateSource.set(.closed)
      return
    }
    stateSource.set(
      EditorState(
        noteID: base.id, title: base.title, body: base.body, isDirty: false, conflict: nil,
        isDeleted: false))
  }

  /// Records the user's edit of the title (input, not a render).
  ///
  /// - Parameter title: The field's text.
  public func userEditedTitle(_ title: String) { editDraft { $0.title = title } }

  /// Records the user's edit of the body (input, not a render).
  ///
  /// - Parameter body: The field's text.
  public func userEditedBody(_ body: String) { editDraft { $0.body = body } }

  /// Saves the draft through actions (one undo step), unless there is a conflict.
  ///
  /// - Parameter asTyping: Whether this save continues the current typing run, so that
  ///   consecutive typing saves undo as one step. A save with `false` is a step of its own
  ///   and ends the run.
  /// - Returns: What happened; `.rejected` with the reason during a conflict or after the
  ///   note was deleted.
  @discardableResult
  public func save(asTyping: Bool = false) -> ActionOutcome {
    let draft = stateSource.value
    guard let id = draft.noteID, let base else { return .rejected("No note is open.") }
    guard !draft.isDeleted else { return .rejected("The note was deleted.") }
    guard draft.conflict == nil else {
      return .rejected("The note was changed elsewhere; keep your version or theirs first.")
    }
    guard draft.isDirty else { return .unchanged }
    isSaving = true
    defer { isSaving = false }
    let time = now()
    var outcome = ActionOutcome.unchanged
    if !asTyping { endTypingRun() }
    let key: AnyHashable? = asTyping ? AnyHashable(TypingRun(number: typingRun, note: id)) : nil
    dispatcher.group(named: asTyping ? "Typing" : "Edit Note", coalescingKey: key) {
      if draft.title != base.title {
        outcome = dispatcher.dispatch(
          RenameNote(id: id, title: draft.title, now: time, expectedTitle: known?.title))
      }
      if draft.body != base.body, outcome == .unchanged || outcome.isCommitted {
        let edited = dispatcher.dispatch(
          EditNoteBody(id: id, body: draft.body, now: time, expectedBody: known?.body))
        if edited != .unchanged || !outcome.isCommitted { outcome = edited }
      }
    }
    known = dispatcher.model.state.notes[id]
    if case .invalid(let reasons) = outcome,
      reasons.issues.contains(where: { $0.field == NotesRules.changedElsewhere }),
      let theirs = dispatcher.model.state.notes[id]
    {
      // Another writer changed the note under the draft (found when the save caught up
      // with the storage): the draft is kept, and the user chooses.
      stateSource.update { $0.conflict = theirs }
      return outcome
    }
    if outcome.isCommitted || outcome == .unchanged, let saved = dispatcher.model.state.notes[id] {
      self.base = saved
      stateSource.set(
        EditorState(
          noteID: id, title: saved.title, body: saved.body, isDirty: false, conflict: nil,
          isDeleted: false))
    }
    return outcome
  }

  /// Ends the current typing run: the next typing save starts a new undo step.
  public func endTypingRun() { typingRun += 1 }

  /// Resolves a conflict by keeping the draft, now based on the other change.
  public func keepMine() {
    guard let theirs = stateSource.value.conflict else { return }
    endTypingRun()
    base = theirs
    stateSource.update { $0.conflict = nil }
  }

  /// Resolves a conflict by taking the other change and dropping the draft.
  public func takeTheirs() {
    guard let theirs = stateSource.value.conflict else { return }
    endTypingRun()
    base = theirs
    stateSource.set(
      EditorState(
        noteID: theirs.id, title: theirs.title, body: theirs.body, isDirty: false,
        conflict: nil, isDeleted: false))
  }

  /// Stops following the model.
  public func cancel() { lifetime?.cancel() }

  /// The coalescing key of a typing run.
  private struct TypingRun: Hashable {
    let number: Int
    let note: NoteID
  }

  private func editDraft(_ change: (inout EditorState) -> Void) {
    guard stateSource.value.noteID != nil, let base else { return }
    stateSource.update { draft in
      change(&draft)
      draft.isDirty = draft.title != base.title || draft.body != base.body
    }
  }

  private func apply(_ commit: Commit<NotesState>) {
    renderedRevision = commit.revision
    guard !isSaving, let id = stateSource.value.noteID else { return }
    known = commit.state.notes[id]
    let notes = commit.changes.changes(in: \.notes)
    if notes.removed.contains(id) {
      stateSource.update { $0.isDeleted = true }
      return
    }
    if notes.inserted.contains(id), stateSource.value.isDeleted {
      // The note came back (its deletion was undone): the session goes on.
      stateSource.update { $0.isDeleted = false }
    }
    guard notes.updated.contains(id) || notes.inserted.contains(id),
      let theirs = commit.state.notes[id], theirs != base
    else { return }
    if stateSource.value.isDirty {
      stateSource.update { $0.conflict = theirs }
    } else {
      endTypingRun()
      base = theirs
      stateSource.set(
        EditorState(
          noteID: id, title: theirs.title, body: theirs.body, isDirty: false, conflict: nil,
          isDeleted: false))
    }
  }
}
