// The write-ahead log is checkpointed off the committing thread: commits never run a
// checkpoint themselves, and the background one keeps the log from growing.

import Airframe
import AirframeTesting
import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

@Suite(.noLiveBindings)
@MainActor
struct CheckpointTests {
  typealias F = Fixtures

  /// The write-ahead log's size in bytes (0 when there is none).
  func logSize(_ path: String) -> Int {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
    return (attributes?[.size] as? NSNumber)?.intValue ?? 0
  }

  /// A library with one note, and a model on it.
  func library(at path: String) throws -> (NotesDatabase, Model<NotesState>) {
    let database = try NotesDatabase(path: path)
    let model = Model(try database.loadState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Long", ""), into: \.notes)
    }
    return (database, model)
  }

  /// `count` commits, each writing a 40 KB body (about ten pages of the log).
  func edit(_ model: Model<NotesState>, times count: Int, after each: () -> Void = {}) throws {
    for index in 0..<count {
      try model.write(origin: .background("test")) { transaction in
        try transaction.update(NoteID(rawValue: 2), in: \.notes) {
          $0.body = String(repeating: "\(index % 10)", count: 40_000)
        }
      }
      each()
    }
  }

  /// A page of the log: the page and its frame header.
  let frame = 4_096 + 24

  @Test func theBackgroundCheckpointKeepsTheLogSmall() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let (database, model) = try library(at: path)
    let checkpointer = try #require(database.checkpointer)
    // About 3,000 pages in all; after each commit the checkpoint it asked for has run, so
    // the log restarts once it passed 1,000 pages.
    var largest = 0
    try edit(model, times: 300) {
      checkpointer.waitUntilIdle()
      largest = max(largest, logSize(path))
    }
    #expect(largest > 900 * frame, "the log did fill up to the threshold")
    #expect(largest < 1_100 * frame, "and no further: \(largest) bytes")
    database.close()
    let reopened = try NotesDatabase(path: path)
    defer { reopened.close() }
    #expect(try reopened.loadState().notes[NoteID(rawValue: 2)]?.body.first == "9")
  }

  @Test func aCommitNeverCheckpointsItself() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let (database, model) = try library(at: path)
    // With the checkpointer closed, nothing checkpoints until the database closes: the
    // log grows past SQLite's own threshold, which would have checkpointed inside a commit.
    database.checkpointer?.close()
    try edit(model, times: 200)
    #expect(logSize(path) > 1_500 * frame)
    database.close()
    #expect(logSize(path) == 0, "closing checkpoints and removes the log")
    let reopened = try NotesDatabase(path: path)
    defer { reopened.close() }
    #expect(try reopened.loadState().notes[NoteID(rawValue: 2)]?.body.first == "9")
  }
}
