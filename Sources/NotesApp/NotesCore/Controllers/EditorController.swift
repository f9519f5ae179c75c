public import Airframe
public import Foundation

/// What the editor shows.
public struct EditorState: Equatable, Sendable {
  /// The note being edited, if any.
  public var noteID: NoteID?
  /// The note's title, as stored (the editor drafts the body only).
  public var title: String
  /// The draft body.
  public var body: String
  /// Whether the draft differs from the note as last saved or loaded.
  public var isDirty: Bool
  /// The note as changed elsewhere while the draft had unsaved edits, if that happened.
  public var conflict: Note?
  /// Whether the note was deleted while open.
  public var isDeleted: Bool
  /// The cursor, as a UTF-8 offset into `body`, on a character boundary.
  public var cursor: Int

  /// Creates a state.
  ///
  /// - Parameters:
  ///   - noteID: The open note.
  ///   - title: The note's title.
  ///   - body: The draft body.
  ///   - isDirty: Whether the draft has unsaved edits.
  ///   - conflict: The other version of a conflict.
  ///   - isDeleted: Whether the note was deleted while open.
  ///   - cursor: The cursor's UTF-8 offset into `body`; the end by default.
  public init(
    noteID: NoteID?, title: String, body: String, isDirty: Bool, conflict: Note?,
    isDeleted: Bool, cursor: Int? = nil
  ) {
    self.noteID = noteID
    self.title = title
    self.body = body
    self.isDirty = isDirty
    self.conflict = conflict
    self.isDeleted = isDeleted
    self.cursor = cursor ?? body.utf8.count
  }

  /// An editor with nothing open.
  public static let closed = EditorState(
    noteID: nil, title: "", body: "", isDirty: false, conflict: nil, isDeleted: false)
}

/// The editor's View State Controller: runs an ``EditorMachine`` against the model.
///
/// ## Guarantees
///
/// - A lens with an edit session: it holds the draft (view state, in an
///   ``EditorMachine`` value) and never writes: each save is an intent, which it hands to
///   its save command, an `ActionController` (``saveCommand(dispatcher:now:)``), which
///   validates, dispatches and records it for undo.
/// - The session records the note as it was when editing began (its base). A commit that
///   changes the note while the draft has no unsaved edits refreshes the draft (a render,
///   not an edit). A commit that changes it while there are unsaved edits is surfaced as a
///   conflict: the draft is neither overwritten nor saved over the other change until the
///   user resolves it.
/// - The editor's own save is recognized as its own: it never becomes a conflict and never
///   echoes back as an edit.
/// - A save checks the stored note against what the editor last saw (compare and set): if
///   another writer changed the text meanwhile (another process, found when the
///   save caught up with the storage), the save is refused and becomes the conflict, with
///   the draft kept.
/// - If the note is deleted elsewhere, the session says so and saving is refused until the
///   note comes back (an undo of the deletion).
/// - Typing runs: saves made with `save(asTyping: true)` in a row form one undo step
///   ("Undo Typing" reverts all of them). Opening a note, resolving a conflict, a refresh
///   from another change, or `endTypingRun()` starts a new run.
/// - One gesture, one publication: each method publishes the editor's state at most once,
///   after all its effects ran; ``bodyTyped(_:cursor:)`` edits and saves a typed key with
///   one save and one publication.
@MainActor
@_spi(Instrumentation) public final class EditorController: ViewStateController {
  private let model: Model<NotesState>
  /// The command every save goes through.
  private let saves: ActionController<NotesState, EditorMachine.Save>
  /// This editor among every editor of the process, for its typing runs' undo steps.
  private let number = EditorController.count()
  private let stateSource = StateSource(EditorState.closed)
  /// The editor's state.
  public private(set) var machine = EditorMachine()
  /// Whether the machine's save is running (its commits are the editor's own).
  private var isSaving = false
  private var lifetime: Lifetime?
  /// The model revision the editor reflects.
  public private(set) var renderedRevision: Int

  /// Creates the controller and starts following `model`.
  ///
  /// - Parameters:
  ///   - model: The library's model, which the editor reads and follows.
  ///   - saves: The command the editor's saves go through; the editor cancels it with
  ///     itself.
  public init(model: Model<NotesState>, saves: ActionController<NotesState, EditorMachine.Save>) {
    self.model = model
    self.saves = saves
    renderedRevision = model.revision
    lifetime = model.observeCommits { [weak self] commit in self?.apply(commit) }
  }

  /// Creates the controller with the standard save command over `dispatcher`.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the save command's actions.
  ///   - now: The clock for modification dates.
  public convenience init(
    dispatcher: ActionDispatcher<NotesState>, now: @escaping () -> Date = { Date() }
  ) {
    self.init(model: dispatcher.model, saves: Self.saveCommand(dispatcher: dispatcher, now: now))
  }

  /// The command of the editor's saves: each save, an `EditNoteBody` based on the body the
  /// editor last saw (compare and set), stamped with `now`.
  ///
  /// - Parameters:
  ///   - dispatcher: Runs the actions.
  ///   - now: The clock for modification dates.
  /// - Returns: The command.
  public static func saveCommand(
    dispatcher: ActionDispatcher<NotesState>, now: @escaping () -> Date = { Date() }
  ) -> ActionController<NotesState, EditorMachine.Save> {
    ActionController(dispatcher: dispatcher, name: "Edit Note") { save in
      EditNoteBody(id: save.id, body: save.body, now: now(), expectedBody: save.expectedBody)
    }
  }

  /// What the editor shows.
  public var state: some StateProjection<EditorState> { stateSource }

  /// Opens `id` for editing, discarding any unsaved draft; `nil` closes the editor.
  ///
  /// - Parameter id: The note to edit.
  public func open(_ id: NoteID?) {
    handle(.opened(id.flatMap { model.state.notes[$0] }))
  }

  /// Records the user's edit of the body (input, not a render); the cursor goes to its end.
  ///
  /// - Parameter body: The field's text.
  public func userEditedBody(_ body: String) {
    handle(.bodyEdited(body, cursor: body.utf8.count))
  }

  /// Records a typed or pasted edit of the body and saves it as part of the typing run:
  /// one save and one publication.
  ///
  /// - Parameters:
  ///   - body: The body after the edit.
  ///   - cursor: The cursor after the edit, as a UTF-8 offset; the end by default.
  /// - Returns: The save's outcome.
  @discardableResult
  public func bodyTyped(_ body: String, cursor: Int? = nil) -> ActionOutcome {
    handle([.bodyEdited(body, cursor: cursor ?? body.utf8.count), .saveRequested(asTyping: true)])
  }

  /// Moves the cursor to a UTF-8 offset into the body (rounded down to a character).
  ///
  /// - Parameter offset: The offset.
  public func cursorMoved(to offset: Int) { handle(.cursorMoved(offset)) }

  /// Saves the draft through actions (one undo step), unless there is a conflict.
  ///
  /// - Parameter asTyping: Whether this save continues the current typing run, so that
  ///   consecutive typing saves undo as one step. A save with `false` is a step of its own
  ///   and ends the run.
  /// - Returns: What happened; `.rejected` with the reason during a conflict or after the
  ///   note was deleted.
  @discardableResult
  public func save(asTyping: Bool = false) -> ActionOutcome {
    handle([.saveRequested(asTyping: asTyping)])
  }

  /// Ends the current typing run: the next typing save starts a new undo step.
  public func endTypingRun() { handle(.typingEnded) }

  /// Resolves a conflict by keeping the draft, now based on the other change.
  public func keepMine() { handle(.keptMine) }

  /// Resolves a conflict by taking the other change and dropping the draft.
  public func takeTheirs() { handle(.tookTheirs) }

  /// Stops following the model, and the save command with it.
  public func cancel() {
    lifetime?.cancel()
    saves.cancel()
  }

  /// How the editor's published state disagrees with the model, or `nil` when it agrees
  /// (see `ViewStateController`).
  ///
  /// The open note must exist unless the editor says it was deleted, its title must be the
  /// stored one, and a draft without unsaved edits or a conflict must be the stored body.
  ///
  /// - Returns: The first disagreement.
  public func differenceFromModel() -> String? {
    let shown = stateSource.value
    guard shown == machine.state else { return "the published state is not the editor's" }
    guard let id = shown.noteID else { return nil }
    guard let stored = model.state.notes[id] else {
      return shown.isDeleted ? nil : "note \(id) is open but the model has no such note"
    }
    if shown.isDeleted { return "note \(id) is shown as deleted but exists" }
    if shown.title != stored.title {
      return "the title is \"\(shown.title)\"; stored \"\(stored.title)\""
    }
    guard !shown.isDirty, shown.conflict == nil else { return nil }
    if shown.body != stored.body { return "the body differs from the stored body" }
    return nil
  }

  /// The coalescing key of a typing run.
  ///
  /// It names the editor too: two editors (two windows) share the library's undo history,
  /// and their typing runs are steps of their own.
  private struct TypingRun: Hashable {
    let editor: Int
    let number: Int
    let note: NoteID
  }

  private static var made = 0

  /// Counts editors made in this process: each editor's number.
  private static func count() -> Int {
    made += 1
    return made
  }

  /// Handles one event and publishes the result.
  private func handle(_ event: EditorMachine.Event) {
    _ = handle([event])
  }

  /// Handles events in order, runs the save one asks for, and publishes once.
  ///
  /// - Returns: The save's outcome: `.unchanged` when there was nothing to save, the
  ///   refusal when saving is not possible now.
  @discardableResult
  private func handle(_ events: [EditorMachine.Event]) -> ActionOutcome {
    var outcome = ActionOutcome.unchanged
    for event in events {
      if case .saveRequested = event, let refusal = machine.saveRefusal { outcome = refusal }
      if case .save(let save) = machine.handle(event) { outcome = run(save) }
    }
    if stateSource.value != machine.state { stateSource.set(machine.state) }
    return outcome
  }

  /// Hands a save to the save command, as one undo step (a typing run's saves merge into
  /// one), and tells the machine what it did.
  private func run(_ save: EditorMachine.Save) -> ActionOutcome {
    isSaving = true
    defer { isSaving = false }
    let key = save.typingRun.map {
      AnyHashable(TypingRun(editor: number, number: $0, note: save.id))
    }
    let outcome = saves.trigger(
      save, step: save.typingRun != nil ? "Typing" : "Edit Note", coalescingKey: key)
    _ = machine.handle(.saveFinished(outcome, stored: model.state.notes[save.id]))
    return outcome
  }

  private func apply(_ commit: Commit<NotesState>) {
    renderedRevision = commit.revision
    guard !isSaving, let id = machine.noteID else { return }
    let notes = commit.changes.changes(in: \.notes)
    guard notes.removed.contains(id) || notes.updated.contains(id) || notes.inserted.contains(id)
    else { return }
    handle(.changedElsewhere(stored: commit.state.notes[id]))
  }
}
