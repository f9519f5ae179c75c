import Airframe
import AirframeTesting
import Foundation
import NotesCore
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

  func expected(_ words: [String], in note: Note) -> Bool {
    words.allSatisfy { word in
      [note.title, note.body].contains {
        $0.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) != nil
      }
    }
  }

  @Test func theListMatchesFoundationsSearchOnRandomTexts() {
    var random = SeededGenerator(seed: 14)
    func text(_ count: ClosedRange<Int>) -> String {
      (0..<Int.random(in: count, using: &random)).map { _ in
        Self.pieces.randomElement(using: &random)!
      }.joined()
    }
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
}
