// NotesFixtures: the library the Notes figures (7–13, 17) and the sync figures (14–16)
// measure, built once per run, the scratch folder it lives in, and the failure log.
//
// The library: 20 notebooks and `Scale.notesCount` notes, generated from a seeded
// generator, so every run builds the same library. Titles are 3 words, bodies 40 words;
// a word is one of 8 common words ("the", "and", …) one time in four, otherwise one of a
// 5,000-word vocabulary of made-up words (each then appears in about 600 notes per
// 100,000). The SQLite file is built once per run through `NotesDatabase` (the real schema,
// the real full-text triggers): one `Model.write` inserting every notebook and note, then
// `close()`, which brings the full-text index up to date. It lives in a folder named with a
// UUID under the temporary directory, removed at the end.

import Airframe
import AirframeBinding
import AirframeTesting
import CSQLite
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesStorage

/// A generated notes library, the same for every run with the same count.
struct GeneratedLibrary {
  static let notebookCount = 20
  static let commonWords = ["the", "and", "of", "to", "in", "a", "is", "for"]
  static let wordsPerTitle = 3
  static let wordsPerBody = 40
  /// 1 January 2024, as seconds since 1970: every generated date is after it.
  static let epoch = 1_704_067_200.0

  /// The made-up words notes are written in (besides the common words).
  let vocabulary: [String]
  let notebooks: [Notebook]
  let notes: [Note]

  init(noteCount: Int) {
    var random = SeededRandomNumberGenerator(seed: 7)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    vocabulary = (0..<5_000).map { _ in
      String(
        (0..<Int.random(in: 4...9, using: &random)).map { _ in
          letters[Int.random(in: 0..<26, using: &random)]
        })
    }
    notebooks = (1...Self.notebookCount).map { index in
      Notebook(
        id: NotebookID(rawValue: Int64(index)), title: "Notebook \(index)",
        created: Date(timeIntervalSince1970: Self.epoch))
    }
    var notes: [Note] = []
    notes.reserveCapacity(noteCount)
    for index in 0..<noteCount {
      let created = Date(timeIntervalSince1970: Self.epoch + Double(index))
      notes.append(
        Note(
          id: NoteID(rawValue: Int64(Self.notebookCount + 1 + index)),
          notebookID: NotebookID(
            rawValue: Int64.random(in: 1...Int64(Self.notebookCount), using: &random)),
          title: Self.text(words: Self.wordsPerTitle, from: vocabulary, using: &random),
          body: Self.text(words: Self.wordsPerBody, from: vocabulary, using: &random),
          created: created,
          isPinned: index.isMultiple(of: 50)))
    }
    self.notes = notes
  }

  /// The state the library's file holds.
  var state: NotesState { NotesState(notebooks: notebooks, notes: notes) }

  /// `words` words: a common word one time in four, otherwise a vocabulary word.
  static func text(
    words: Int, from vocabulary: [String], using random: inout SeededRandomNumberGenerator
  ) -> String {
    var text = ""
    for index in 0..<words {
      if index > 0 { text += " " }
      if Int.random(in: 0..<4, using: &random) == 0 {
        text += commonWords[Int.random(in: 0..<commonWords.count, using: &random)]
      } else {
        text += vocabulary[Int.random(in: 0..<vocabulary.count, using: &random)]
      }
    }
    return text
  }

  /// Writes the library into a new database at `path`, in one commit through the model.
  @MainActor
  func write(toDatabaseAt path: String) throws {
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    let model = Model(NotesState(), storage: database)
    try model.write(origin: .background("benchmark fixture")) { transaction in
      for notebook in notebooks { try transaction.insert(notebook, into: \.notebooks) }
      for note in notes { try transaction.insert(note, into: \.notes) }
      transaction.set(\.lastAssignedID, to: Int64(Self.notebookCount + notes.count))
    }
  }
}

/// A folder under the temporary directory, named with a UUID, for the run's database files.
struct ScratchFolder {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("airframe-bench-notes-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// The path of `name` in the folder.
  func file(_ name: String) -> String { path + "/" + name }

  /// A copy of the (closed) database `source` named `name`; returns its path.
  func copy(_ source: String, to name: String) throws -> String {
    let destination = file(name)
    try FileManager.default.copyItem(atPath: source, toPath: destination)
    return destination
  }

  /// Removes the folder and everything in it.
  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// The library built once for figures 7–9: its notes in memory and its database file.
struct NotesFixture {
  let library: GeneratedLibrary
  let folder: ScratchFolder
  /// The built database file; figures read it, and edit only copies of it.
  let path: String
  /// Seconds the one commit that built the file took.
  let buildSeconds: Double

  @MainActor
  init(noteCount: Int, folder: ScratchFolder) throws {
    library = GeneratedLibrary(noteCount: noteCount)
    self.folder = folder
    path = folder.file("library.sqlite")
    var failure: (any Error)?
    let library = library
    let path = path
    buildSeconds =
      timeNanoseconds {
        do { try library.write(toDatabaseAt: path) } catch { failure = error }
      } / 1e9
    if let failure { throw failure }
  }
}

/// The first error a measured closure ran into (subjects cannot throw), and how many.
@MainActor
final class FailureLog {
  private(set) var first: (any Error)?
  private(set) var count = 0

  func attempt(_ body: () throws -> Void) {
    do { try body() } catch {
      count += 1
      if first == nil { first = error }
    }
  }

  /// Throws the first error, if there was one.
  func check() throws {
    if let first { throw first }
  }
}
