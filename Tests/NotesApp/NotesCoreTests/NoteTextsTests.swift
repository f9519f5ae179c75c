import Airframe
import AirframeTesting
import Foundation
import Testing

@_spi(Instrumentation) @testable import NotesCore

/// Where the note list keeps its rows' texts: chunks shared by rows, each slot written once
/// with its search signature, and sparse chunks emptied so old texts can go.
@Suite(.noLiveBindings)
@MainActor
struct NoteTextsTests {
  /// Pieces of ASCII text: letters in both cases, digits, and bytes next to letters in the
  /// code table (which a careless case fold would take for letters).
  static let pieces = [
    "a", "B", "c", "z", "Z", "q", "0", "9", " ", "-", "@", "[", "`", "{", "ab", "BA", "z9", "\n",
  ]

  static func randomText(_ length: ClosedRange<Int>, using random: inout SeededGenerator)
    -> String
  {
    (0..<Int.random(in: length, using: &random)).map { _ in
      pieces.randomElement(using: &random)!
    }.joined()
  }

  /// Whether `text` contains `word`, ignoring ASCII case (what the byte search answers).
  static func contains(_ text: String, _ word: String) -> Bool {
    text.lowercased().contains(word.lowercased())
  }

  @Test func aSignatureAnswersOneAndTwoLetterWordsExactlyAndNeverHidesALongerOne() {
    var random = SeededGenerator(seed: 41)
    let notes = (1...400).map { index in
      Note(
        id: NoteID(rawValue: Int64(index)), notebookID: work,
        title: Self.randomText(0...6, using: &random),
        body: Self.randomText(0...30, using: &random),
        created: t0)
    }
    let chunk = NoteTextChunk(capacity: 64)
    var rows: [(Note, NoteRow)] = []
    for note in notes {
      if chunk.isFull { break }
      rows.append((note, NoteRow(note, chunk: chunk, slot: chunk.append(note))))
    }
    rows += notes.suffix(100).map { ($0, NoteRow($0)) }
    let alphabet = Array("aBcz09q-@[").map(String.init)
    var words = alphabet
    for first in alphabet { for second in alphabet { words.append(first + second) } }
    for _ in 0..<200 { words.append(Self.randomText(3...6, using: &random)) }
    for word in words {
      let requirement = GramSignature.Requirement(word: Array(word.utf8))
      for (note, row) in rows {
        let contained = Self.contains(note.title, word) || Self.contains(note.body, word)
        if contained {
          #expect(row.has(requirement), "\(word.debugDescription) in note \(note.id)")
        } else if requirement.isExact {
          #expect(!row.has(requirement), "\(word.debugDescription) not in note \(note.id)")
        }
      }
      let lettersAndDigits = word.utf8.allSatisfy { GramSignature.gramClass($0) != nil }
      #expect(requirement.isExact == (lettersAndDigits && word.utf8.count <= 2))
    }
  }

  @Test func aRowKeepsItsTextsWhileItsNoteIsEditedAndItsChunkIsEmptied() throws {
    var state = sampleState()
    state.notes = EntityTable(
      (1...10).map {
        Note(
          id: NoteID(rawValue: Int64(100 + $0)), notebookID: work, title: "Note \($0)", created: t0)
      })
    let model = Model(state)
    let list = NoteListController(model: model)
    let edited = NoteID(rawValue: 101)
    let neighbour = try #require(list.lens.row(for: NoteID(rawValue: 102)))
    let firstRow = try #require(list.lens.row(for: edited))
    weak let firstChunk = firstRow.chunk
    for step in 1...300 {
      try model.write(origin: .background("test")) {
        try $0.update(edited, in: \.notes) { $0.title = "Edit \(step)" }
      }
    }
    // The rows taken before the edits still read what they were made with.
    #expect(firstRow.title == "Note 1" && neighbour.title == "Note 2")
    // The first chunk's other rows were moved once it was a quarter current, so nothing
    // but the rows held here keeps it.
    let neighbourNow = try #require(list.lens.row(for: NoteID(rawValue: 102)))
    #expect(neighbourNow.chunk !== firstRow.chunk)
    #expect(neighbourNow == neighbour)
    #expect(list.lens.row(for: edited)?.title == "Edit 300")
    // Every listed row is in one of a few chunks, not one per edit.
    let chunks = Set(list.lens.rows.map { ObjectIdentifier($0.chunk) })
    #expect(chunks.count <= 2)
    #expect(list.lens.rows.map(\.title) == list.lens.rows.map { model.state.notes[$0.id]!.title })
    _ = consume firstRow
    _ = consume neighbour
    #expect(firstChunk == nil)
    list.cancel()
  }

  /// Deleting most notes leaves chunks a quarter current: their last rows move and the
  /// chunks go.
  ///
  /// Which notes share a chunk follows the table's order, which changes from run to run
  /// (hashing is seeded per process), so the chunks checked are worked out from the rows:
  /// every chunk full at the start that keeps at most a quarter of its notes must go.
  @Test func deletedNotesAreForgottenAndTheirChunksGo() throws {
    let (model, list) = Self.listOf200Notes()
    let kept = Set((181...200).map { NoteID(rawValue: Int64(100 + $0)) })
    let sparse = Self.fullChunks(of: list, keeping: kept).filter {
      $0.kept * 4 <= NoteTextChunk.listCapacity
    }
    #expect(sparse.count >= 2)
    for index in 1...180 {
      try model.write(origin: .background("test")) {
        try $0.remove(NoteID(rawValue: Int64(100 + index)), from: \.notes)
      }
    }
    #expect(list.lens.count == 20)
    for entry in sparse {
      #expect(entry.chunk.value == nil, "a chunk keeping \(entry.kept) of its notes")
    }
    #expect(Set(list.lens.rows.map(\.title)) == Set((181...200).map { "N\($0)" }))
    list.cancel()
  }

  /// A chunk whose last current rows were moved goes with the commit that moved them, not
  /// at the next one.
  @Test func aChunkWhoseRowsMovedGoesAtOnce() throws {
    let (model, list) = Self.listOf200Notes()
    let (chunk, notes) = try #require(Self.notesOfAFullChunk(of: list))
    // Three quarters of its notes deleted, the last deletion leaves it a quarter current:
    // that commit moves the other quarter.
    let deleted = notes.prefix(notes.count * 3 / 4)
    for id in deleted {
      try model.write(origin: .background("test")) { try $0.remove(id, from: \.notes) }
    }
    #expect(chunk.value == nil)
    #expect(list.lens.count == 200 - deleted.count)
    list.cancel()
  }

  /// A full chunk holding listed rows, weakly, with the ids of its rows' notes.
  static func notesOfAFullChunk(of list: NoteListController)
    -> (chunk: Weak<NoteTextChunk>, notes: [NoteID])?
  {
    guard let first = list.lens.rows.first(where: { $0.chunk.isFull }) else { return nil }
    let notes = list.lens.rows.filter { $0.chunk === first.chunk }.map(\.id)
    return (Weak(first.chunk), notes)
  }

  /// A list of notes 101–300 ("N1"–"N200") whose loaded rows' grams are written (the thread
  /// writing them has let them go).
  static func listOf200Notes() -> (Model<NotesState>, NoteListController) {
    var state = sampleState()
    state.notes = EntityTable(
      (1...200).map {
        Note(id: NoteID(rawValue: Int64(100 + $0)), notebookID: work, title: "N\($0)", created: t0)
      })
    let model = Model(state)
    let list = NoteListController(model: model)
    list.waitUntilSearchable()
    return (model, list)
  }

  /// Each full chunk holding listed rows, weakly, with how many of its rows' notes are in
  /// `kept`.
  ///
  /// A function of its own, so no row it reads outlives it (a debug build keeps a loop's
  /// last element until the end of the enclosing function).
  static func fullChunks(of list: NoteListController, keeping kept: Set<NoteID>)
    -> [(chunk: Weak<NoteTextChunk>, kept: Int)]
  {
    var full: [ObjectIdentifier: (chunk: Weak<NoteTextChunk>, kept: Int)] = [:]
    for row in list.lens.rows where row.chunk.isFull {
      full[ObjectIdentifier(row.chunk), default: (Weak(row.chunk), 0)].kept +=
        kept.contains(row.id) ? 1 : 0
    }
    return Array(full.values)
  }

  /// A reference that does not keep its object.
  struct Weak<Object: AnyObject> {
    weak var value: Object?
    init(_ value: Object) { self.value = value }
  }

  /// The signatures of the notes a list starts with are written on another thread; a search
  /// made at once waits for them and finds what the byte search finds.
  @Test func aSearchRightAfterLoadingFindsEveryMatch() {
    var random = SeededGenerator(seed: 42)
    var state = sampleState()
    state.notes = EntityTable(
      (1...3_000).map { index in
        Note(
          id: NoteID(rawValue: Int64(100 + index)), notebookID: work,
          title: Self.randomText(0...4, using: &random),
          body: Self.randomText(0...20, using: &random),
          created: t0)
      })
    for word in ["a", "z9", "BA", "q0", "9", "abz"] {
      let list = NoteListController(model: Model(state))
      list.search = word
      let wanted = state.notes.elements.filter {
        Self.contains($0.title, word) || Self.contains($0.body, word)
      }
      #expect(Set(list.lens.rows.map(\.id)) == Set(wanted.map(\.id)), "\(word)")
      list.cancel()
    }
  }
}
