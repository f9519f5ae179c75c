// notes-crash-writer: a test tool that commits notes as fast as it can and reports each
// one it committed, so a test can kill it at any moment and check that nothing it reported
// is lost.
//
// Usage: notes-crash-writer DATABASE-PATH COUNT
// Prints "ready" once the database is open, then "committed <note id>" after each
// `Model.write` has returned (that is, after the storage transaction committed); each line
// is written straight to the file descriptor, unbuffered. Exits 0 after COUNT notes, 1 with
// a message on stderr on error.

import Airframe
import Foundation
import NotesCore
import NotesStorage

/// Writes one line to standard output with a single unbuffered write.
func report(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

@MainActor
func run() -> Int32 {
  let arguments = CommandLine.arguments
  guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else {
    FileHandle.standardError.write(Data("usage: notes-crash-writer DATABASE-PATH COUNT\n".utf8))
    return 2
  }
  do {
    let database = try NotesDatabase(path: arguments[1])
    let model = Model(try database.loadState(), storage: database)
    if model.state.notebooks.count == 0 {
      try model.write(origin: .background("crash writer")) { transaction in
        let id = NotebookID(rawValue: transaction.state.lastAssignedID + 1)
        transaction.set(\.lastAssignedID, to: id.rawValue)
        try transaction.insert(
          Notebook(id: id, title: "Crash test", created: Date()), into: \.notebooks)
      }
    }
    let notebook = model.state.notebooks.elements.map(\.id).min()!
    let dispatcher = ActionDispatcher(model: model)
    report("ready")
    for index in 0..<count {
      let outcome = dispatcher.dispatch(
        CreateNote(notebookID: notebook, title: "Note \(index)", body: "body \(index)", now: Date())
      )
      guard outcome.isCommitted else {
        FileHandle.standardError.write(Data("commit failed: \(outcome)\n".utf8))
        return 1
      }
      report("committed \(model.state.lastAssignedID)")
    }
    database.close()
    return 0
  } catch {
    FileHandle.standardError.write(Data("notes-crash-writer: \(error)\n".utf8))
    return 1
  }
}

exit(run())
