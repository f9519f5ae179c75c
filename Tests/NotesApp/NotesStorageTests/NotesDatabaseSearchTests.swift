import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

@Suite(.noLiveBindings)
@MainActor
struct NotesDatabaseSearchTests {
  typealias F = Fixtures

  /// Runs `body` with a database holding a few notes, then checks and removes it.
  private func withLibrary(
    fullTextSearch: Bool = true,
    schemaVersion: Int32 = NotesDatabase.supportedSchemaVersion,
    _ body: (NotesDatabase, Model<NotesState>) throws -> Void
  ) throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let database = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: fullTextSearch,
      schemaVersion: schemaVersion)
    let model = Model(NotesState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk, eggs and bread"), into: \.notes)
      try transaction.insert(F.note(3, in: 1, "Garden", "buy milk for the cat"), into: \.notes)
      try transaction.insert(F.note(4, in: 1, "Café naïve", "日本語 のノート"), into: \.notes)
      try transaction.insert(
        F.note(5, in: 1, "Quotes", "she said \"hi\"; it's 50% off -- OR not"), into: \.notes)
    }
    try body(database, model)
    database.close()
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func findsWordsInTitlesAndBodies() throws {
    try withLibrary { database, _ throws in
      #expect(try database.search("groceries") == F.noteIDs(2))
      #expect(try database.search("BREAD") == F.noteIDs(2))
      #expect(try database.search("gard") == F.noteIDs(3))
      #expect(Set(try database.search("milk")) == Set(F.noteIDs(2, 3)))
      #expect(try database.search("milk cat") == F.noteIDs(3))
      #expect(try database.search("cafe") == F.noteIDs(4))
      #expect(try database.search("日本語") == F.noteIDs(4))
      #expect(try database.search("zebra").isEmpty)
      #expect(try database.search("   ").isEmpty)
      #expect(try database.search("milk", limit: 1).count == 1)
      #expect(try database.search("milk", limit: 0).isEmpty)
    }
  }

  @Test func ranksTitleMatchesFirst() throws {
    try withLibrary { database, model throws in
      try model.write(origin: .background("test")) {
        try $0.insert(F.note(6, in: 1, "Milk", "dairy"), into: \.notes)
      }
      #expect(try database.search("milk").first == NoteID(rawValue: 6))
    }
  }

  /// With the index updated inside each commit (version 2) and before each search (4).
  @Test(arguments: [Migration.addFullTextIndex.rawValue, Migration.latestVersion])
  func followsEveryCommit(schemaVersion: Int32) throws {
    try withLibrary(schemaVersion: schemaVersion) { database, model throws in
      try model.write(origin: .background("test")) {
        try $0.update(NoteID(rawValue: 2), in: \.notes) { $0.title = "Shopping" }
      }
      #expect(try database.search("groceries").isEmpty)
      #expect(try database.search("shopping") == F.noteIDs(2))
      try model.write(origin: .background("test")) {
        try $0.remove(NoteID(rawValue: 3), from: \.notes)
      }
      #expect(try database.search("milk") == F.noteIDs(2))
      try model.write(origin: .background("test")) {
        try $0.update(NoteID(rawValue: 2), in: \.notes) { $0.isPinned = true }
      }
      #expect(try database.search("shopping") == F.noteIDs(2))
    }
  }

  nonisolated static let specialInputs = [
    "'", "\"", "\"\"", ";", "%", "_", "*", "-- ", "OR", "AND", "NOT", "NEAR(milk)", "milk OR",
    "'; DROP TABLE notes; --", "\"milk", "milk\"", "mi*lk", "(", ")", "^milk", "title:milk",
    "{title}: milk", "\\", "💥", "🎉 milk", "ß", "\u{0}", "日本", "-milk", "+milk", "col:",
  ]

  @Test(arguments: specialInputs)
  func specialInputNeverErrors(query: String) throws {
    for fullTextSearch in [true, false] {
      try withLibrary(fullTextSearch: fullTextSearch) { database, _ throws in
        _ = try database.search(query)
        #expect(try database.loadState().notes.count == 4)
      }
    }
  }

  @Test func specialCharactersAreSearchedAsText() throws {
    try withLibrary { database, _ throws in
      #expect(try database.search("\"hi\";") == F.noteIDs(5))
      #expect(try database.search("50%") == F.noteIDs(5))
      #expect(try database.search("it's") == F.noteIDs(5))
      #expect(try database.search("OR") == F.noteIDs(5))
      #expect(try database.search("'; DROP TABLE notes; --").isEmpty)
    }
    try withLibrary(fullTextSearch: false) { database, _ throws in
      #expect(try database.search("\"hi\";") == F.noteIDs(5))
      #expect(try database.search("50%") == F.noteIDs(5))
      #expect(try database.search("-- OR not") == F.noteIDs(5))
    }
  }

  /// Regression: a NUL separates words, since inside a word it would end the FTS5
  /// expression inside its quotes and fail the search with "unterminated string".
  @Test func aNULSeparatesWords() throws {
    #expect(NotesDatabase.queryWords(in: "milk\0bread") == ["milk", "bread"])
    try withLibrary { database, _ throws in
      #expect(try database.search("it'\0\"s\"") == F.noteIDs(5))
      #expect(try database.search("milk\0bread") == F.noteIDs(2))
    }
    try withLibrary(fullTextSearch: false) { database, _ throws in
      #expect(try database.search("milk\0bread") == F.noteIDs(2))
    }
  }

  @Test func aQuoteWithACombiningMarkIsStillEscaped() throws {
    // Found by the fuzz target: `"` + U+06D6 is one Character, but FTS5 sees the quote.
    let query = "N\"\u{06D6}\u{FFFD}\u{FFFD}\""
    #expect(
      NotesDatabase.fullTextExpression(NotesDatabase.queryWords(in: query)).unicodeScalars.filter {
        $0 == "\""
      }
      .count.isMultiple(of: 2))
    #expect(NotesDatabase.likePattern("50%\u{0301}") == "%50\\%\u{0301}%")
    try withLibrary { database, model throws in
      try model.write(origin: .background("test")) { transaction in
        try transaction.update(NoteID(rawValue: 2), in: \.notes) { $0.body = query }
      }
      #expect(try database.search(query).contains(NoteID(rawValue: 2)))
    }
  }

  /// Regression: a word in which the index's tokenizer finds no token is ignored.
  ///
  /// U+0820, a Samaritan vowel sign, is alphabetic to Swift but no token to FTS5, so a
  /// query of it alone would be an empty phrase that finds nothing, not even the note whose
  /// body it is. Which words full text searches is the index's tokenizer's answer.
  @Test func aWordTheTokenizerFindsNoTokenInIsIgnoredByFullText() throws {
    try withLibrary { database, model throws in
      #expect(try database.searchedWords(in: "\u{0820} milk ; --") == ["milk"])
      try model.write(origin: .background("test")) { transaction in
        try transaction.update(NoteID(rawValue: 2), in: \.notes) { $0.body = "\u{0820}" }
      }
      #expect(try database.search("\u{0820}").isEmpty)
      #expect(try database.search("\u{0820} groceries") == F.noteIDs(2))
    }
    try withLibrary(fullTextSearch: false) { database, model throws in
      #expect(try database.searchedWords(in: "\u{0820} milk ; --") == ["\u{0820}", "milk"])
      try model.write(origin: .background("test")) { transaction in
        try transaction.update(NoteID(rawValue: 2), in: \.notes) { $0.body = "\u{0820}" }
      }
      #expect(try database.search("\u{0820}") == F.noteIDs(2))
    }
  }

  @Test func queriesAreQuotedForFTS5() throws {
    let words = NotesDatabase.queryWords(in: "  say \"hi\" ; -- x* ")
    #expect(words == ["say", "\"hi\"", ";", "--", "x*"])
    try withLibrary { database, _ throws in
      #expect(try database.searchedWords(in: "  say \"hi\" ; -- x* ") == ["say", "\"hi\"", "x*"])
    }
    #expect(
      NotesDatabase.fullTextExpression(["say", "\"hi\"", "x*"]) == #""say"* """hi"""* "x*"*"#)
    #expect(NotesDatabase.likePattern("50%_\\") == #"%50\%\_\\%"#)
  }
}
