// The actions of Recently Deleted: restoring a deleted note, deleting notes from it for good,
// and letting old ones go.
//
// Deleting (`DeleteNote`, `DeleteNotebook`) moves notes into Recently Deleted; these actions
// take them out again. Every one is undoable like any other step: undoing a restore moves
// the note back, undoing a deletion for good puts the notes back in Recently Deleted.

public import Airframe
public import Foundation

extension RecentlyDeleted {
  /// Moves `note`, just removed from the notes, into Recently Deleted.
  static func keep(
    _ note: Note, deleted: Date, in transaction: inout Transaction<NotesState>
  ) throws {
    let notebookTitle = transaction.state.notebooks[note.notebookID]?.title ?? ""
    if transaction.state.recentlyDeleted.contains(note.id) {
      try transaction.remove(note.id, from: \.recentlyDeleted)
    }
    try transaction.insert(
      DeletedNote(note: note, notebookTitle: notebookTitle, deleted: deleted),
      into: \.recentlyDeleted)
  }

  /// Deletes for good the notes kept in Recently Deleted longer than the library keeps them
  /// (``NotesState/recentlyDeletedDays``).
  ///
  /// A background write (origin "Recently Deleted"), not a step of the user's: nothing to
  /// undo, and the status bar says nothing.
  ///
  /// - Parameters:
  ///   - model: The library's model.
  ///   - now: The time to count from.
  /// - Returns: How many notes went.
  /// - Throws: What the model's write throws (a read-only library, for instance).
  @MainActor
  @discardableResult
  public static func removeExpired(from model: Model<NotesState>, now: Date) throws -> Int {
    let keptFor = keptFor(days: model.state.recentlyDeletedDays)
    let expired = DeleteForGood(.deletedBefore(now.addingTimeInterval(-keptFor)))
    let count = expired.entries(in: model.state).count
    guard count > 0 else { return 0 }
    try model.write(origin: .background("Recently Deleted")) { transaction in
      _ = try expired.perform(in: &transaction)
    }
    return count
  }

  /// The issue when `id` is not in Recently Deleted.
  static func entryExists(_ id: NoteID, in state: NotesState) -> [ValidationIssue] {
    state.recentlyDeleted.contains(id)
      ? [] : [ValidationIssue(field: "note", message: "Note \(id) is not in Recently Deleted.")]
  }
}

/// Puts a note from Recently Deleted back where it was.
///
/// ## Guarantees
/// - The note keeps its id (and, in the library, its sync identity), its text, its dates
///   and its pin.
/// - It goes back into its notebook; if that notebook is gone, into the notebook with the
///   same title (ignoring case and surrounding white space); if there is none, a notebook
///   with that title is created ("Recovered notes" for a note whose notebook had none).
/// - The inverse moves it back into Recently Deleted, with its date, and removes a notebook
///   the restore created.
public struct RestoreDeletedNote: Action {
  /// The note.
  public let id: NoteID
  /// When a notebook the restore creates is created.
  public let now: Date
  /// The notebook to create if one is needed, as a restore first created it (a redo
  /// recreates the same one); `nil` makes a new one.
  public let notebook: Notebook?

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - id: The note, in Recently Deleted.
  ///   - now: When a notebook the restore creates is created; the current time by default.
  ///   - notebook: The notebook to create if one is needed; `nil` makes a new one.
  public init(id: NoteID, now: Date = Date(), notebook: Notebook? = nil) {
    self.id = id
    self.now = now
    self.notebook = notebook
  }

  /// "Restore Note".
  public var name: String { "Restore Note" }

  /// The note must be in Recently Deleted, and its id free.
  public func validate(in state: NotesState) -> ValidationResult {
    let taken =
      state.notes.contains(id)
      ? [ValidationIssue(field: "note", message: "Note \(id) already exists.")] : []
    return ValidationResult(RecentlyDeleted.entryExists(id, in: state) + taken)
  }

  /// Inserts the note, in its notebook or one with its notebook's title.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    let entry = try transaction.remove(id, from: \.recentlyDeleted)
    var note = entry.note
    var created: Notebook?
    let state = transaction.state
    if state.notebooks[note.notebookID] == nil {
      let title =
        entry.notebookTitle.isEmpty
        ? "Recovered notes" : NotesRules.normalizedTitle(entry.notebookTitle)
      let key = NotesRules.notebookTitleKey(title)
      if let same = state.notebooks.elements.first(where: {
        NotesRules.notebookTitleKey($0.title) == key
      }) {
        note.notebookID = same.id
      } else {
        let notebook =
          self.notebook.flatMap { state.notebooks.contains($0.id) ? nil : $0 }
          ?? Notebook(
            id: NotebookID(rawValue: NotesRules.assignID(in: &transaction)), title: title,
            created: now)
        try transaction.insert(notebook, into: \.notebooks)
        note.notebookID = notebook.id
        created = notebook
      }
    }
    try transaction.insert(note, into: \.notes)
    return ReturnToRecentlyDeleted(entry: entry, createdNotebook: created)
  }
}

/// Moves a restored note back into Recently Deleted (the inverse of ``RestoreDeletedNote``).
public struct ReturnToRecentlyDeleted: Action {
  /// The entry as it was before the restore.
  public let entry: DeletedNote
  /// The notebook the restore created, removed again while it holds no other note.
  public let createdNotebook: Notebook?

  /// "Restore Note", the name of the step this undoes.
  public var name: String { "Restore Note" }

  /// The note must exist.
  public func validate(in state: NotesState) -> ValidationResult {
    ValidationResult(NotesRules.noteExists(entry.id, in: state))
  }

  /// Removes the note and puts the entry back; the inverse restores it again.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    try transaction.remove(entry.id, from: \.notes)
    if transaction.state.recentlyDeleted.contains(entry.id) {
      try transaction.remove(entry.id, from: \.recentlyDeleted)
    }
    try transaction.insert(entry, into: \.recentlyDeleted)
    if let createdNotebook, transaction.state.notebooks.contains(createdNotebook.id),
      !transaction.state.notes.elements.contains(where: { $0.notebookID == createdNotebook.id })
    {
      try transaction.remove(createdNotebook.id, from: \.notebooks)
    }
    return RestoreDeletedNote(id: entry.id, now: entry.deleted, notebook: createdNotebook)
  }
}

/// Deletes notes from Recently Deleted for good: one (Delete for Good), every one (Empty
/// Recently Deleted), or those kept longer than the library keeps them
/// (``NotesState/recentlyDeletedDays``).
///
/// Undoing it (while the app runs) puts them back in Recently Deleted.
public struct DeleteForGood: Action {
  /// Which notes go.
  public enum Selection: Equatable, Sendable {
    /// One note.
    case note(NoteID)
    /// Every note in Recently Deleted.
    case all
    /// Every note deleted before the date: the ones past the time they are kept for.
    case deletedBefore(Date)
    /// These notes, each of which must be there: the redo of an undone deletion for good.
    case notes([NoteID])
  }

  /// Which notes go.
  public let selection: Selection

  /// Creates the action.
  ///
  /// - Parameter selection: Which notes go.
  public init(_ selection: Selection) { self.selection = selection }

  /// "Delete for Good", "Empty Recently Deleted", or "Remove Old Deleted Notes".
  public var name: String {
    switch selection {
    case .note, .notes: "Delete for Good"
    case .all: "Empty Recently Deleted"
    case .deletedBefore: "Remove Old Deleted Notes"
    }
  }

  /// Notes named one by one must be in Recently Deleted.
  public func validate(in state: NotesState) -> ValidationResult {
    switch selection {
    case .note(let id): ValidationResult(RecentlyDeleted.entryExists(id, in: state))
    case .notes(let ids):
      ValidationResult(ids.flatMap { RecentlyDeleted.entryExists($0, in: state) })
    case .all, .deletedBefore: ValidationResult()
    }
  }

  /// The notes it removes from `state`, in id order.
  public func entries(in state: NotesState) -> [DeletedNote] {
    let all = state.recentlyDeleted.elements
    let chosen: [DeletedNote] =
      switch selection {
      case .note(let id): all.filter { $0.id == id }
      case .all: Array(all)
      case .deletedBefore(let date): all.filter { $0.deleted < date }
      case .notes(let ids): ids.compactMap { state.recentlyDeleted[$0] }
      }
    return chosen.sorted { $0.id.rawValue < $1.id.rawValue }
  }

  /// Removes the notes; the inverse puts them back.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    let removed = entries(in: transaction.state)
    for entry in removed { try transaction.remove(entry.id, from: \.recentlyDeleted) }
    return PutBackInRecentlyDeleted(entries: removed)
  }
}

/// Puts notes deleted for good back in Recently Deleted (the inverse of ``DeleteForGood``).
public struct PutBackInRecentlyDeleted: Action {
  /// The entries as they were.
  public let entries: [DeletedNote]

  /// "Undo Delete for Good".
  public var name: String { "Undo Delete for Good" }

  /// Their ids must be free.
  public func validate(in state: NotesState) -> ValidationResult {
    ValidationResult(
      entries.filter { state.notes.contains($0.id) || state.recentlyDeleted.contains($0.id) }
        .map { ValidationIssue(field: "note", message: "Note \($0.id) already exists.") })
  }

  /// Inserts the entries; the inverse deletes them for good again.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    for entry in entries { try transaction.insert(entry, into: \.recentlyDeleted) }
    return DeleteForGood(.notes(entries.map(\.id)))
  }
}

/// Sets how many days the library keeps deleted notes before they go for good.
///
/// A setting of this library, undoable like any step; notes already in Recently Deleted are
/// kept or let go by the new number the next time a program opens the library.
public struct KeepDeletedNotes: Action {
  /// How many days.
  public let days: Int

  /// Creates the action.
  ///
  /// - Parameter days: How many days, within ``RecentlyDeleted/allowedDays``.
  public init(days: Int) { self.days = days }

  /// "Keep Deleted Notes".
  public var name: String { "Keep Deleted Notes" }

  /// The number of days must be within ``RecentlyDeleted/allowedDays``.
  public func validate(in state: NotesState) -> ValidationResult {
    let range = RecentlyDeleted.allowedDays
    return ValidationResult(
      range.contains(days)
        ? []
        : [
          ValidationIssue(
            field: "days",
            message:
              "Recently Deleted keeps notes from \(range.lowerBound) to \(range.upperBound) days,"
              + " not \(days).")
        ])
  }

  /// Sets the number; the inverse sets the number before.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    let before = transaction.state.recentlyDeletedDays
    transaction.set(\.recentlyDeletedDays, to: days)
    return KeepDeletedNotes(days: before)
  }
}
