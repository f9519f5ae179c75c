// Actions on notes. Each validates with NotesRules, performs through the transaction, and
// returns its exact inverse. Edits (rename, body, move, pin) share one inverse,
// `RestoreNoteFields`, which puts every field back, the modification date included.

public import Airframe
public import Foundation

/// Creates a note in a notebook with the next free id.
public struct CreateNote: Action {
  /// The notebook to create it in.
  public let notebookID: NotebookID
  /// The title, before normalization.
  public let title: String
  /// The text.
  public let body: String
  /// The creation time.
  public let now: Date

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - notebookID: The notebook to create it in.
  ///   - title: The title, before normalization.
  ///   - body: The text.
  ///   - now: The creation time.
  public init(notebookID: NotebookID, title: String, body: String = "", now: Date) {
    self.notebookID = notebookID
    self.title = title
    self.body = body
    self.now = now
  }

  /// "New Note".
  public var name: String { "New Note" }

  /// The notebook must exist; the title and body must be valid.
  public func validate(in state: NotesState) -> ValidationResult {
    ValidationResult(
      NotesRules.notebookExists(notebookID, in: state)
        + NotesRules.titleIssues(title, field: "note title") + NotesRules.bodyIssues(body))
  }

  /// Inserts the note; the inverse deletes it.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    let id = NoteID(rawValue: NotesRules.assignID(in: &transaction))
    let note = Note(
      id: id, notebookID: notebookID, title: NotesRules.normalizedTitle(title), body: body,
      created: now)
    try transaction.insert(note, into: \.notes)
    return RemoveCreatedNote(id: id)
  }
}

/// Takes back a new note (the inverse of ``CreateNote``): it goes, without passing through
/// Recently Deleted.
public struct RemoveCreatedNote: Action {
  /// The note.
  public let id: NoteID

  /// "New Note", the name of the step this undoes.
  public var name: String { "New Note" }

  /// The note must exist.
  public func validate(in state: NotesState) -> ValidationResult {
    ValidationResult(NotesRules.noteExists(id, in: state))
  }

  /// Removes the note; the inverse puts it back.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    RestoreNote(note: try transaction.remove(id, from: \.notes), deleted: nil)
  }
}

/// Renames a note.
public struct RenameNote: Action {
  /// The note.
  public let id: NoteID
  /// The new title, before normalization.
  public let title: String
  /// The modification time.
  public let now: Date
  /// The title the user saw when they renamed it; `nil` renames whatever the title is.
  public let expectedTitle: String?

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - id: The note.
  ///   - title: The new title.
  ///   - now: The modification time.
  ///   - expectedTitle: The title the rename was based on. When given, the rename is
  ///     refused with a reason if the note's title is no longer that (another writer
  ///     renamed it meanwhile), so it never overwrites a change unseen.
  public init(id: NoteID, title: String, now: Date, expectedTitle: String? = nil) {
    self.id = id
    self.title = title
    self.now = now
    self.expectedTitle = expectedTitle
  }

  /// "Rename Note".
  public var name: String { "Rename Note" }

  /// The note must exist, still have the expected title, and the title be valid.
  public func validate(in state: NotesState) -> ValidationResult {
    ValidationResult(
      NotesRules.noteExists(id, in: state)
        + NotesRules.unchangedElsewhere(
          id, \.title, expected: expectedTitle, target: NotesRules.normalizedTitle(title),
          in: state)
        + NotesRules.titleIssues(title, field: "note title"))
  }

  /// Renames; the inverse restores every field.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    let title = NotesRules.normalizedTitle(self.title)
    return try RestoreNoteFields.change(id, named: name, in: &transaction) {
      $0.title = title
      $0.modified = now
    }
  }
}

/// Replaces a note's text.
public struct EditNoteBody: Action {
  /// The note.
  public let id: NoteID
  /// The new text.
  public let body: String
  /// The modification time.
  public let now: Date
  /// The text the edit was based on; `nil` replaces whatever the text is.
  public let expectedBody: String?

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - id: The note.
  ///   - body: The new text.
  ///   - now: The modification time.
  ///   - expectedBody: The text the edit was based on. When given, the edit is refused
  ///     with a reason if the note's text is no longer that (another writer changed it
  ///     meanwhile): the editor turns that into its conflict instead of overwriting.
  public init(id: NoteID, body: String, now: Date, expectedBody: String? = nil) {
    self.id = id
    self.body = body
    self.now = now
    self.expectedBody = expectedBody
  }

  /// "Edit Note".
  public var name: String { "Edit Note" }

  /// The note must exist, still have the expected text, and the body be valid.
  public func validate(in state: NotesState) -> ValidationResult {
    ValidationResult(
      NotesRules.noteExists(id, in: state)
        + NotesRules.unchangedElsewhere(
          id, \.body, expected: expectedBody, target: body, in: state)
        + NotesRules.bodyIssues(body))
  }

  /// Replaces the text; the inverse restores every field.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    try RestoreNoteFields.change(id, named: name, in: &transaction) {
      $0.body = body
      $0.modified = now
    }
  }
}

/// Moves a note to another notebook.
public struct MoveNote: Action {
  /// The note.
  public let id: NoteID
  /// The notebook to move it to.
  public let notebookID: NotebookID
  /// The modification time.
  public let now: Date
  /// The notebook the note was in when the user moved it; `nil` moves it from anywhere.
  public let expectedNotebook: NotebookID?

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - id: The note.
  ///   - notebookID: The destination notebook.
  ///   - now: The modification time.
  ///   - expectedNotebook: The notebook the move was based on. When given, the move is
  ///     refused with a reason if another writer moved the note elsewhere meanwhile.
  public init(
    id: NoteID, to notebookID: NotebookID, now: Date, expectedNotebook: NotebookID? = nil
  ) {
    self.id = id
    self.notebookID = notebookID
    self.now = now
    self.expectedNotebook = expectedNotebook
  }

  /// "Move Note".
  public var name: String { "Move Note" }

  /// The note and the destination must exist, and the note still be where it was.
  public func validate(in state: NotesState) -> ValidationResult {
    var issues =
      NotesRules.noteExists(id, in: state) + NotesRules.notebookExists(notebookID, in: state)
    if let expectedNotebook, let note = state.notes[id], note.notebookID != expectedNotebook,
      note.notebookID != notebookID
    {
      issues.append(
        ValidationIssue(field: NotesRules.changedElsewhere) { user in
          "\"\(user(note.title))\" was moved elsewhere meanwhile."
        })
    }
    return ValidationResult(issues)
  }

  /// Moves; the inverse restores every field.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    try RestoreNoteFields.change(id, named: name, in: &transaction) {
      $0.notebookID = notebookID
      $0.modified = now
    }
  }
}

/// Pins or unpins a note.
public struct SetNotePinned: Action {
  /// The note.
  public let id: NoteID
  /// Whether it should be pinned.
  public let isPinned: Bool

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - id: The note.
  ///   - isPinned: Whether it should be pinned.
  public init(id: NoteID, isPinned: Bool) {
    self.id = id
    self.isPinned = isPinned
  }

  /// "Pin Note" or "Unpin Note".
  public var name: String { isPinned ? "Pin Note" : "Unpin Note" }

  /// The note must exist.
  public func validate(in state: NotesState) -> ValidationResult {
    ValidationResult(NotesRules.noteExists(id, in: state))
  }

  /// Pins or unpins; the inverse restores every field.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    try RestoreNoteFields.change(id, named: name, in: &transaction) { $0.isPinned = isPinned }
  }
}

/// Deletes a note.
public struct DeleteNote: Action {
  /// The note.
  public let id: NoteID
  /// When it is deleted, as Recently Deleted records it.
  public let now: Date

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - id: The note.
  ///   - now: When it is deleted; the current time by default.
  public init(id: NoteID, now: Date = Date()) {
    self.id = id
    self.now = now
  }

  /// "Delete Note".
  public var name: String { "Delete Note" }

  /// The note must exist.
  public func validate(in state: NotesState) -> ValidationResult {
    ValidationResult(NotesRules.noteExists(id, in: state))
  }

  /// Moves the note to Recently Deleted; the inverse puts it back.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    let note = try transaction.remove(id, from: \.notes)
    try RecentlyDeleted.keep(note, deleted: now, in: &transaction)
    return RestoreNote(note: note, deleted: now)
  }
}

/// Puts back a deleted note (the inverse of ``DeleteNote`` and ``RemoveCreatedNote``).
public struct RestoreNote: Action {
  /// The note as it was.
  public let note: Note
  /// When it was deleted, if it went to Recently Deleted (which it leaves again); `nil`
  /// for a new note taken back.
  public let deleted: Date?

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - note: The note as it was.
  ///   - deleted: When it went to Recently Deleted, or `nil` if it did not.
  public init(note: Note, deleted: Date?) {
    self.note = note
    self.deleted = deleted
  }

  /// "Delete Note", the name of the step this undoes.
  public var name: String { "Delete Note" }

  /// The id must be free and the notebook must still exist.
  public func validate(in state: NotesState) -> ValidationResult {
    let taken =
      state.notes.contains(note.id)
      ? [ValidationIssue(field: "note", message: "Note \(note.id) already exists.")] : []
    return ValidationResult(taken + NotesRules.notebookExists(note.notebookID, in: state))
  }

  /// Inserts the note (out of Recently Deleted); the inverse deletes it again.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    if transaction.state.recentlyDeleted.contains(note.id) {
      try transaction.remove(note.id, from: \.recentlyDeleted)
    }
    try transaction.insert(note, into: \.notes)
    guard let deleted else { return RemoveCreatedNote(id: note.id) }
    return DeleteNote(id: note.id, now: deleted)
  }
}

/// Puts every field of a note back as it was: the inverse of every note edit.
public struct RestoreNoteFields: Action {
  /// The note as it was.
  public let note: Note
  /// The name of the step this undoes or redoes.
  public let name: String

  /// The note, and its notebook, must still exist.
  public func validate(in state: NotesState) -> ValidationResult {
    ValidationResult(
      NotesRules.noteExists(note.id, in: state)
        + NotesRules.notebookExists(note.notebookID, in: state))
  }

  /// Restores the fields exactly, the modification date included; the inverse restores
  /// the fields it replaced.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    try Self.change(note.id, named: name, in: &transaction, restoring: true) { $0 = note }
  }

  /// Changes a note and returns the action that restores it.
  ///
  /// An edit that changes nothing but the modification date is no edit and commits
  /// nothing, unless `restoring`: a restore puts back the date too (undoing typing that was
  /// typed back must still return the note's old date).
  static func change(
    _ id: NoteID,
    named name: String,
    in transaction: inout Transaction<NotesState>,
    restoring: Bool = false,
    _ edit: (inout Note) -> Void
  ) throws -> RestoreNoteFields {
    guard let old = transaction.state.notes[id] else {
      throw ModelError.missingID(table: "notes", id: "\(id)")
    }
    var edited = old
    edit(&edited)
    var sameExceptDate = edited
    sameExceptDate.modified = old.modified
    // An edit that changes nothing but the date is no edit: nothing is committed.
    if sameExceptDate != old || edited == old || restoring {
      try transaction.update(id, in: \.notes) { $0 = edited }
    }
    return RestoreNoteFields(note: old, name: name)
  }
}
