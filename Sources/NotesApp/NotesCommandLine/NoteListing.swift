import Airframe
import Foundation
import NotesCore

/// A note as `list --json`, `search --json` and `show --json` print it.
struct NoteListing: Encodable {
  /// The note's id.
  var id: Int64
  /// The title of its notebook.
  var notebook: String
  /// The title.
  var title: String
  /// The text.
  var body: String
  /// When it was created.
  var created: Date
  /// When it last changed.
  var modified: Date
  /// Whether it is pinned.
  var pinned: Bool
  /// When it was deleted, for a note in Recently Deleted (`trash --json`); absent otherwise.
  var deleted: Date?

  /// The listing of `note`, in a library whose state is `state`.
  init(_ note: Note, in state: NotesState) {
    id = note.id.rawValue
    notebook = state.notebooks[note.notebookID]?.title ?? ""
    title = note.title
    body = note.body
    created = note.created
    modified = note.modified
    pinned = note.isPinned
  }

  /// The listing of a note in Recently Deleted, with the notebook it was in.
  init(deleted entry: DeletedNote) {
    id = entry.id.rawValue
    notebook = entry.notebookTitle
    title = entry.note.title
    body = entry.note.body
    created = entry.note.created
    modified = entry.note.modified
    pinned = entry.note.isPinned
    deleted = entry.deleted
  }
}
