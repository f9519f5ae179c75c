import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

/// The full-text index of schema version 4: commits record changed notes, and the index is
/// brought up to date from that record before each search and on close.
@Suite(.noLiveBindings)
@MainActor
struct FullTextIndexTests {
  typealias F = Fixtures

  /// Runs `body` with a new database holding notebook 1, then checks the index and removes it.
  private func withDatabase(
    _ body: (NotesDatabase, Model<NotesState>, String) throws -> Void
  ) throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let database = try NotesDatabase(path: path)
    let model = Model(try database.loadState(), storage: database)
    try model.write(origin: .background("test")) {
      try $0.insert(F.notebook(1, "Home"), into: \.notebooks)
    }
    try body(database, model, path)
    database.close()
    #expect(try RawDatabase.recordedChangeCount(path) == 0)
    try RawDatabase.checkIndexMatchesNotes(path)
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func aFreshFileHasTheRecordingTriggersOnly() throws {
    try withDatabase { database, _, path throws in
      #expect(database.searchMethod == .fullText)
      #expect(database.recordsIndexChanges)
      #expect(try RawDatabase.triggerNames(path) == RawDatabase.recordingTriggers)
    }
  }

  @Test func aBodyEditRecordsTheOldTextAndLeavesTheIndexAlone() throws {
    try withDatabase { database, model, _ throws in
      try model.write(origin: .background("test")) {
        try $0.insert(F.note(2, in: 1, "Groceries", "milk and bread"), into: \.notes)
      }
      #expect(try database.search("milk") == F.noteIDs(2))
      try model.write(origin: .background("test")) {
        try $0.update(NoteID(rawValue: 2), in: \.notes) { $0.body = "cheese and honey" }
      }
      try model.write(origin: .background("test")) {
        try $0.update(NoteID(rawValue: 2), in: \.notes) { $0.body = "olives" }
      }
      // The commits tokenized nothing: the index still holds the first text, and the
      // record holds exactly that text.
      #expect(try Self.indexMatches("milk", in: database) == [2])
      #expect(try Self.indexMatches("olives", in: database).isEmpty)
      #expect(
        try Self.recorded(in: database) == [
          Recorded(id: 2, title: "Groceries", body: "milk and bread")
        ])

      #expect(try database.search("olives") == F.noteIDs(2))
      #expect(try database.search("milk").isEmpty)
      #expect(try database.search("cheese").isEmpty)
      #expect(try Self.recorded(in: database).isEmpty)
      try Self.checkIndexMatchesNotes(database)
    }
  }

  @Test func aPinOrMoveRecordsNothing() throws {
    try withDatabase { database, model, _ throws in
      try model.write(origin: .background("test")) {
        try $0.insert(F.notebook(3, "Work"), into: \.notebooks)
        try $0.insert(F.note(2, in: 1, "Groceries", "milk"), into: \.notes)
      }
      try database.updateFullTextIndex()
      try model.write(origin: .background("test")) {
        try $0.update(NoteID(rawValue: 2), in: \.notes) {
          $0.isPinned = true
          $0.notebookID = NotebookID(rawValue: 3)
          $0.modified = F.date(99)
        }
      }
      #expect(try Self.recorded(in: database).isEmpty)
      #expect(try database.search("milk") == F.noteIDs(2))
    }
  }

  @Test func aNoteDeletedAndInsertedAgainBeforeASearchIsIndexedOnce() throws {
    try withDatabase { database, model, _ throws in
      try model.write(origin: .background("test")) {
        try $0.insert(F.note(2, in: 1, "Alpha", "apple"), into: \.notes)
      }
      #expect(try database.search("apple") == F.noteIDs(2))
      try model.write(origin: .background("test")) {
        try $0.remove(NoteID(rawValue: 2), from: \.notes)
      }
      try model.write(origin: .background("test")) {
        try $0.insert(F.note(2, in: 1, "Beta", "banana"), into: \.notes)
      }
      try model.write(origin: .background("test")) {
        try $0.update(NoteID(rawValue: 2), in: \.notes) { $0.title = "Gamma" }
      }
      #expect(try Self.recorded(in: database) == [Recorded(id: 2, title: "Alpha", body: "apple")])
      #expect(try database.search("apple").isEmpty)
      #expect(try database.search("alpha").isEmpty)
      #expect(try database.search("beta").isEmpty)
      #expect(try database.search("gamma banana") == F.noteIDs(2))
      try Self.checkIndexMatchesNotes(database)

      // Inserted and deleted between two searches: never indexed, nothing to remove.
      try model.write(origin: .background("test")) {
        try $0.insert(F.note(3, in: 1, "Ghost", "boo"), into: \.notes)
      }
      try model.write(origin: .background("test")) {
        try $0.update(NoteID(rawValue: 3), in: \.notes) { $0.body = "still boo" }
      }
      try model.write(origin: .background("test")) {
        try $0.remove(NoteID(rawValue: 3), from: \.notes)
      }
      #expect(try Self.recorded(in: database) == [Recorded(id: 3, title: nil, body: nil)])
      #expect(try database.search("boo").isEmpty)
      try Self.checkIndexMatchesNotes(database)
    }
  }

  @Test func aCommitThatFailsRecordsNothing() throws {
    try withDatabase { database, model, _ throws in
      try model.write(origin: .background("test")) {
        try $0.insert(F.note(2, in: 1, "Alpha", "apple"), into: \.notes)
      }
      try database.updateFullTextIndex()
      // A note in a missing notebook fails at COMMIT (the foreign key), after the
      // triggers ran for both notes.
      #expect(throws: ModelError.self) {
        try model.write(origin: .background("test")) { transaction in
          try transaction.update(NoteID(rawValue: 2), in: \.notes) { $0.body = "pear" }
          try transaction.insert(F.note(3, in: 9, "Orphan", "lost"), into: \.notes)
        }
      }
      #expect(try Self.recorded(in: database).isEmpty)
      #expect(try database.search("apple") == F.noteIDs(2))
      #expect(try database.search("pear").isEmpty)
    }
  }

  @Test func changesMadeOutsideTheFunnelAreRecordedToo() throws {
    try withDatabase { database, model, path throws in
      try model.write(origin: .background("test")) {
        try $0.insert(F.note(2, in: 1, "Alpha", "apple"), into: \.notes)
        try $0.insert(F.note(3, in: 1, "Beta", "banana"), into: \.notes)
      }
      #expect(try database.search("apple") == F.noteIDs(2))
      // Another tool renumbers a note and deletes one; the index must follow both.
      try RawDatabase.execute(
        path,
        """
        UPDATE notes SET id = 7 WHERE id = 2;
        DELETE FROM notes WHERE id = 3;
        """)
      #expect(try database.search("apple") == F.noteIDs(7))
      #expect(try database.search("banana").isEmpty)
      try Self.checkIndexMatchesNotes(database)
    }
  }

  @Test func aSearchSeesCommitsOfAnotherConnection() throws {
    try withDatabase { database, model, path throws in
      try model.write(origin: .background("test")) {
        try $0.insert(F.note(2, in: 1, "Alpha", "apple"), into: \.notes)
      }
      let other = try NotesDatabase(path: path)
      let otherModel = Model(try other.loadState(), storage: other)
      try otherModel.write(origin: .background("test")) {
        try $0.update(NoteID(rawValue: 2), in: \.notes) { $0.body = "apricot" }
        try $0.insert(F.note(3, in: 1, "Beta", "apricot jam"), into: \.notes)
      }
      #expect(Set(try database.search("apricot")) == Set(F.noteIDs(2, 3)))
      #expect(try other.search("apple").isEmpty)
      other.close()
    }
  }

  @Test func closingUpdatesTheIndex() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let database = try NotesDatabase(path: path)
    let model = Model(try database.loadState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      for id in 2...200 {
        try transaction.insert(F.note(Int64(id), in: 1, "Note \(id)", "body \(id)"), into: \.notes)
      }
    }
    #expect(try RawDatabase.recordedChangeCount(path) == 199)
    database.close()
    #expect(try RawDatabase.recordedChangeCount(path) == 0)
    try RawDatabase.checkIndexMatchesNotes(path)
  }

  @Test func aRecordLeftByAnEndedProcessIsAppliedByTheNextSearch() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    try NotesDatabase(path: path).close()
    // Commits by a writer that never searched nor closed (as if it was killed).
    try RawDatabase.execute(
      path,
      """
      INSERT INTO notebooks(id, title, created) VALUES (1, 'Home', 0);
      INSERT INTO notes(id, notebook_id, title, body, created, modified, pinned)
        VALUES (2, 1, 'Alpha', 'apple', 0, 0, 0);
      INSERT INTO notes(id, notebook_id, title, body, created, modified, pinned)
        VALUES (3, 1, 'Beta', 'banana', 0, 0, 0);
      """)
    #expect(try RawDatabase.recordedChangeCount(path) == 2)
    let database = try NotesDatabase(path: path)
    #expect(try database.search("banana") == F.noteIDs(3))
    #expect(try RawDatabase.recordedChangeCount(path) == 0)
    database.close()
    try RawDatabase.checkIndexMatchesNotes(path)
  }

  /// Random changes, index updates and searches never leave the index wrong or corrupt.
  ///
  /// Random inserts, edits, pins, deletes and re-inserts of a few ids, in commits of one or
  /// more changes, with index updates and searches at random moments. At every step the
  /// index must hold exactly what the record says (recorded text for recorded notes, the
  /// current text for the others), FTS5's own check must pass, every search must find
  /// exactly the notes whose current text matches, and after each update the index must
  /// equal the notes.
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func randomChangesNeverCorruptTheIndex(seed: UInt64) throws {
    try withDatabase { database, model, _ throws in
      var random = SeededRandom(seed: seed)
      let ids: [Int64] = Array(10...21)
      for step in 0..<400 {
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 8 {
          try database.updateFullTextIndex()
          #expect(try Self.recorded(in: database).isEmpty, "seed \(seed) step \(step)")
          try Self.checkIndexMatchesNotes(database)
        } else if roll < 20 {
          let query = Self.randomQuery(using: &random)
          let expected = Self.expectedMatches(query, in: model.state)
          let found = Set(try database.search(query, limit: 100).map(\.rawValue))
          #expect(found == expected, "seed \(seed) step \(step): \(query)")
          try Self.checkIndexMatchesNotes(database)
        } else {
          let changes = roll < 85 ? 1 : Int.random(in: 2...4, using: &random)
          try model.write(origin: .background("test")) { transaction in
            for _ in 0..<changes {
              let id = NoteID(rawValue: ids.randomElement(using: &random)!)
              try Self.randomChange(of: id, in: &transaction, using: &random)
            }
          }
        }
        try Self.checkIndexAgreesWithRecord(database, model.state, seed: seed, step: step)
      }
    }
  }

  // MARK: Helpers

  /// One row of the record of changes.
  struct Recorded: Equatable {
    var id: Int64
    var title: String?
    var body: String?
  }

  static let vocabulary = [
    "apple", "apricot", "banana", "band", "cherry", "chess", "delta", "dune", "echo", "eel",
    "fig", "figure", "café", "naïve",
  ]

  static func randomText(using random: inout SeededRandom) -> String {
    (0..<Int.random(in: 0...5, using: &random)).map { _ in
      vocabulary.randomElement(using: &random)!
    }.joined(separator: " ")
  }

  static func randomQuery(using random: inout SeededRandom) -> String {
    (0..<Int.random(in: 1...2, using: &random)).map { _ in
      let word = vocabulary.randomElement(using: &random)!
      return Bool.random(using: &random)
        ? word : String(word.prefix(Int.random(in: 1...3, using: &random)))
    }.joined(separator: " ")
  }

  static func randomChange(
    of id: NoteID, in transaction: inout Transaction<NotesState>,
    using random: inout SeededRandom
  ) throws {
    guard transaction.state.notes.contains(id) else {
      try transaction.insert(
        F.note(
          id.rawValue, in: 1, randomText(using: &random), randomText(using: &random),
          pinned: Bool.random(using: &random)), into: \.notes)
      return
    }
    let kind = Int.random(in: 0..<10, using: &random)
    if kind < 2 {
      try transaction.remove(id, from: \.notes)
      return
    }
    let title = randomText(using: &random)
    let body = randomText(using: &random)
    try transaction.update(id, in: \.notes) { note in
      switch kind {
      case 2, 3: note.title = title
      case 4, 5, 6: note.body = body
      case 7:
        note.title = title
        note.body = body
      default: note.isPinned.toggle()
      }
    }
  }

  /// The tokens FTS5's `unicode61 remove_diacritics 2` tokenizer makes of the vocabulary.
  static func tokens(_ text: String) -> [String] {
    text.split(separator: " ").map {
      $0.lowercased().replacing("é", with: "e").replacing("ï", with: "i")
    }
  }

  /// The ids of notes in which every query word starts a token of the title or body.
  static func expectedMatches(_ query: String, in state: NotesState) -> Set<Int64> {
    let words = tokens(query)
    return Set(
      state.notes.elements.filter { note in
        let noteTokens = tokens(note.title) + tokens(note.body)
        return words.allSatisfy { word in noteTokens.contains { $0.hasPrefix(word) } }
      }.map(\.id.rawValue))
  }

  /// The record of changes, by note id.
  static func recorded(in database: NotesDatabase) throws -> [Recorded] {
    try database.connection.withStatement(
      "SELECT note_id, old_title, old_body FROM notes_fts_pending ORDER BY note_id"
    ) { statement throws(NotesStorageError) in
      var rows: [Recorded] = []
      while try statement.step() {
        rows.append(
          Recorded(
            id: statement.int64(at: 0),
            title: statement.isNull(at: 1) ? nil : statement.string(at: 1),
            body: statement.isNull(at: 2) ? nil : statement.string(at: 2)))
      }
      return rows
    }
  }

  /// The ids the index itself returns for `word` as a prefix, without updating it.
  static func indexMatches(_ word: String, in database: NotesDatabase) throws -> Set<Int64> {
    try database.connection.withStatement(
      "SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?1"
    ) { statement throws(NotesStorageError) in
      try statement.bind("\"\(word)\"*", at: 1)
      var ids: Set<Int64> = []
      while try statement.step() { ids.insert(statement.int64(at: 0)) }
      return ids
    }
  }

  /// Checks that the index holds what the record says, word by word, and passes FTS5's
  /// own structural check.
  static func checkIndexAgreesWithRecord(
    _ database: NotesDatabase, _ state: NotesState, seed: UInt64, step: Int
  ) throws {
    try database.connection.run("INSERT INTO notes_fts(notes_fts) VALUES ('integrity-check')")
    let record = Dictionary(uniqueKeysWithValues: try recorded(in: database).map { ($0.id, $0) })
    var indexed: [Int64: [String]] = [:]
    for note in state.notes.elements where record[note.id.rawValue] == nil {
      indexed[note.id.rawValue] = tokens(note.title) + tokens(note.body)
    }
    for row in record.values {
      if let title = row.title, let body = row.body {
        indexed[row.id] = tokens(title) + tokens(body)
      }
    }
    for word in Set(vocabulary.map { tokens($0)[0] }) {
      let expected = Set(indexed.filter { $0.value.contains { $0.hasPrefix(word) } }.keys)
      #expect(
        try indexMatches(word, in: database) == expected, "seed \(seed) step \(step): \(word)")
    }
  }

  /// Checks that the (updated) index holds exactly every note's current text.
  static func checkIndexMatchesNotes(_ database: NotesDatabase) throws {
    try database.connection.run(
      "INSERT INTO notes_fts(notes_fts, rank) VALUES ('integrity-check', 1)")
  }
}
