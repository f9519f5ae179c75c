public import Airframe
public import Foundation

/// One note in the list.
///
/// Its texts live in one shared, immutable box, so copying a row (which sorting 100,000
/// rows does often) retains one reference rather than three strings.
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
  /// The title, the body and the sort key.
  private let texts: Texts

  /// Its title.
  public var title: String { texts.title }
  /// Its text (shared with the model's copy, not duplicated).
  public var body: String { texts.body }
  /// The title folded for sorting (lowercased, in canonical composition), computed once
  /// per row; the title order compares its UTF-8 bytes.
  var sortTitle: TitleOrder { TitleOrder(text: texts.sortTitle) }
  /// The first sixteen bytes of `sortTitle`'s UTF-8, most significant first, zero-padded:
  /// the title order's first keys.
  ///
  /// Ordering by these integers first and by `sortTitle` on a tie is exactly ordering by
  /// `sortTitle`'s bytes, with integer comparisons instead of a string comparison (and
  /// no reference counting) for most pairs. Kept in the row itself, not with the texts,
  /// so sorting reads no other memory.
  let sortPrefix: (high: UInt64, low: UInt64)

  /// The strings of a row.
  private final class Texts: Sendable {
    let title: String
    let body: String
    let sortTitle: String
    let isASCII: Bool

    init(title: String, body: String) {
      self.title = title
      self.body = body
      let lowercased = title.lowercased()
      let sortTitleIsASCII = Self.isASCII(lowercased)
      // ASCII is its own canonical composition.
      sortTitle = sortTitleIsASCII ? lowercased : lowercased.precomposedStringWithCanonicalMapping
      isASCII = sortTitleIsASCII && Self.isASCII(title) && Self.isASCII(body)
    }

    /// Whether `text` is all ASCII, checked eight bytes at a time.
    private static func isASCII(_ text: String) -> Bool {
      var text = text
      return text.withUTF8 { bytes in
        guard let start = UnsafeRawPointer(bytes.baseAddress) else { return true }
        var offset = 0
        while offset + 8 <= bytes.count {
          let word = start.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          if word & 0x8080_8080_8080_8080 != 0 { return false }
          offset += 8
        }
        while offset < bytes.count {
          if bytes[offset] >= 0x80 { return false }
          offset += 1
        }
        return true
      }
    }
  }

  /// The row for `note`.
  ///
  /// - Parameter note: A note.
  public init(_ note: Note) {
    id = note.id
    notebookID = note.notebookID
    modified = note.modified
    isPinned = note.isPinned
    texts = Texts(title: note.title, body: note.body)
    isASCII = texts.isASCII
    var prefix: (high: UInt64, low: UInt64) = (0, 0)
    for (index, byte) in texts.sortTitle.utf8.prefix(16).enumerated() {
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
      && (lhs.texts === rhs.texts || (lhs.title == rhs.title && lhs.body == rhs.body))
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
@MainActor
public final class NoteListController: ViewStateController {
  /// The lens that keeps the rows; read rows and updates through it.
  public let lens: ListLens<NotesState, Note, NoteRow>

  /// The latest model revision the rows reflect (the lens's).
  public var renderedRevision: Int { lens.renderedRevision }

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
    lens = ListLens(
      model: model, table: \.notes,
      row: { note in
        let row = NoteRow(note)
        nonASCIINotes.note(row)
        return row
      }, order: Self.order(sort), filter: Self.filter(nil, ""))
  }

  /// Stops following the model.
  public func cancel() { lens.cancel() }

  static func order(_ sort: NoteSort) -> ListOrder<NoteRow> {
    // Each order starts with an integer key (pinned notes first, then most of the second
    // key) so sorting 100,000 rows compares integers; closures rather than key paths
    // refine ties, because a key path applied per comparison goes through the runtime.
    switch sort {
    case .modified:
      .by(integerKey: {
        pinnedBit($0) | ~orderedBits($0.modified.timeIntervalSinceReferenceDate) >> 1
      })
      .then({ $0.modified }, .descending)
    case .title:
      // 1 + 127 bits: the pinned bit, then the title's first 16 bytes but for the last bit.
      .by(integerKey: { pinnedBit($0) | $0.sortPrefix.high >> 1 })
        .then(integerKey: { $0.sortPrefix.high << 63 | $0.sortPrefix.low >> 1 })
        .then({ $0.sortTitle })
    }
  }

  /// The top bit of an order's integer key: clear for pinned notes, so they sort first.
  private static func pinnedBit(_ row: NoteRow) -> UInt64 { row.isPinned ? 0 : 1 << 63 }

  /// The bits of `value` as an unsigned integer in the order of the values: a smaller
  /// number gives a smaller integer.
  private static func orderedBits(_ value: Double) -> UInt64 {
    let bits = (value == 0 ? 0 : value).bitPattern  // -0 and 0 are one date
    return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
  }

  static func filter(_ notebook: NotebookID?, _ search: String) -> ListFilter<NoteRow> {
    let words = matchedWords(in: search)
    let key = FilterKey(notebook: notebook, words: words)
    let matchers = words.map(WordMatcher.init)
    switch (notebook, matchers.isEmpty) {
    case (nil, true): return .all
    case (let notebook?, true): return ListFilter(key: key) { $0.notebookID == notebook }
    case (nil, false):
      return ListFilter(key: key) { row in
        matchers.allSatisfy { $0.matches(row) }
      }
    case (let notebook?, false):
      return ListFilter(key: key) { row in
        row.notebookID == notebook
          && matchers.allSatisfy { $0.matches(row) }
      }
    }
  }

  /// The words a search looks for: its words, or (for a search with only punctuation or
  /// symbols, such as "%") its trimmed text; none for an empty search.
  static func matchedWords(in search: String) -> [String] {
    let words = searchWords(in: search)
    guard words.isEmpty else { return words }
    let trimmed = search.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? [] : [trimmed]
  }

  /// The words of a search text: its runs of letters and digits.
  ///
  /// - Parameter search: The search text.
  /// - Returns: The words, in order.
  public static func searchWords(in search: String) -> [String] {
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
