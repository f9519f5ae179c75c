// Small actions over the test library, written the way an app writes its own.

import Airframe

struct AddNote: Action {
  let note: Note
  var name: String { "Add Note" }

  func validate(in state: Library) -> ValidationResult {
    ValidatorList {
      NonEmptyText(field: "title")
      MaximumLength(field: "title", limit: 100)
      NoControlCharacters(field: "title")
    }.validate(note.title)
  }

  func perform(in transaction: inout Transaction<Library>) throws -> any Action<Library> {
    try transaction.insert(note, into: \.notes)
    return DeleteNote(id: note.id)
  }
}

struct RenameNote: Action {
  let id: Int
  let title: String
  var name: String { "Rename Note" }

  func validate(in state: Library) -> ValidationResult {
    let text = ValidatorList {
      NonEmptyText(field: "title")
      NoControlCharacters(field: "title")
    }
    return ValidationResult(
      ExistingID(field: "note", ids: state.notes.byID.keys).issues(in: id) + text.issues(in: title))
  }

  func perform(in transaction: inout Transaction<Library>) throws -> any Action<Library> {
    let old = transaction.state.notes[id]?.title ?? ""
    try transaction.update(id, in: \.notes) { $0.title = title }
    return RenameNote(id: id, title: old)
  }
}

struct DeleteNote: Action {
  let id: Int
  var name: String { "Delete Note" }

  func validate(in state: Library) -> ValidationResult {
    ValidationResult(ExistingID(field: "note", ids: state.notes.byID.keys).issues(in: id))
  }

  func perform(in transaction: inout Transaction<Library>) throws -> any Action<Library> {
    let removed = try transaction.remove(id, from: \.notes)
    return AddNote(note: removed)
  }
}
