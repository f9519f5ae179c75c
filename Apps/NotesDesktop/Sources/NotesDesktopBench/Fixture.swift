// Fixture: the library the window's figures are taken on — 100,000 notes in one notebook
// and a pinned long note (2,000 lines) that the keystrokes go into.

import Airframe
import Foundation
import NotesCore
import NotesHost
import NotesPresentation

/// The benchmark's library.
enum Fixture {
  /// The title of the note the keystrokes go into; pinned, so it is the list's first row.
  static let longNoteTitle = "Long note"

  /// Makes a new library at `path` with `count` short notes and the long note.
  ///
  /// - Parameters:
  ///   - path: The library file (must not exist).
  ///   - count: How many short notes.
  /// - Throws: The library's error, or a description of a refused import.
  @MainActor
  static func make(at path: String, notes count: Int) throws {
    let library = try NotesLibrary.open(path: path, samples: .never)
    defer { library.close() }
    var notes = (0..<count).map { number in
      ImportNotes.NoteItem(
        notebook: 1, title: "Note \(number)",
        body: "Body of note \(number): a line of text with a few words.", created: nil,
        modified: Date(timeIntervalSince1970: Double(1_000_000 + number)), isPinned: false,
        label: "note \(number)")
    }
    let body = (1...2_000).map { "Paragraph \($0) of the long note, with a few more words." }
      .joined(separator: "\n")
    notes.append(
      .init(
        notebook: 1, title: longNoteTitle, body: body, created: nil,
        modified: Date(timeIntervalSince1970: 0), isPinned: true, label: "long"))
    let outcome = library.session.notesImported(
      ImportNotes(
        notebooks: [.init(key: 1, title: "Many", created: nil, label: "Many")], notes: notes,
        now: Date()))
    guard outcome.isCommitted else {
      throw BenchError("the fixture's import was refused: \(outcome)")
    }
  }
}

/// Why the benchmark could not go on.
struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
