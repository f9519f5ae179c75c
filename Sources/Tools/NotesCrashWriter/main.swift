// notes-crash-writer: a test tool that writes a library as fast as it can and reports each
// write it committed, so a test can kill it at any moment and check that the library is as
// before or as after each write, never between.
//
// Usage:
//   notes-crash-writer DATABASE-PATH COUNT
//     Creates COUNT notes; prints "committed <note id>" after each.
//   notes-crash-writer DATABASE-PATH lifecycle COUNT
//     Takes COUNT notes, one after the other, through `LifecycleStep`'s steps (create, edit,
//     restore a version, delete, restore from Recently Deleted, delete, delete for good);
//     prints "done <note index> <step> <note id>" after each.
//   notes-crash-writer DATABASE-PATH thin
//     Thins the library's note history as an opened library does, and prints
//     "thinned <versions removed>" at the end.
//
// Each mode prints "ready" once the database is open. A line is printed after `Model.write`
// (or the thinning) has returned, that is after the storage transaction committed, and
// straight to the file descriptor, unbuffered. Exits 0 when done, 1 with a message on
// stderr on error, 2 on a bad command line.

import Airframe
import Foundation
import NotesCore
import NotesStorage

/// Writes one line to standard output with a single unbuffered write.
func report(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A failed write, with what it was.
struct WriteFailed: Error, CustomStringConvertible {
  var description: String
}

/// What the lifecycle mode does to each note, in order (the test holds the state each step
/// leaves).
enum LifecycleStep: String, CaseIterable {
  case create, edit, restoreVersion, delete, restore, deleteAgain, deleteForGood
}

@MainActor
func run() -> Int32 {
  let arguments = Array(CommandLine.arguments.dropFirst())
  let usage = "usage: notes-crash-writer DATABASE-PATH (COUNT | lifecycle COUNT | thin)\n"
  do {
    switch arguments.count {
    case 2 where Int(arguments[1]).map({ $0 > 0 }) == true:
      try createNotes(path: arguments[0], count: Int(arguments[1])!)
    case 3 where arguments[1] == "lifecycle" && Int(arguments[2]).map({ $0 > 0 }) == true:
      try lifecycle(path: arguments[0], count: Int(arguments[2])!)
    case 2 where arguments[1] == "thin":
      try thin(path: arguments[0])
    default:
      FileHandle.standardError.write(Data(usage.utf8))
      return 2
    }
    return 0
  } catch {
    FileHandle.standardError.write(Data("notes-crash-writer: \(error)\n".utf8))
    return 1
  }
}

/// Opens the library and its model, with one notebook in it.
@MainActor
func open(_ path: String) throws -> (NotesDatabase, Model<NotesState>, NotebookID) {
  let database = try NotesDatabase(path: path)
  let model = Model(try database.loadState(), storage: database)
  if model.state.notebooks.count == 0 {
    try model.write(origin: .background("crash writer")) { transaction in
      let id = NotebookID(rawValue: transaction.state.lastAssignedID + 1)
      transaction.set(\.lastAssignedID, to: id.rawValue)
      try transaction.insert(
        Notebook(id: id, title: "Crash test", created: Date()), into: \.notebooks)
    }
  }
  return (database, model, model.state.notebooks.elements.map(\.id).min()!)
}

/// Dispatches `action` and throws unless it committed.
@MainActor
func commit(_ action: some Action<NotesState>, with dispatcher: ActionDispatcher<NotesState>)
  throws
{
  let outcome = dispatcher.dispatch(action)
  guard outcome.isCommitted else { throw WriteFailed(description: "\(action.name): \(outcome)") }
}

@MainActor
func createNotes(path: String, count: Int) throws {
  let (database, model, notebook) = try open(path)
  defer { database.close() }
  let dispatcher = ActionDispatcher(model: model)
  report("ready")
  for index in 0..<count {
    try commit(
      CreateNote(notebookID: notebook, title: "Note \(index)", body: "body \(index)", now: Date()),
      with: dispatcher)
    report("committed \(model.state.lastAssignedID)")
  }
}

@MainActor
func lifecycle(path: String, count: Int) throws {
  let (database, model, notebook) = try open(path)
  defer { database.close() }
  let dispatcher = ActionDispatcher(model: model)
  report("ready")
  for index in 0..<count {
    var id = NoteID(rawValue: 0)
    for step in LifecycleStep.allCases {
      switch step {
      case .create:
        try commit(
          CreateNote(
            notebookID: notebook, title: "Note \(index)", body: "body \(index)", now: Date()),
          with: dispatcher)
        id = NoteID(rawValue: model.state.lastAssignedID)
      case .edit:
        try commit(
          EditNoteBody(id: id, body: "body \(index) edited", now: Date()), with: dispatcher)
      case .restoreVersion:
        // The oldest version: the text before the edit.
        guard let first = try database.history(of: id).last else {
          throw WriteFailed(description: "note \(id.rawValue) has no history")
        }
        try commit(RestoreNoteVersion(version: first, now: Date()), with: dispatcher)
      case .delete, .deleteAgain:
        try commit(DeleteNote(id: id, now: Date()), with: dispatcher)
      case .restore:
        try commit(RestoreDeletedNote(id: id, now: Date()), with: dispatcher)
      case .deleteForGood:
        try commit(DeleteForGood(.note(id)), with: dispatcher)
      }
      report("done \(index) \(step.rawValue) \(id.rawValue)")
    }
  }
}

@MainActor
func thin(path: String) throws {
  let database = try NotesDatabase(path: path)
  defer { database.close() }
  report("ready")
  let ended = DispatchSemaphore(value: 0)
  nonisolated(unsafe) var result: Result<HistoryThinning, NotesStorageError>?
  database.thinHistory(now: Date()) { outcome in
    result = outcome
    ended.signal()
  }
  ended.wait()
  // The semaphore orders the completion's write before this read.
  report("thinned \(try result!.get().removed)")
}

exit(run())
