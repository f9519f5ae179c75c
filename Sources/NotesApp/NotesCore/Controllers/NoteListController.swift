public import Airframe
public import Foundation

/// One note in the list.
///
/// Its texts live in a chunk shared with other rows (see `NoteTextChunk`), so a row holds
/// one reference to a chunk that many rows share: copying 100,000 rows (which a search key
/// or a sort does) touches a few hundred chunks rather than 100,000 separate boxes.
public struct NoteRow: Identifiable, Equatable, Sendable {
  /// The note.
  public let id: NoteID
  /// Its notebook.
  public let notebookID: NotebookID
  /// When it last changed.
  public let modified: Date
  /// Whether it is pinned.
  public let isPinned: Bool
  /// Whether the title and the body are all ASCII, computed once per row and kept in the
  /// row itself, so finding the rows a narrowing search reconsiders reads no other memory.
  let isASCII: Bool
  /// The slot of `chunk` that holds this row's texts.
  private let slot: UInt32
  /// The chunk that holds the title, the body, the sort key and the gram signature.
  let chunk: NoteTextChunk

  /// Its title.
  public var title: String { chunk.entry(Int(slot)).title }
  /// Its text (shared with the model's copy, not duplicated).
  public var body: String { chunk.entry(Int(slot)).body }
  /// The title folded for sorting (lowercased, in canonical composition), computed once
  /// per row; the title order compares its UTF-8 bytes.
  var sortTitle: TitleOrder { TitleOrder(text: chunk.entry(Int(slot)).sortTitle) }
  /// The first sixteen bytes of `sortTitle`'s UTF-8, most significant first, zero-padded:
  /// the title order's first keys.
  ///
  /// Ordering by these integers first and by `sortTitle` on a tie is exactly ordering by
  /// `sortTitle`'s bytes, with integer comparisons instead of a string comparison for most
  /// pairs. Kept in the row itself, not with the texts, so sorting reads no other memory.
  let sortPrefix: (high: UInt64, low: UInt64)

  /// Whether the row's gram signature has every bit of `grams` (see `GramSignature`).
  func has(_ grams: GramSignature.Requirement) -> Bool { chunk.has(grams, in: Int(slot)) }

  /// The row for `note`, with its texts in a chunk of its own.
  ///
  /// - Parameter note: A note.
  public init(_ note: Note) {
    let chunk = NoteTextChunk(capacity: 1)
    self.init(note, chunk: chunk, slot: chunk.append(note))
  }

  /// The row for `note`, whose texts were just written to `slot` of `chunk`.
  init(_ note: Note, chunk: NoteTextChunk, slot: Int) {
    id = note.id
    notebookID = note.notebookID
    modified = note.modified
    isPinned = note.isPinned
    self.chunk = chunk
    self.slot = UInt32(slot)
    let entry = chunk.entry(slot)
    isASCII = entry.isASCII
    var prefix: (high: UInt64, low: UInt64) = (0, 0)
    for (index, byte) in entry.sortTitle.utf8.prefix(16).enumerated() {
      let shift = UInt64(56 - 8 * (index % 8))
      if index < 8 {
        prefix.high |= UInt64(byte) << shift
      } else {
        prefix.low |= UInt64(byte) << shift
      }
    }
    sortPrefix = prefix
  }

  /// Whether two rows show the same note the same way.
  public static func == (lhs: NoteRow, rhs: NoteRow) -> Bool {
    lhs.id == rhs.id && lhs.notebookID == rhs.notebookID && lhs.modified == rhs.modified
      && lhs.isPinned == rhs.isPinned
      && ((lhs.chunk === rhs.chunk && lhs.slot == rhs.slot)
        || (lhs.title == rhs.title && lhs.body == rhs.body))
  }

  /// A sort title, ordered by its UTF-8 bytes (so by Unicode scalar values): "é" written
  /// with a combining accent or precomposed is one title, since both are composed first.
  ///
  /// Not `String`'s own order, which is not always the order of the composed scalars
  /// (Swift orders "e\u{301}" after "éa") and so could not start with a byte prefix.
  struct TitleOrder: Comparable {
    let text: String

    static func < (lhs: TitleOrder, rhs: TitleOrder) -> Bool {
      lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8)
    }

    static func == (lhs: TitleOrder, rhs: TitleOrder) -> Bool {
      lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }
  }

  /// The first line of the body, at most 80 characters, for a second line in the list.
  public var snippet: String {
    // Looks for the line break in the first 320 bytes only (80 characters take at most
    // that many), so a long body is never walked to its end.
    let head = body.utf8.prefix(320)
    let lineEnd = head.firstIndex(of: UInt8(ascii: "\n")) ?? head.endIndex
    return String(body[..<lineEnd].prefix(80))
  }
}

/// How the note list is sorted after pinned notes.
public enum NoteSort: String, Sendable, CaseIterable {
  /// Most recently modified first.
  case modified
  /// By title, ignoring case.
  case title
}

/// The note list's View State Controller.
///
/// ## Guarantees
///
/// - A lens over `ListLens`: it never writes the model; its view state is the notebook
///   filter, the search text, the sort and the selected note.
/// - Incremental: a commit changes only the rows of the notes it names (O(k log n)); a
///   change of view state (notebook, search text, sort) recomputes the list.
/// - Order: pinned notes first; then most recently modified first (or title, ignoring
///   case); ties by id. Search splits its text into words at every character that is not
///   a letter or digit (so quotes and punctuation never hide the words around them) and
///   matches a note whose title or body contains every word, ignoring case and diacritics;
///   a search text with no letter or digit (such as "%") is searched for as it is.
/// - Search as you type checks few rows: each filter is keyed by its notebook and words, so
///   returning to an earlier search (a backspace) shows the rows the lens kept for it; a
///   search whose ASCII words each contain a word of the search shown (the next key typed)
///   checks only the listed rows, plus every row with non-ASCII text (there, matching that
///   ignores case and diacritics can find "kss" in "Kß" but not "ks", so a longer word can
///   match where a shorter one did not).
/// - Rows hold no reference of their own: their texts sit in chunks of 64 shared by many
///   rows, with each row's search signature (its ASCII letters and digits, alone and in
///   pairs). A search word of one or two letters or digits is answered from the signatures
///   of all-ASCII rows without reading their texts; a longer word reads only the rows whose
///   signature has all its pairs. A row keeps the texts it was made with for as long as it
///   exists; when edits leave a full chunk at most a quarter current, its current rows are
///   projected again into fresh slots, so memory for old texts stays proportional to the
///   notes.
/// - The signatures of the notes the list starts with are written on another core after it
///   is created; the first search waits for them if needed (see ``waitUntilSearchable()``).
@MainActor
@_spi(Instrumentation) public final class NoteListController: ViewStateController {
  /// The lens that keeps the rows; read rows and updates through it.
  public let lens: ListLens<NotesState, Note, NoteRow>

  /// The latest model revision the rows reflect (the lens's).
  public var renderedRevision: Int { lens.renderedRevision }

  /// How the listed rows differ from the rows recomputed from the model with the shown
  /// notebook, search and order, or `nil` when they agree (see ``ViewStateController``).
  ///
  /// - Returns: The first difference.
  public func differenceFromModel() -> String? { lens.differenceFromModel() }

  /// The notebook whose notes are listed; `nil` lists every note.
  public var notebook: NotebookID? {
    didSet { if notebook != oldValue { showFilter() } }
  }

  /// The search text; empty lists every note of the notebook.
  public var search: String = "" {
    didSet { if search != oldValue { showFilter() } }
  }

  /// The notes whose latest row has non-ASCII text, which a narrowing search reconsiders.
  private let nonASCIINotes: NonASCIINotes

  /// The ids of the notes whose latest row has non-ASCII text (and possibly of notes
  /// deleted since), kept as the lens projects rows.
  private final class NonASCIINotes {
    private(set) var ids: Set<NoteID> = []

    func note(_ row: NoteRow) {
      if row.isASCII {
        if !ids.isEmpty { ids.remove(row.id) }
      } else {
        ids.insert(row.id)
      }
    }
  }

  /// What the lens's filter keeps: a notebook (or all) and the search's words.
  private var shownKey = FilterKey(notebook: nil, words: [])

  /// Gives the lens the filter for the current notebook and search, keyed and, when it
  /// narrows the shown one, marked so.
  private func showFilter() {
    let key = FilterKey(notebook: notebook, words: Self.matchedWords(in: search))
    var filter = Self.filter(notebook, search)
    if key.narrows(shownKey) {
      filter =
        shownKey.words.isEmpty
        ? filter.narrowing(shownKey)
        : filter.narrowing(shownKey, reconsidering: Array(nonASCIINotes.ids))
    }
    shownKey = key
    if !key.words.isEmpty { texts.waitForGrams() }
    lens.filter = filter
  }

  /// The order after pinned notes.
  public var sort: NoteSort {
    didSet { if sort != oldValue { lens.order = Self.order(sort) } }
  }

  /// Creates the controller and starts following `model`.
  ///
  /// - Parameters:
  ///   - model: The Notes model.
  ///   - sort: The initial order.
  public init(model: Model<NotesState>, sort: NoteSort = .modified) {
    self.sort = sort
    let nonASCIINotes = NonASCIINotes()
    self.nonASCIINotes = nonASCIINotes
    let texts = NoteTextStore()
    texts.reserveCapacity(model.state.notes.count)
    texts.deferGrams()
    self.texts = texts
    self.model = model
    lens = ListLens(
      model: model, table: \.notes,
      row: { note in
        let (chunk, slot) = texts.append(note)
        let row = NoteRow(note, chunk: chunk, slot: slot)
        nonASCIINotes.note(row)
        return row
      }, order: Self.order(sort), filter: Self.filter(nil, ""))
    texts.writeGramsInBackground()
    // Registered after the lens's, so it runs once the lens has applied each commit.
    textLifetime = model.observeCommits { [weak self] commit in self?.tidyTexts(after: commit) }
  }

  /// The chunks holding the rows' texts.
  private let texts: NoteTextStore
  /// The model, read to know whether the lens is up to date.
  private let model: Model<NotesState>
  /// The commit observation that keeps `texts` tidy.
  private var textLifetime: Lifetime?

  /// Forgets the texts of deleted notes and, once the lens shows the model's latest
  /// revision, gives the notes whose rows sit in sparsely used chunks fresh rows, so the
  /// old texts those chunks hold can go: memory for texts stays proportional to the notes.
  private func tidyTexts(after commit: Commit<NotesState>) {
    for id in commit.changes.changes(in: \.notes).removed { texts.remove(id) }
    guard lens.renderedRevision == model.revision else { return }
    let ids = texts.takeNotesInSparseChunks()
    if !ids.isEmpty { lens.reproject(ids) }
  }

  /// Waits until every note listed so far can be searched at full speed.
  ///
  /// The list writes the search signatures of the notes it starts with on another core
  /// after it is created (at 100,000 notes, about a third of building the list), so the
  /// first screen does not wait for them; the first search does if they are not done yet.
  /// Call it to wait at a moment of your choosing instead.
  public func waitUntilSearchable() { texts.waitForGrams() }

  /// Stops following the model.
  public func cancel() {
    lens.cancel()
    textLifetime?.cancel()
    textLifetime = nil
  }

  // The order's and the filter's closures are formed outside the main actor (the functions
  // are nonisolated), so calling them for each of 100,000 rows makes no isolation check.
  nonisolated static func order(_ sort: NoteSort) -> ListOrder<NoteRow> {
    // Each order starts with an integer key (pinned notes first, then most of the second
    // key) so sorting 100,000 rows compares integers; closures rather than key paths
    // refine ties, because a key path applied per comparison goes through the runtime.
    switch sort {
    case .modified:
      // 1 + 63 bits: the pinned bit, then the date (newest first) but for its last bit;
      // then that bit and the id, so the integer keys decide every pair. Notes imported
      // together share their date: had the date and the id been compared through closures,
      // sorting 100,000 of them would have compared most pairs that way (0.4 s a toggle).
      .by(integerKey: { pinnedBit($0) | newestFirstBits($0) >> 1 })
        .then(integerKey: {
          newestFirstBits($0) << 63 | UInt64(bitPattern: $0.id.rawValue) & ~(1 << 63)
        })
    case .title:
      // 1 + 127 bits: the pinned bit, then the title's first 16 bytes but for the last bit.
      .by(integerKey: { pinnedBit($0) | $0.sortPrefix.high >> 1 })
        .then(integerKey: { $0.sortPrefix.high << 63 | $0.sortPrefix.low >> 1 })
        .then({ $0.sortTitle })
    }
  }

  /// The bits of a row's modification date, in the order newest first.
  private nonisolated static func newestFirstBits(_ row: NoteRow) -> UInt64 {
    ~orderedBits(row.modified.timeIntervalSinceReferenceDate)
  }

  /// The top bit of an order's integer key: clear for pinned notes, so they sort first.
  private nonisolated static func pinnedBit(_ row: NoteRow) -> UInt64 { row.isPinned ? 0 : 1 << 63 }

  /// The bits of `value` as an unsigned integer in the order of the values: a smaller
  /// number gives a smaller integer.
  private nonisolated static func orderedBits(_ value: Double) -> UInt64 {
    let bits = (value == 0 ? 0 : value).bitPattern  // -0 and 0 are one date
    return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
  }

  nonisolated static func filter(_ notebook: NotebookID?, _ search: String)
    -> ListFilter<NoteRow>
  {
    let words = matchedWords(in: search)
    let key = FilterKey(notebook: notebook, words: words)
    let matchers = words.map(WordMatcher.init)
    switch (notebook, matchers.count) {
    case (nil, 0): return .all
    case (let notebook?, 0): return ListFilter(key: key) { $0.notebookID == notebook }
    // One word (every key of a first word) is matched without walking an array of
    // matchers, whose elements' references would be retained for every row.
    case (nil, 1):
      let matcher = matchers[0]
      return ListFilter(key: key) { matcher.matches($0) }
    case (let notebook?, 1):
      let matcher = matchers[0]
      return ListFilter(key: key) { $0.notebookID == notebook && matcher.matches($0) }
    case (nil, _):
      return ListFilter(key: key) { row in Self.all(matchers, match: row) }
    case (let notebook?, _):
      return ListFilter(key: key) { row in
        row.notebookID == notebook && Self.all(matchers, match: row)
      }
    }
  }

  /// Whether every matcher matches `row`, reading the matchers in place.
  private nonisolated static func all(_ matchers: [WordMatcher], match row: NoteRow) -> Bool {
    matchers.withUnsafeBufferPointer { matchers in
      for index in matchers.indices where !matchers[index].matches(row) { return false }
      return true
    }
  }

  /// The words a search looks for: its words, or (for a search with only punctuation or
  /// symbols, such as "%") its trimmed text; none for an empty search.
  nonisolated static func matchedWords(in search: String) -> [String] {
    let words = searchWords(in: search)
    guard words.isEmpty else { return words }
    let trimmed = search.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? [] : [trimmed]
  }

  /// The words of a search text: its runs of letters and digits.
  ///
  /// - Parameter search: The search text.
  /// - Returns: The words, in order.
  public nonisolated static func searchWords(in search: String) -> [String] {
    search.split { !$0.isLetter && !$0.isNumber }.map(String.init)
  }

  /// The rows computed from scratch for a state and view state, for tests.
  ///
  /// - Parameters:
  ///   - state: A state.
  ///   - notebook: The notebook filter.
  ///   - search: The search text.
  ///   - sort: The order.
  /// - Returns: The rows in list order.
  public static func recomputedRows(
    for state: NotesState, notebook: NotebookID?, search: String, sort: NoteSort
  ) -> [NoteRow] {
    let order = order(sort)
    let filter = filter(notebook, search)
    return state.notes.elements.map(NoteRow.init).filter(filter.includes).sorted {
      order.areInIncreasingOrder($0, $1) || (!order.areInIncreasingOrder($1, $0) && $0.id < $1.id)
    }
  }
}

/// What a note-list filter keeps: the notebook (or every note) and the searched words.
struct FilterKey: Hashable {
  let notebook: NotebookID?
  let words: [String]

  /// Whether every note this key keeps is kept by `other`, except notes with non-ASCII
  /// text: same notebook, ASCII words only, and each of `other`'s words inside one of
  /// these words (ignoring ASCII case), as the next key typed into a search makes.
  func narrows(_ other: FilterKey) -> Bool {
    guard notebook == other.notebook, !words.isEmpty, self != other else { return false }
    guard words.allSatisfy(Self.isASCII), other.words.allSatisfy(Self.isASCII) else {
      return false
    }
    let mine = words.map { $0.lowercased() }
    return other.words.allSatisfy { word in
      let word = word.lowercased()
      return mine.contains { $0.contains(word) }
    }
  }

  private static func isASCII(_ word: String) -> Bool { word.utf8.allSatisfy { $0 < 0x80 } }
}
