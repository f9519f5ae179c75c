// A pull of several pages: each later page is read on a second connection while the one
// before is applied; the library ends as a pull of one page at a time left it.

import Airframe
import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesSync

@MainActor
@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(10)))
struct PagedPullTests {
  /// A pull of 3 notes a page, whose progress callback sees each page.
  nonisolated static func pull(
    _ engine: UncheckedEngine, notesPerPage: Int, stoppingAfter limit: Int? = nil
  ) async throws -> [Int] {
    try await onThreadOfItsOwn { () throws -> [Int] in
      engine.engine.notesPerPage = notesPerPage
      var seen: [Int] = []
      do {
        try engine.engine.pull { received in
          seen.append(received)
          if let limit, seen.count == limit { throw CancellationError() }
        }
      } catch is CancellationError {}
      return seen
    }
  }

  @Test func pagesReadAheadArriveInOrderAndTheLibrariesAgree() async throws {
    try await withDevices(["A", "B"]) { devices, _ in
      let (a, b) = (devices[0], devices[1])
      _ = try a.createNotebook("Work")
      _ = try a.createNotebook("Home")
      for index in 0..<10 {
        _ = try a.createNote(
          "Note \(index)", body: "body \(index)", in: index < 5 ? "Work" : "Home")
      }
      try await a.sync()
      // Ten notes, three a page: four pages, the notebooks (pushed first) with the first.
      let seen = try await Self.pull(UncheckedEngine(engine: b.engine), notesPerPage: 3)
      #expect(seen == [5, 8, 11, 12])
      try b.catchUp()
      let expected = try await a.content()
      #expect(try await b.content() == expected)
      // Nothing more to pull: no page, no second connection.
      #expect(try await Self.pull(UncheckedEngine(engine: b.engine), notesPerPage: 3) == [])
    }
  }

  @Test func aPullStoppedAfterAPageKeepsThatPageAndTheNextPullGoesOn() async throws {
    try await withDevices(["A", "B"]) { devices, _ in
      let (a, b) = (devices[0], devices[1])
      _ = try a.createNotebook("Work")
      for index in 0..<7 {
        _ = try a.createNote("Note \(index)", in: "Work")
      }
      try await a.sync()
      // Stopped after the first page, while the second is being read ahead: the reader's
      // connection is closed after its read, and the first page stays applied.
      let engine = UncheckedEngine(engine: b.engine)
      #expect(try await Self.pull(engine, notesPerPage: 3, stoppingAfter: 1) == [4])
      try b.catchUp()
      #expect(b.model.state.notes.elements.count == 3)
      #expect(try await Self.pull(engine, notesPerPage: 3) == [3, 4])
      try b.catchUp()
      let expected = try await a.content()
      #expect(try await b.content() == expected)
    }
  }
}
