public import Airframe

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
  /// notebook, search and order, or `nil` when they agree (see `ViewStateController`).
  ///
  /// - Returns: The first difference.
  public func differenceFromModel() -> String? { lens.differenceFromModel() }

  /// The notebook whose notes are listed; `nil` lists every note.
  public var notebook: NotebookID? {
    didSet { if notebook != oldValue { showFilter() } }
  }

  /// The search text; empty lists every note of the notebook.
  ///
  /// A new text is published (``searchText``) once the rows show it.
  public var search: String = "" {
    didSet {
      guard search != oldValue else { return }
      showFilter()
      searchSource.set(search)
    }
  }

  /// The search text, published whenever it changes.
  public var searchText: some StateProjection<String> { searchSource }
  private let searchSource = StateSource("")

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
    didSet { if sort != oldValue { lens.order = sort.listOrder } }
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
      }, order: sort.listOrder, filter: Self.filter(nil, ""))
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
  /// after it is created, so the first screen does not wait for them; the first search
  /// does if they are not done yet. Call it to wait at a moment of your choosing instead.
  public func waitUntilSearchable() { texts.waitForGrams() }

  /// Stops following the model.
  public func cancel() {
    lens.cancel()
    textLifetime?.cancel()
    textLifetime = nil
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
    let order = sort.listOrder
    let filter = filter(notebook, search)
    return state.notes.elements.map(NoteRow.init).filter(filter.includes).sorted {
      order.areInIncreasingOrder($0, $1) || (!order.areInIncreasingOrder($1, $0) && $0.id < $1.id)
    }
  }
}
