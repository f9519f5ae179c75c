// Fuzz target: the search query builder, on a real library file with full-text search and
// with the substring fallback.
//
// Contract checked for every input (the query is the bytes, invalid UTF-8 repaired):
// - Any text is a valid query: `search` never throws, and returns at most `limit` distinct
//   ids of notes in the library.
// - A note whose body is the query is found by it, whenever the query has a word the
//   library's search method looks for and is a body the rules accept (no control
//   characters but tabs and line breaks).

import Airframe
import Foundation
import NotesCore

@testable import NotesStorage

/// One library opened for the whole run: full text, and the substring fallback.
@MainActor
private enum Library {
  static let folder = NSTemporaryDirectory() + "airframe-fuzz-search-\(getpid())"
  static let fullText = open("full-text.sqlite", fullTextSearch: true)
  static let substring = open("substring.sqlite", fullTextSearch: false)
  static let limit = 5

  /// A library with a few notes; note 1's body is what each input replaces.
  static func open(_ name: String, fullTextSearch: Bool) -> (NotesDatabase, Model<NotesState>) {
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/" + name
    try? FileManager.default.removeItem(atPath: path)
    do {
      let database = try NotesDatabase(
        path: path, durability: .survivesAppCrash, fullTextSearch: fullTextSearch,
        schemaVersion: Migration.latestVersion)
      let model = Model(try database.loadState(), storage: database)
      let date = Date(timeIntervalSinceReferenceDate: 0)
      try model.write(origin: .background("fuzz fixture")) { transaction in
        try transaction.insert(
          Notebook(id: NotebookID(rawValue: 1), title: "Home", created: date), into: \.notebooks)
        let texts = ["", "groceries milk eggs", "it's \"quoted\"; 100% off", "漢字 café naïve"]
        for (index, text) in texts.enumerated() {
          let id = NoteID(rawValue: Int64(index + 1))
          try transaction.insert(
            Note(
              id: id, notebookID: NotebookID(rawValue: 1), title: "Note \(index + 1)", body: text,
              created: date, modified: date),
            into: \.notes)
        }
        transaction.set(\.lastAssignedID, to: Int64(texts.count))
      }
      return (database, model)
    } catch {
      fail("cannot create the library: \(error)")
    }
  }
}

@MainActor
private func check(_ query: String, in library: (NotesDatabase, Model<NotesState>), _ name: String)
{
  let (database, model) = library
  let isBody = NotesRules.bodyIssues(query).isEmpty
  do {
    try model.write(origin: .background("fuzz fixture")) { transaction in
      try transaction.update(NoteID(rawValue: 1), in: \.notes) { $0.body = isBody ? query : "" }
    }
  } catch {
    fail("\(name): cannot save the body \(query.debugDescription): \(error)")
  }
  let ids: [NoteID]
  do {
    ids = try database.search(query, limit: Library.limit)
  } catch {
    fail("\(name): the query \(query.debugDescription) fails: \(error)")
  }
  expect(ids.count <= Library.limit, "\(name): more ids than the limit")
  expect(Set(ids).count == ids.count, "\(name): an id twice in \(ids)")
  expect(ids.allSatisfy { model.state.notes[$0] != nil }, "\(name): an unknown id in \(ids)")
  let words: [Substring]
  do {
    words = try database.searchedWords(in: query)
  } catch {
    fail("\(name): cannot split the query \(query.debugDescription): \(error)")
  }
  if isBody, !words.isEmpty {
    expect(
      ids.contains(NoteID(rawValue: 1)),
      "\(name): the query \(query.debugDescription) does not find the note it is the body of")
  }
}

/// libFuzzer's entry point: checks the contract on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let query = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  MainActor.assumeIsolated {
    check(query, in: Library.fullText, "full text")
    check(query, in: Library.substring, "substring")
  }
  return 0
}
