import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

/// The note list's search finds exactly what Foundation's case- and diacritic-insensitive
/// search finds, word by word, whatever the text (its fast path covers ASCII only).
@Suite(.noLiveBindings)
@MainActor
struct SearchMatchingTests {
  /// Pieces the random texts and words are made of: ASCII in both cases, accents both
  /// precomposed and combining, and letters that fold specially.
  static let pieces = [
    "a", "B", "c", "e", "E", "é", "e\u{301}", "É", "ss", "ß", "i", "İ", "K", "\u{212A}", " ",
    "-", "\"", "ab", "cafe", "CAFÉ", "Straße", "1", "ﬁ",
  ]

  /// A random text of `count` pieces.
  static func text(_ count: ClosedRange<Int>, using random: inout SeededGenerator) -> String {
    (0..<Int.random(in: count, using: &random)).map { _ in
      pieces.randomElement(using: &random)!
    }.joined()
  }

  /// `count` notes whose titles and bodies are random runs of `pieces`.
  static func randomNotes(
    _ count: Int, of pieces: [String], title: ClosedRange<Int>, body: ClosedRange<Int>,
    seed: UInt64
  ) -> [Note] {
    var random = SeededGenerator(seed: seed)
    func text(_ length: ClosedRange<Int>) -> String {
      (0..<Int.random(in: length, using: &random)).map { _ in
        pieces.randomElement(using: &random)!
      }.joined()
    }
    return (1...count).map { index in
      Note(
        id: NoteID(rawValue: Int64(10 + index)), notebookID: work, title: text(title),
        body: text(body), created: t0)
    }
  }

  /// A note list over the sample notebooks and `notes`.
  static func list(of notes: [Note]) -> NoteListController {
    var state = sampleState()
    state.notes = EntityTable(notes)
    return NoteListController(model: Model(state))
  }

  func expected(_ words: [String], in note: Note) -> Bool {
    words.allSatisfy { word in
      [note.title, note.body].contains {
        $0.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) != nil
      }
    }
  }

  /// Non-ASCII words looked for in all-ASCII notes (the fast path folds the word once):
  /// exactly Foundation's answer, for words that fold to ASCII ("straß", "ﬁ", "É"), to
  /// something else ("三体", "ж"), or to nothing.
  @Test func nonASCIIWordsInASCIITextsAreFoundAsFoundationFindsThem() {
    let pieces = [
      "a", "B", "ss", "SS", "e", "E", "i", "I", "k", "K", "fi", "f", "ae", "oe", "o", "n", " ",
      "st", "s", "t", "dz", "DZ", "cafe", "Strasse",
    ]
    let notes = Self.randomNotes(300, of: pieces, title: 0...4, body: 0...12, seed: 23)
    let list = Self.list(of: notes)
    let words = [
      "é", "É", "ß", "straß", "Straße", "ﬁ", "ﬀ", "İ", "\u{212A}", "e\u{301}", "café", "CAFÉ",
      "ẞ", "æ", "œ", "ǆ", "ǅ", "ñ", "Å", "三体", "ж", "ς", "—", "½", "\u{301}",
    ]
    for word in words {
      list.search = word
      let found = Set(list.lens.rows.map(\.id))
      let wanted = Set(
        notes.filter { expected([word], in: $0) }.map(\.id))
      #expect(found == wanted, "search \(word.debugDescription)")
    }
    list.cancel()
  }

  @Test func theListMatchesFoundationsSearchOnRandomTexts() {
    var random = SeededGenerator(seed: 14)
    func text(_ count: ClosedRange<Int>) -> String { Self.text(count, using: &random) }
    let notes = (1...300).map { index in
      Note(
        id: NoteID(rawValue: Int64(10 + index)), notebookID: work, title: text(0...4),
        body: text(0...12), created: t0)
    }
    var state = sampleState()
    state.notes = EntityTable(notes)
    let list = NoteListController(model: Model(state))
    for _ in 0..<300 {
      let search = text(1...3)
      let words = NoteListController.searchWords(in: search)
      guard !words.isEmpty else { continue }
      list.search = search
      let found = Set(list.lens.rows.map(\.id))
      let wanted = Set(notes.filter { expected(words, in: $0) }.map(\.id))
      #expect(found == wanted, "search \(search.debugDescription)")
    }
    list.cancel()
  }

  /// Every key typed lists what a rebuild lists.
  ///
  /// A search typed further does not always narrow the list: Foundation matches "kss" in
  /// "Kß" but not "ks". So a key typed checks the listed rows and every row with
  /// non-ASCII text; this test fails if it checked only the listed rows.
  @Test func typingASearchLetterByLetterListsWhatARebuildLists() {
    var random = SeededGenerator(seed: 15)
    func text(_ count: ClosedRange<Int>) -> String { Self.text(count, using: &random) }
    var state = sampleState()
    var notes: [Note] = []
    for index in 1...300 {
      let notebook = index % 2 == 0 ? work : home
      let modified = t0.addingTimeInterval(Double(index % 7))
      notes.append(
        Note(
          id: NoteID(rawValue: Int64(10 + index)), notebookID: notebook, title: text(0...4),
          body: text(0...12), created: t0, modified: modified, isPinned: index % 5 == 0))
    }
    state.notes = EntityTable(notes)
    let model = Model(state)
    let list = NoteListController(model: model)
    for round in 0..<40 {
      list.notebook = round % 3 == 0 ? nil : work
      list.sort = round % 2 == 0 ? .modified : .title
      var search = ""
      for character in text(2...5) + " " + text(1...3) {
        search.append(character)
        list.search = search
        let expected = NoteListController.recomputedRows(
          for: model.state, notebook: list.notebook, search: search, sort: list.sort)
        // The same notes. Their order is not compared: on these texts the lens and
        // `recomputedRows` order some titles differently.
        #expect(
          Set(list.lens.rows.map(\.id)) == Set(expected.map(\.id)),
          "search \(search.debugDescription)")
      }
      list.search = ""
    }
    list.cancel()
  }

  /// Keys typed and deleted, with commits between some of them: after every key the list
  /// is what a rebuild lists, although keys typed check only listed (and non-ASCII) rows,
  /// backspaces show rows kept from earlier, and commits must end that reuse.
  @Test func typingDeletingAndCommittingBetweenKeysListsWhatARebuildLists() throws {
    var random = SeededGenerator(seed: 16)
    func text(_ count: ClosedRange<Int>) -> String { Self.text(count, using: &random) }
    var state = sampleState()
    var notes: [Note] = []
    for index in 1...300 {
      notes.append(
        Note(
          id: NoteID(rawValue: Int64(10 + index)), notebookID: index % 2 == 0 ? work : home,
          title: text(0...4), body: text(0...12), created: t0,
          modified: t0.addingTimeInterval(Double(index % 7))))
    }
    state.notes = EntityTable(notes)
    let model = Model(state)
    let list = NoteListController(model: model)
    var search = ""
    for step in 0..<2_000 {
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<5: search += text(1...1)
      case 5..<8: if !search.isEmpty { search.removeLast() }
      case 8:
        let id = notes.randomElement(using: &random)!.id
        let body = text(0...12)
        try model.write(origin: .background("test")) {
          try $0.update(id, in: \.notes) { $0.body = body }
        }
      default:
        list.notebook = [nil, work, home].randomElement(using: &random)!
      }
      list.search = search
      let expected = NoteListController.recomputedRows(
        for: model.state, notebook: list.notebook, search: search, sort: list.sort)
      #expect(
        Set(list.lens.rows.map(\.id)) == Set(expected.map(\.id)),
        "step \(step), search \(search.debugDescription)")
      #expect(list.lens.count == expected.count)
    }
    list.cancel()
  }

  /// Long texts, searched eight bytes at a time, give what Foundation finds.
  ///
  /// Mostly ASCII: bytes that fold onto a letter (`@` and `` ` ``, `[` and `{`), words at
  /// every offset and at the very end, and some non-ASCII text.
  @Test func longTextsAreSearchedAsFoundationSearchesThem() {
    let pieces = ["a", "B", "ab", "AB", "@", "`", "[", "{", "z", " ", "Zz", "é", "ß", "b@", "ba"]
    let notes = Self.randomNotes(200, of: pieces, title: 0...9, body: 0...80, seed: 17)
    let list = Self.list(of: notes)
    // Words from one byte to past eight (the byte search tests the first and the last byte
    // of a word eight positions at a time).
    let searches = [
      "a", "ab", "aba", "b", "ba", "zz", "bab", "aaa", "zab", "abz", "za", "baz", "abab",
      "babab", "abababa", "babababa", "aBaBaBaBa", "zzzzzzzzz",
    ]
    for search in searches {
      list.search = search
      let found = Set(list.lens.rows.map(\.id))
      let wanted = Set(notes.filter { expected([search], in: $0) }.map(\.id))
      #expect(found == wanted, "search \(search.debugDescription)")
    }
    list.cancel()
  }
}
