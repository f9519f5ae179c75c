// LibrarySyncStore+NotebookTitles: two notebooks with the same title, one of them pulled
// (the rule is on `writeNotebook`).

internal import Foundation
internal import NotesCore

extension LibrarySyncStore {
  /// Joins this device's notebook `twin` into the pulled notebook `uid` of the same title.
  ///
  /// `twin` has never reached the server: it is the same notebook, made on two devices. The
  /// pulled one takes `twin`'s notes, and `twin` goes away.
  func join(
    _ twin: (id: Int64, uid: String), asNotebook uid: String, titled title: String,
    created: Double, in batch: inout PullBatch
  ) throws(NotesStorageError) {
    let id = try insertNotebook(uid: uid, title: title, created: created, in: &batch)
    try connection.withStatement("UPDATE notes SET notebook_id = ?2 WHERE notebook_id = ?1") {
      statement throws(NotesStorageError) in
      try statement.bind(twin.id, at: 1)
      try statement.bind(id, at: 2)
      try statement.step()
    }
    for noteID in try noteIDs(inNotebook: id) { batch.touched.append((.note, noteID)) }
    try connection.withStatement(SQL.deleteNotebook) { statement throws(NotesStorageError) in
      try statement.bind(twin.id, at: 1)
      try statement.step()
    }
    batch.touched.append((.notebook, twin.id))
    batch.report.notices.append(
      "The notebook “\(title)” was also created on another device: they are one notebook now.")
  }

  /// Separates two notebooks that share a title on the server.
  ///
  /// The one whose uid sorts last gets a number, on every device alike. Returns the title
  /// the arriving notebook `uid` takes.
  func separate(
    _ uid: String, titled title: String, from twin: (id: Int64, uid: String),
    in batch: inout PullBatch
  ) throws(NotesStorageError) -> String {
    let numbered = try freeTitle(startingWith: title)
    batch.report.notices.append(
      "Two notebooks were named “\(title)”: one of them is now “\(numbered)”.")
    guard uid < twin.uid else { return numbered }
    try connection.withStatement(SQL.updateNotebook) { statement throws(NotesStorageError) in
      try statement.bind(twin.id, at: 1)
      try statement.bind(numbered, at: 2)
      try statement.step()
    }
    batch.touched.append((.notebook, twin.id))
    return title
  }

  /// The notebook whose title is `title` by the actions' rule (`NotesRules.notebookTitleKey`:
  /// ignoring case and surrounding white space).
  func notebook(titled title: String) throws(NotesStorageError) -> (id: Int64, uid: String)? {
    try notebook(withKey: NotesRules.notebookTitleKey(title))
  }

  private func notebook(withKey wanted: String) throws(NotesStorageError) -> (
    id: Int64, uid: String
  )? {
    try connection.withStatement("SELECT id, uid, title FROM notebooks") {
      statement throws(NotesStorageError) -> (id: Int64, uid: String)? in
      while try statement.step() {
        if NotesRules.notebookTitleKey(statement.string(at: 2)) == wanted {
          return (statement.int64(at: 0), statement.string(at: 1))
        }
      }
      return nil
    }
  }

  /// `title`, or the first of “title 2”, “title 3”, … that no notebook in the file has,
  /// by the actions' rule (`NotesRules.freeNotebookTitle`).
  func freeTitle(startingWith title: String) throws(NotesStorageError) -> String {
    try NotesRules.freeNotebookTitle(title) { key throws(NotesStorageError) in
      try notebook(withKey: key) != nil
    }
  }

  private func noteIDs(inNotebook id: Int64) throws(NotesStorageError) -> [Int64] {
    try connection.withStatement("SELECT id FROM notes WHERE notebook_id = ?1") {
      statement throws(NotesStorageError) in
      try statement.bind(id, at: 1)
      var ids: [Int64] = []
      while try statement.step() { ids.append(statement.int64(at: 0)) }
      return ids
    }
  }
}
