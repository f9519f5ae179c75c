import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

/// The title order compares titles by their first eight bytes first; it must still be
/// exactly the order of the lowercased, composed titles' UTF-8 bytes.
@Suite(.noLiveBindings)
@MainActor
struct NoteListOrderTests {
  func folded(_ title: String) -> [UInt8] {
    Array(title.lowercased().precomposedStringWithCanonicalMapping.utf8)
  }

  @Test func theTitleOrderIsTheByteOrderOfLowercasedComposedTitles() throws {
    var random = SeededGenerator(seed: 18)
    let pieces = [
      "a", "A", "ab", "abcdefgh", "abcdefg", "Z", "0", " ", "é", "e\u{301}", "ß", "\u{212A}",
      "zz", "~", "abcdefghi",
    ]
    let notes = (1...400).map { index in
      let title = (0..<Int.random(in: 1...4, using: &random)).map { _ in
        pieces.randomElement(using: &random)!
      }.joined()
      return Note(
        id: NoteID(rawValue: Int64(10 + index)), notebookID: work, title: title, body: "",
        created: t0, isPinned: index % 9 == 0)
    }
    var state = sampleState()
    state.notes = EntityTable(notes)
    let model = Model(state)
    let list = NoteListController(model: model, sort: .title)
    let expected = model.state.notes.elements.sorted { first, second in
      if first.isPinned != second.isPinned { return first.isPinned }
      let (left, right) = (folded(first.title), folded(second.title))
      return left != right ? left.lexicographicallyPrecedes(right) : first.id < second.id
    }
    #expect(list.lens.rows.map(\.id) == expected.map(\.id))
    // Edits keep it: each moves one row through the same comparisons.
    for note in notes.prefix(40) {
      let title = pieces.randomElement(using: &random)! + note.title
      try model.write(origin: .background("test")) {
        try $0.update(note.id, in: \.notes) { $0.title = title }
      }
    }
    let edited = model.state.notes.elements.sorted { first, second in
      if first.isPinned != second.isPinned { return first.isPinned }
      let (left, right) = (folded(first.title), folded(second.title))
      return left != right ? left.lexicographicallyPrecedes(right) : first.id < second.id
    }
    #expect(list.lens.rows.map(\.id) == edited.map(\.id))
    list.cancel()
  }

  /// The modification order is pinned notes first, then newest first, then by id, also
  /// when thousands of notes share one date (as notes imported together do) and when dates
  /// differ only in their last bit; a toggle there and back keeps it.
  @Test func theModificationOrderIsPinnedNewestThenIdWhateverTheDatesShare() throws {
    var random = SeededGenerator(seed: 19)
    let moment = t0.timeIntervalSinceReferenceDate
    let lastBit = Date(timeIntervalSinceReferenceDate: Double(bitPattern: moment.bitPattern ^ 1))
    let dates = [t0, lastBit, t0.addingTimeInterval(1), t0.addingTimeInterval(-86_400)]
    let notes = (1...3_000).map { index in
      Note(
        id: NoteID(rawValue: Int64(10 + index) * 7 % 100_003), notebookID: work,
        title: "n", body: "", created: t0,
        modified: Int.random(in: 0..<10, using: &random) < 8
          ? t0 : dates.randomElement(using: &random)!,
        isPinned: Int.random(in: 0..<20, using: &random) == 0)
    }
    var state = sampleState()
    state.notes = EntityTable(notes)
    let model = Model(state)
    let list = NoteListController(model: model, sort: .modified)
    let expected = notes.sorted { first, second in
      if first.isPinned != second.isPinned { return first.isPinned }
      if first.modified != second.modified { return first.modified > second.modified }
      return first.id < second.id
    }
    #expect(list.lens.rows.map(\.id) == expected.map(\.id))
    list.sort = .title
    list.sort = .modified
    #expect(list.lens.rows.map(\.id) == expected.map(\.id))
    list.cancel()
  }
}
