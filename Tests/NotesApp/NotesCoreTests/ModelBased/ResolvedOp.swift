// ResolvedOp: a generated action with its ids and dates filled in, ready to become both a
// real NotesCore action and a step of the reference model. What an action does once
// resolved is decided by each side on its own.

import Airframe
import Foundation
@_spi(Instrumentation) import NotesCore

enum ResolvedOp: Sendable, Equatable {
  case createNotebook(title: String, now: Date)
  case renameNotebook(NotebookID, title: String)
  case deleteNotebook(NotebookID, deletingNotes: Bool)
  case createNote(NotebookID, title: String, body: String, now: Date)
  case renameNote(NoteID, title: String, now: Date)
  case editBody(NoteID, body: String, now: Date)
  case moveNote(NoteID, to: NotebookID, now: Date)
  case setPinned(NoteID, Bool)
  case deleteNote(NoteID)
  case restoreVersion(NoteID, title: String, body: String, now: Date)
  case keepDeletedNotes(days: Int)
  case restoreNote(NoteID, now: Date)
  case deleteForGood(NoteID?)

  /// Resolves `op` against the ids that exist now (`deleted`: those in Recently Deleted).
  init(_ op: GeneratedOp, notebooks: [Int64], notes: [Int64], deleted: [Int64]) {
    func notebook(_ ref: EntityRef) -> NotebookID {
      NotebookID(rawValue: ref.resolve(in: notebooks))
    }
    func note(_ ref: EntityRef) -> NoteID { NoteID(rawValue: ref.resolve(in: notes)) }
    switch op {
    case .createNotebook(let title, let tick):
      self = .createNotebook(title: title.value, now: tickDate(tick))
    case .renameNotebook(let ref, let title):
      self = .renameNotebook(notebook(ref), title: title.value)
    case .deleteNotebook(let ref, let deleting):
      self = .deleteNotebook(notebook(ref), deletingNotes: deleting)
    case .createNote(let ref, let title, let body, let tick):
      self = .createNote(notebook(ref), title: title.value, body: body.value, now: tickDate(tick))
    case .renameNote(let ref, let title, let tick):
      self = .renameNote(note(ref), title: title.value, now: tickDate(tick))
    case .editBody(let ref, let body, let tick):
      self = .editBody(note(ref), body: body.value, now: tickDate(tick))
    case .moveNote(let ref, let target, let tick):
      self = .moveNote(note(ref), to: notebook(target), now: tickDate(tick))
    case .setPinned(let ref, let pinned): self = .setPinned(note(ref), pinned)
    case .deleteNote(let ref): self = .deleteNote(note(ref))
    case .restoreVersion(let ref, let title, let body, let tick):
      self = .restoreVersion(note(ref), title: title.value, body: body.value, now: tickDate(tick))
    case .keepDeletedNotes(let days): self = .keepDeletedNotes(days: days)
    case .restoreNote(let ref, let tick):
      self = .restoreNote(NoteID(rawValue: ref.resolve(in: deleted)), now: tickDate(tick))
    case .deleteForGood(let ref):
      self = .deleteForGood(ref.map { NoteID(rawValue: $0.resolve(in: deleted)) })
    }
  }

  /// The real action.
  var action: any Action<NotesState> {
    switch self {
    case .createNotebook(let title, let now): CreateNotebook(title: title, now: now)
    case .renameNotebook(let id, let title): RenameNotebook(id: id, title: title)
    case .deleteNotebook(let id, let deleting):
      DeleteNotebook(id: id, deletingNotes: deleting, now: deletionDate)
    case .createNote(let notebook, let title, let body, let now):
      CreateNote(notebookID: notebook, title: title, body: body, now: now)
    case .renameNote(let id, let title, let now): RenameNote(id: id, title: title, now: now)
    case .editBody(let id, let body, let now): EditNoteBody(id: id, body: body, now: now)
    case .moveNote(let id, let notebook, let now): MoveNote(id: id, to: notebook, now: now)
    case .setPinned(let id, let pinned): SetNotePinned(id: id, isPinned: pinned)
    case .deleteNote(let id): DeleteNote(id: id, now: deletionDate)
    case .restoreVersion(let id, let title, let body, let now):
      // The version's own id and date play no part in a restore.
      RestoreNoteVersion(
        version: NoteVersion(
          id: 1, noteID: id, title: title, body: body, saved: now, origin: .thisDevice),
        now: now)
    case .keepDeletedNotes(let days): KeepDeletedNotes(days: days)
    case .restoreNote(let id, let now): RestoreDeletedNote(id: id, now: now)
    case .deleteForGood(let id): DeleteForGood(id.map { .note($0) } ?? .all)
    }
  }
}
