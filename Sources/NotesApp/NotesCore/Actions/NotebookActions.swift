// Actions on notebooks. Each validates with NotesRules, performs through the transaction,
// and returns its exact inverse.
//
// Deleting a notebook that still has notes deletes the notes too, but only when the action
// says so (`deletingNotes: true`); without it, validation refuses and says how many notes
// would go. The app asks for that confirmation as a durable outcome before dispatching the
// confirmed action. Undo restores the notebook and all its notes.

public import Airframe
public import Foundation

/// Creates a notebook with the next free id.
public struct CreateNotebook: Action {
  /// The title, before normalization.
  public let title: String
  /// The creation time.
  public let now: Date

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - title: The title, before normalization.
  ///   - now: The creation time.
  public init(title: String, now: Date) {
    self.title = title
    self.now = now
  }

  /// "New Notebook".
  public var name: String { "New Notebook" }

  /// The title's issues, including uniqueness.
  public func validate(in state: NotesState) -> ValidationResult {
    ValidationResult(NotesRules.notebookTitleIssues(title, in: state))
  }

  /// Inserts the notebook; the inverse deletes it.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    let id = NotebookID(rawValue: NotesRules.assignID(in: &transaction))
    let notebook = Notebook(id: id, title: NotesRules.normalizedTitle(title), created: now)
    try transaction.insert(notebook, into: \.notebooks)
    return DeleteNotebook(id: id, deletingNotes: true)
  }
}

/// Renames a notebook.
public struct RenameNotebook: Action {
  /// The notebook.
  public let id: NotebookID
  /// The new title, before normalization.
  public let title: String

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - id: The notebook.
  ///   - title: The new title.
  public init(id: NotebookID, title: String) {
    self.id = id
    self.title = title
  }

  /// "Rename Notebook".
  public var name: String { "Rename Notebook" }

  /// The notebook must exist; the title's issues, including uniqueness.
  public func validate(in state: NotesState) -> ValidationResult {
    let missing = NotesRules.notebookExists(id, in: state)
    guard missing.isEmpty else { return ValidationResult(missing) }
    return ValidationResult(NotesRules.notebookTitleIssues(title, in: state, renaming: id))
  }

  /// Renames; the inverse restores the old title.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    let old = transaction.state.notebooks[id]?.title ?? ""
    let title = NotesRules.normalizedTitle(self.title)
    try transaction.update(id, in: \.notebooks) { $0.title = title }
    return RenameNotebook(id: id, title: old)
  }
}

/// Deletes a notebook, and its notes when that was confirmed.
public struct DeleteNotebook: Action {
  /// The notebook.
  public let id: NotebookID
  /// Whether the user confirmed deleting the notes it contains.
  public let deletingNotes: Bool
  /// When its notes are deleted, as Recently Deleted records it.
  public let now: Date

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - id: The notebook.
  ///   - deletingNotes: Pass `true` once the user confirmed deleting its notes.
  ///   - now: When it is deleted; the current time by default.
  public init(id: NotebookID, deletingNotes: Bool = false, now: Date = Date()) {
    self.id = id
    self.deletingNotes = deletingNotes
    self.now = now
  }

  /// "Delete Notebook".
  public var name: String { "Delete Notebook" }

  /// The notebook must exist; a non-empty notebook needs `deletingNotes`.
  public func validate(in state: NotesState) -> ValidationResult {
    let missing = NotesRules.notebookExists(id, in: state)
    guard missing.isEmpty else { return ValidationResult(missing) }
    let count = Self.noteIDs(in: id, state: state).count
    guard count == 0 || deletingNotes else {
      let title = state.notebooks[id]?.title ?? ""
      let notes = count == 1 ? "1 note" : "\(count) notes"
      return ValidationResult([
        ValidationIssue(field: "confirmation") { user in
          "Deleting \"\(user(title))\" also deletes its \(notes); confirm to continue."
        }
      ])
    }
    return ValidationResult()
  }

  /// Moves the notes to Recently Deleted, then removes the notebook; the inverse restores
  /// them all.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    var removedNotes: [Note] = []
    for noteID in Self.noteIDs(in: id, state: transaction.state) {
      let note = try transaction.remove(noteID, from: \.notes)
      try RecentlyDeleted.keep(note, deleted: now, in: &transaction)
      removedNotes.append(note)
    }
    let notebook = try transaction.remove(id, from: \.notebooks)
    return RestoreNotebook(notebook: notebook, notes: removedNotes, deleted: now)
  }

  /// The ids of the notes in a notebook, in id order.
  static func noteIDs(in notebook: NotebookID, state: NotesState) -> [NoteID] {
    state.notes.elements.filter { $0.notebookID == notebook }.map(\.id).sorted()
  }
}

/// Puts back a deleted notebook with its notes (the inverse of ``DeleteNotebook``).
public struct RestoreNotebook: Action {
  /// The notebook as it was.
  public let notebook: Notebook
  /// Its notes as they were.
  public let notes: [Note]
  /// When its notes went to Recently Deleted (which they leave again).
  public let deleted: Date

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - notebook: The notebook as it was.
  ///   - notes: Its notes as they were.
  ///   - deleted: When they went to Recently Deleted.
  public init(notebook: Notebook, notes: [Note], deleted: Date) {
    self.notebook = notebook
    self.notes = notes
    self.deleted = deleted
  }

  /// "Delete Notebook", the name of the step this undoes.
  public var name: String { "Delete Notebook" }

  /// The id must be free and the title still unique.
  public func validate(in state: NotesState) -> ValidationResult {
    if state.notebooks.contains(notebook.id) {
      return ValidationResult([
        ValidationIssue(field: "notebook", message: "Notebook \(notebook.id) already exists.")
      ])
    }
    return ValidationResult(NotesRules.notebookTitleIssues(notebook.title, in: state))
  }

  /// Inserts the notebook and its notes; the inverse deletes them again.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    try transaction.insert(notebook, into: \.notebooks)
    for note in notes {
      if transaction.state.recentlyDeleted.contains(note.id) {
        try transaction.remove(note.id, from: \.recentlyDeleted)
      }
      try transaction.insert(note, into: \.notes)
    }
    return DeleteNotebook(id: notebook.id, deletingNotes: true, now: deleted)
  }
}
