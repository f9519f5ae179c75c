public import Airframe

/// The editor as a value: which note is open, in which phase, with its draft of the body,
/// its cursor and the note the draft is based on.
///
/// Every change is an ``Event``; handling one returns the ``Effect`` to run, if any (a
/// save). The machine never touches the model: ``EditorController`` runs the effects,
/// feeds back what they did, and publishes the result. So the rules of the editor — when
/// a change from elsewhere refreshes the draft, when it becomes a conflict, what a save
/// is based on — are plain functions of values, tested without a model.
///
/// ## Guarantees
///
/// - Phases: `closed` (no note), `editing`, `conflict` (the note changed elsewhere in the same
///   words as the draft's unsaved edits; the draft is kept and nothing is saved until the
///   user keeps theirs or takes the other version) and `deleted` (the note was deleted while open;
///   saving is refused until it comes back, an unresolved conflict with it).
/// - The editor drafts the body only. The title it shows is the stored one (in a conflict
///   too), until the note is deleted: a title changes by a rename (`RenameNote`, through the
///   session's rename command), never by a save of the editor, so a title has one way to
///   change.
/// - The draft is dirty exactly when its body differs from its base.
/// - A change elsewhere to the title, to other lines, or to other words of the same lines,
///   merges into an unsaved draft without asking: the draft becomes the merge, based on the
///   stored note, and the cursor stays on its text, down to its word (see `LineMerge`). Only
///   changes that overlap or touch, or that the word merge cannot prove clean, make a
///   conflict.
/// - A change elsewhere that brings the note back to the draft's base (the other change was
///   undone) ends a conflict with it: the version it conflicted with is no longer stored.
/// - The cursor is a UTF-8 offset into the draft's body, always on a character boundary:
///   an edit sets it, a refresh from elsewhere keeps it (clamped and rounded down), and
///   opening a note puts it at the end.
/// - A save is based on the note as the editor last saw it (`known`), so a save that
///   catches up with another writer's change is refused and becomes the conflict.
/// - Typing runs: saves asked for as typing carry the current run's number, so the
///   dispatcher merges them into one undo step; opening a note, resolving a conflict, a
///   refresh from elsewhere and ``Event/typingEnded`` start a new run.
public struct EditorMachine: Equatable, Sendable {
  /// Where the editor is.
  public enum Phase: Equatable, Sendable {
    /// No note is open.
    case closed
    /// A note is open.
    case editing
    /// The note changed elsewhere while the draft had unsaved edits.
    case conflict(theirs: Note)
    /// The note was deleted while open, keeping the conflict it had, if any, for when
    /// it comes back.
    case deleted(conflict: Note?)
  }

  /// Something that happened to the editor.
  public enum Event: Equatable, Sendable {
    /// A note was opened (`nil` closes the editor), as it is in the model now.
    case opened(Note?)
    /// The user edited the body; `cursor` is the UTF-8 offset after the edit.
    case bodyEdited(String, cursor: Int)
    /// The user moved the cursor to a UTF-8 offset.
    case cursorMoved(Int)
    /// The user asked to save, continuing the current typing run or not.
    case saveRequested(asTyping: Bool)
    /// The save the machine asked for ran: its outcome and the stored note afterwards.
    case saveFinished(ActionOutcome, stored: Note?)
    /// Another writer's commit removed, inserted or changed the open note (`stored` is
    /// the note after it, `nil` when removed).
    case changedElsewhere(stored: Note?)
    /// The user kept the draft over the other version.
    case keptMine
    /// The user took the other version over the draft.
    case tookTheirs
    /// The user stopped typing (the focus left the editor).
    case typingEnded
  }

  /// What the controller must do after an event.
  public enum Effect: Equatable, Sendable {
    /// Save the draft with these actions' inputs.
    case save(Save)
  }

  /// A save to run: the new body and what it is based on.
  public struct Save: Equatable, Sendable {
    /// The note.
    public var id: NoteID
    /// The new body.
    public var body: String
    /// The body the change is based on (compare and set).
    public var expectedBody: String?
    /// The typing run the save belongs to, or `nil` for a step of its own.
    public var typingRun: Int?
  }

  /// The phase.
  public private(set) var phase: Phase = .closed
  /// The open note's id.
  public private(set) var noteID: NoteID?
  /// The note's title, as stored.
  public private(set) var title = ""
  /// The draft body.
  public private(set) var body = ""
  /// The cursor, as a UTF-8 offset into `body`.
  public private(set) var cursor = 0
  /// The note as of when the draft was last in step with it.
  public private(set) var base: Note?
  /// The note as of the last change this editor saw: what a save is based on.
  public private(set) var known: Note?
  /// The current typing run's number.
  public private(set) var typingRun = 0

  /// A closed editor.
  public init() {}

  /// Whether the draft differs from its base.
  public var isDirty: Bool {
    guard let base else { return false }
    return body != base.body
  }

  /// What the editor shows.
  public var state: EditorState {
    guard let noteID else { return .closed }
    return EditorState(
      noteID: noteID, title: title, body: body, isDirty: isDirty, conflict: conflict,
      isDeleted: isDeleted, cursor: cursor)
  }

  /// The other version of a conflict not yet resolved, deleted or not.
  public var conflict: Note? {
    switch phase {
    case .conflict(let theirs): theirs
    case .deleted(let conflict): conflict
    case .closed, .editing: nil
    }
  }

  /// Whether the open note was deleted.
  public var isDeleted: Bool {
    if case .deleted = phase { return true }
    return false
  }

  /// Why a save is refused now, or `nil` if it may run.
  public var saveRefusal: ActionOutcome? {
    switch phase {
    case .closed: .rejected("No note is open.")
    case .deleted: .rejected("The note was deleted.")
    case .conflict: .rejected("The note was changed elsewhere; keep your version or theirs first.")
    case .editing: nil
    }
  }

  /// Handles one event.
  ///
  /// - Parameter event: What happened.
  /// - Returns: The effect to run, if any.
  public mutating func handle(_ event: Event) -> Effect? {
    switch event {
    case .opened(let note):
      typingRun += 1
      known = note
      show(note, cursorAtEnd: true)
      noteID = note?.id
      phase = note == nil ? .closed : .editing
    case .bodyEdited(let text, let offset):
      guard noteID != nil else { return nil }
      body = text
      cursor = Self.boundary(atOrBefore: offset, in: text)
    case .cursorMoved(let offset):
      cursor = Self.boundary(atOrBefore: offset, in: body)
    case .saveRequested(let asTyping):
      guard saveRefusal == nil, isDirty, let id = noteID else { return nil }
      if !asTyping { typingRun += 1 }
      return .save(
        Save(
          id: id, body: body, expectedBody: known?.body, typingRun: asTyping ? typingRun : nil))
    case .saveFinished(let outcome, let stored):
      known = stored
      if case .invalid(let reasons) = outcome,
        reasons.issues.contains(where: { $0.field == NotesRules.changedElsewhere }),
        let stored
      {
        // Another writer changed the note under the draft (found when the save caught up
        // with the storage): the draft is kept, and the user chooses.
        phase = .conflict(theirs: stored)
        title = stored.title
      } else if outcome.isCommitted || outcome == .unchanged, let stored {
        show(stored, cursorAtEnd: false)
      }
    case .changedElsewhere(let stored):
      guard noteID != nil else { return nil }
      known = stored
      guard let stored else {
        phase = .deleted(conflict: conflict)
        return nil
      }
      if case .deleted(let conflict) = phase {
        // The note came back (its deletion was undone): the session goes on.
        phase = conflict.map { .conflict(theirs: $0) } ?? .editing
      }
      guard stored != base else {
        // The note is as the draft's base again (the change was undone): the editor shows
        // its title, and a conflict with a change that is gone is over.
        title = stored.title
        if case .conflict = phase { phase = .editing }
        return nil
      }
      if isDirty {
        if !mergeDraft(with: stored) {
          phase = .conflict(theirs: stored)
          title = stored.title
        }
      } else {
        // No unsaved edits (or none left): the draft follows the note, the cursor staying
        // on its text, and a conflict the user typed their way out of is over.
        typingRun += 1
        let mapped = LineMerge.offset(
          cursor, mappedThrough: LineMerge.replacements(from: body, to: stored.body))
        show(stored, cursorAtEnd: false)
        cursor = Self.boundary(atOrBefore: mapped, in: body)
        phase = .editing
      }
    case .keptMine:
      guard let theirs = conflict else { return nil }
      typingRun += 1
      base = theirs
      title = theirs.title
      phase = isDeleted ? .deleted(conflict: nil) : .editing
    case .tookTheirs:
      guard let theirs = conflict else { return nil }
      typingRun += 1
      show(theirs, cursorAtEnd: false)
      phase = isDeleted ? .deleted(conflict: nil) : .editing
    case .typingEnded:
      typingRun += 1
    }
    return nil
  }

  /// Merges the unsaved draft with `stored`, changed elsewhere since the draft's base.
  ///
  /// The title is the stored one; the bodies merge line by line, then word by word where
  /// both changed the same lines (`LineMerge`), the cursor staying on its text. Returns
  /// `false`, changing nothing, when both changed the same words of the body (or the word
  /// merge could not prove its result clean).
  private mutating func mergeDraft(with stored: Note) -> Bool {
    guard let base else { return false }
    guard
      let merged = LineMerge.merge(
        ancestor: base.body, ours: body, theirs: stored.body, cursor: cursor)
    else { return false }
    typingRun += 1
    self.base = stored
    title = stored.title
    body = merged.text
    cursor = Self.boundary(atOrBefore: merged.cursor, in: merged.text)
    phase = .editing
    return true
  }

  /// Makes `note` the base and the draft; the cursor goes to the end or stays (clamped).
  private mutating func show(_ note: Note?, cursorAtEnd: Bool) {
    base = note
    title = note?.title ?? ""
    body = note?.body ?? ""
    cursor = cursorAtEnd ? body.utf8.count : Self.boundary(atOrBefore: cursor, in: body)
  }

  /// `offset` clamped to `text` and rounded down to the start of a character.
  static func boundary(atOrBefore offset: Int, in text: String) -> Int {
    let utf8 = text.utf8
    var index = utf8.index(utf8.startIndex, offsetBy: min(max(0, offset), utf8.count))
    while index > utf8.startIndex, String.Index(index, within: text) == nil {
      index = utf8.index(before: index)
    }
    return utf8.distance(from: utf8.startIndex, to: index)
  }
}
