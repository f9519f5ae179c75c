// Notes (figures 7–10): the Notes app's storage and View State Controllers at the size of a
// large library (100,000 notes; 2,000 with --quick).
//
// The library: 20 notebooks and `Scale.notesCount` notes, generated from a seeded
// generator, so every run builds the same library. Titles are 3 words, bodies 40 words;
// a word is one of 8 common words ("the", "and", …) one time in four, otherwise one of a
// 5,000-word vocabulary of made-up words (each then appears in about 600 notes per
// 100,000). The SQLite file is built once per run through `NotesDatabase` (the real schema,
// the real full-text triggers): one `Model.write` inserting every notebook and note, then
// `close()`, which brings the full-text index up to date. It lives in a folder named with a
// UUID under the temporary directory, removed at the end.
//
// - notes-load: open the file and load the whole state (`NotesDatabase(path:)` +
//   `loadState()`), each run one sample; the time to drop the loaded state and close is
//   not counted. Beside it, `loadState()` alone on a database that is already open.
// - notes-edits: single-note edits, each its own commit through the funnel:
//   `ActionDispatcher.dispatch(EditNoteBody)` on a `Model` whose storage is a
//   `NotesDatabase`. Beside it, the same statements issued through raw sqlite3 calls on a
//   connection with the same pragmas: BEGIN IMMEDIATE, the same UPDATE of every column
//   (on a copy of the same file, so the same full-text triggers fire: since schema 4 they
//   record the note's old title and body for the next index update instead of
//   re-tokenizing it), a changed-row check, COMMIT. The index update itself happens at
//   the next search, on neither side here (notes-search measures a search after edits).
//   Pin toggles (`SetNotePinned`; the triggers' WHEN clause records nothing) both ways as
//   well. Every subject edits its own copy of the library file, the same notes in the
//   same order.
// - notes-search: `NotesDatabase.search(_:limit:)` (50 results, bm25 order) for a
//   vocabulary word, two vocabulary words, and the 3-letter prefix of a vocabulary word,
//   each query one sample (median and p99); and a vocabulary word searched on a copy of
//   the file after 3 `EditNoteBody` commits (not timed), so each of those searches first
//   brings the index up to date with 3 edited notes. A common word that is in almost every
//   note is shown too, without a target: it is the worst case of a one-word query.
// - notes-views: a `Model<NotesState>` in memory (no storage) with all six View State
//   Controllers observing: sidebar, note list (all notes, pinned first then newest),
//   window title showing the note being edited, status bar, editor open on a note that is
//   never edited, and a command menu with two `ActionController` availabilities. Each
//   operation is one dispatched `EditNoteBody` (even steps) or `RenameNote` (odd steps) of
//   a random note, timed from before `dispatch` to its return; delivery is synchronous, so
//   every controller has rendered the commit by then, and the figure checks it after
//   every write. Beside it, the same dispatches to a model nobody observes.

import Airframe
import AirframeBinding
import CSQLite
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesStorage

// MARK: - The library

/// A generated notes library, the same for every run with the same count.
struct GeneratedLibrary {
  static let notebookCount = 20
  static let commonWords = ["the", "and", "of", "to", "in", "a", "is", "for"]
  static let wordsPerTitle = 3
  static let wordsPerBody = 40
  /// 1 January 2024, as seconds since 1970: every generated date is after it.
  static let epoch = 1_704_067_200.0

  /// The made-up words notes are written in (besides the common words).
  let vocabulary: [String]
  let notebooks: [Notebook]
  let notes: [Note]

  init(noteCount: Int) {
    var random = BenchRandom(state: 7)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    vocabulary = (0..<5_000).map { _ in
      String(
        (0..<Int.random(in: 4...9, using: &random)).map { _ in
          letters[Int.random(in: 0..<26, using: &random)]
        })
    }
    notebooks = (1...Self.notebookCount).map { index in
      Notebook(
        id: NotebookID(rawValue: Int64(index)), title: "Notebook \(index)",
        created: Date(timeIntervalSince1970: Self.epoch))
    }
    var notes: [Note] = []
    notes.reserveCapacity(noteCount)
    for index in 0..<noteCount {
      let created = Date(timeIntervalSince1970: Self.epoch + Double(index))
      notes.append(
        Note(
          id: NoteID(rawValue: Int64(Self.notebookCount + 1 + index)),
          notebookID: NotebookID(
            rawValue: Int64.random(in: 1...Int64(Self.notebookCount), using: &random)),
          title: Self.text(words: Self.wordsPerTitle, from: vocabulary, using: &random),
          body: Self.text(words: Self.wordsPerBody, from: vocabulary, using: &random),
          created: created,
          isPinned: index.isMultiple(of: 50)))
    }
    self.notes = notes
  }

  /// The state the library's file holds.
  var state: NotesState { NotesState(notebooks: notebooks, notes: notes) }

  /// `words` words: a common word one time in four, otherwise a vocabulary word.
  static func text(
    words: Int, from vocabulary: [String], using random: inout BenchRandom
  ) -> String {
    var text = ""
    for index in 0..<words {
      if index > 0 { text += " " }
      if Int.random(in: 0..<4, using: &random) == 0 {
        text += commonWords[Int.random(in: 0..<commonWords.count, using: &random)]
      } else {
        text += vocabulary[Int.random(in: 0..<vocabulary.count, using: &random)]
      }
    }
    return text
  }

  /// Writes the library into a new database at `path`, in one commit through the model.
  @MainActor
  func write(toDatabaseAt path: String) throws {
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    let model = Model(NotesState(), storage: database)
    try model.write(origin: .background("benchmark fixture")) { transaction in
      for notebook in notebooks { try transaction.insert(notebook, into: \.notebooks) }
      for note in notes { try transaction.insert(note, into: \.notes) }
      transaction.set(\.lastAssignedID, to: Int64(Self.notebookCount + notes.count))
    }
  }
}

/// A folder under the temporary directory, named with a UUID, for the run's database files.
struct ScratchFolder {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("airframe-bench-notes-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// The path of `name` in the folder.
  func file(_ name: String) -> String { path + "/" + name }

  /// A copy of the (closed) database `source` named `name`; returns its path.
  func copy(_ source: String, to name: String) throws -> String {
    let destination = file(name)
    try FileManager.default.copyItem(atPath: source, toPath: destination)
    return destination
  }

  /// Removes the folder and everything in it.
  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// The library built once for figures 7–9: its notes in memory and its database file.
struct NotesFixture {
  let library: GeneratedLibrary
  let folder: ScratchFolder
  /// The built database file; figures read it, and edit only copies of it.
  let path: String
  /// Seconds the one commit that built the file took.
  let buildSeconds: Double

  @MainActor
  init(noteCount: Int, folder: ScratchFolder) throws {
    library = GeneratedLibrary(noteCount: noteCount)
    self.folder = folder
    path = folder.file("library.sqlite")
    var failure: (any Error)?
    let library = library
    let path = path
    buildSeconds =
      timeNanoseconds {
        do { try library.write(toDatabaseAt: path) } catch { failure = error }
      } / 1e9
    if let failure { throw failure }
  }
}

/// The first error a measured closure ran into (subjects cannot throw), and how many.
@MainActor
final class FailureLog {
  private(set) var first: (any Error)?
  private(set) var count = 0

  func attempt(_ body: () throws -> Void) {
    do { try body() } catch {
      count += 1
      if first == nil { first = error }
    }
  }

  /// Throws the first error, if there was one.
  func check() throws {
    if let first { throw first }
  }
}

// MARK: - Raw SQLite

/// An error from the raw sqlite3 baseline.
struct RawSQLiteError: Error, CustomStringConvertible {
  var description: String
}

/// The baseline of figure 8: a hand-written sqlite3 connection issuing the statements
/// `NotesDatabase.persist` issues for a one-note update, with the same pragmas.
final class RawNotesConnection {
  /// `NotesDatabase`'s note UPDATE, verbatim (it sets every column).
  static let updateNoteSQL = """
    UPDATE notes SET notebook_id = ?2, title = ?3, body = ?4, modified = ?5, pinned = ?6
    WHERE id = ?1
    """

  private var database: OpaquePointer?
  private var begin: OpaquePointer?
  private var update: OpaquePointer?
  private var commit: OpaquePointer?

  init(path: String) throws {
    let code = sqlite3_open_v2(
      path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
    guard code == SQLITE_OK, let database else {
      sqlite3_close_v2(database)
      throw RawSQLiteError(description: "cannot open \(path): \(code)")
    }
    sqlite3_extended_result_codes(database, 1)
    for pragma in [
      "PRAGMA busy_timeout = 5000", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL",
      "PRAGMA foreign_keys = ON",
    ] {
      try check(sqlite3_exec(database, pragma, nil, nil, nil))
    }
    try check(sqlite3_prepare_v2(database, "BEGIN IMMEDIATE", -1, &begin, nil))
    try check(sqlite3_prepare_v2(database, Self.updateNoteSQL, -1, &update, nil))
    try check(sqlite3_prepare_v2(database, "COMMIT", -1, &commit, nil))
  }

  deinit {
    sqlite3_finalize(begin)
    sqlite3_finalize(update)
    sqlite3_finalize(commit)
    sqlite3_close_v2(database)
  }

  /// Writes every column of `note` in a transaction of its own.
  func write(_ note: Note) throws {
    try step(begin)
    sqlite3_bind_int64(update, 1, note.id.rawValue)
    sqlite3_bind_int64(update, 2, note.notebookID.rawValue)
    sqlite3_bind_text(update, 3, note.title, -1, csqlite_transient())
    sqlite3_bind_text(update, 4, note.body, -1, csqlite_transient())
    sqlite3_bind_double(update, 5, note.modified.timeIntervalSinceReferenceDate)
    sqlite3_bind_int64(update, 6, note.isPinned ? 1 : 0)
    do {
      try step(update)
      sqlite3_clear_bindings(update)
      guard sqlite3_changes(database) == 1 else {
        throw RawSQLiteError(description: "note \(note.id) is missing")
      }
      try step(commit)
    } catch {
      sqlite3_exec(database, "ROLLBACK", nil, nil, nil)
      throw error
    }
  }

  private func step(_ statement: OpaquePointer?) throws {
    let code = sqlite3_step(statement)
    sqlite3_reset(statement)
    if code != SQLITE_DONE { try check(code) }
  }

  private func check(_ code: Int32) throws {
    guard code != SQLITE_OK else { return }
    throw RawSQLiteError(description: String(cString: sqlite3_errmsg(database)))
  }
}

// MARK: - Figures

/// Figure 7: opening the library file and loading all of it.
@MainActor
func notesLoadFigure(number: Int, fixture: NotesFixture, scale: Scale, sink: Sink) throws
  -> Figure
{
  let failures = FailureLog()
  var openAndLoad: [Double] = []
  var loadAlone: [Double] = []
  var loadedCount = 0
  for run in 0...scale.repetitions {
    var database: NotesDatabase?
    var state: NotesState?
    let first = timeNanoseconds {
      failures.attempt {
        let opened = try NotesDatabase(path: fixture.path)
        database = opened
        state = try opened.loadState()
      }
    }
    state = nil
    var second = Double.nan
    if let database {
      second = timeNanoseconds { failures.attempt { state = try database.loadState() } }
      loadedCount = state?.notes.count ?? 0
      state = nil
      database.close()
    }
    if run > 0 {
      openAndLoad.append(first)
      loadAlone.append(second)
    }
  }
  try failures.check()
  sink.total &+= loadedCount
  sink.count += 1

  let notes = fixture.library.notes.count
  let target = 0.5e9
  let openStats = Stats(samples: openAndLoad)
  let loadStats = Stats(samples: loadAlone)
  var figure = Figure(
    number: number,
    title: "notes load: open the SQLite file and load \(grouped(notes)) notes in"
      + " \(GeneratedLibrary.notebookCount) notebooks (ms per load)",
    kind: .scaledTime(unit: "ms/load", nanosecondsPerUnit: 1e6))
  func row(_ subject: String, _ stats: Stats, target: Double?) -> Row {
    var extras: [(key: String, value: JSONValue)] = [
      ("ns_per_note", .double(stats.median / Double(notes))), ("notes", .int(notes)),
      ("seconds", .double(stats.median / 1e9)),
    ]
    if let target {
      extras += [
        ("target_ns_per_op", .double(target)), ("target_met", .bool(stats.median <= target)),
      ]
    }
    return Row(
      benchmark: "notes-load", subject: subject, operations: 1, repetitions: stats.samples.count,
      time: stats, extras: extras,
      comment: "\(formatted(stats.median / Double(notes), digits: 0)) ns per note")
  }
  figure.rows.append(row("open + loadState (NotesDatabase)", openStats, target: target))
  figure.rows.append(row("loadState alone, database open", loadStats, target: nil))
  figure.notes.append(
    "target: open + load ≤ \(formatted(target / 1e9, digits: 1)) s: "
      + (openStats.median <= target ? "met" : "MISSED")
      + " (\(formatted(openStats.median / 1e9, digits: 3)) s)")
  figure.notes.append(
    "the file was built by one Model.write of \(grouped(notes)) inserts through NotesDatabase"
      + " in \(formatted(fixture.buildSeconds, digits: 2)) s (not measured above)")
  return figure
}

/// Figure 8: single-note edits, each its own commit, against raw sqlite3 calls.
@MainActor
func notesEditsFigure(number: Int, fixture: NotesFixture, scale: Scale, sink: Sink) throws
  -> Figure
{
  let edits = scale.notesEdits
  let noteIDs = fixture.library.notes.map(\.id)
  let failures = FailureLog()
  var notCommitted = 0
  /// The body of the `step`th edit of run `run`: different from every earlier body.
  func editedBody(run: Int, step: Int) -> String {
    "edited \(run)-\(step) " + fixture.library.notes[step % noteIDs.count].title
  }

  /// An edit subject through the funnel: its own copy of the file, model and dispatcher.
  func funnelSubject(
    _ name: String, file: String,
    action: @escaping @MainActor (Note, _ run: Int, _ step: Int) -> any Action<NotesState>
  ) throws -> (Subject, NotesDatabase) {
    let database = try NotesDatabase(path: try fixture.folder.copy(fixture.path, to: file))
    let dispatcher = ActionDispatcher(model: Model(try database.loadState(), storage: database))
    var random = BenchRandom(state: 11)
    var run = 0
    let subject = Subject(name: name, operations: edits) {
      run += 1
      for step in 0..<edits {
        let id = noteIDs[Int.random(in: 0..<noteIDs.count, using: &random)]
        guard let note = dispatcher.model.state.notes[id] else { continue }
        let outcome = dispatcher.dispatch(action(note, run, step))
        if !outcome.isCommitted { notCommitted += 1 }
      }
      sink.total &+= dispatcher.model.revision
    }
    return (subject, database)
  }

  /// The same commits through raw sqlite3 calls; the notes kept in a plain dictionary.
  func rawSubject(
    _ name: String, file: String, edit: @escaping (inout Note, _ run: Int, _ step: Int) -> Void
  ) throws -> (Subject, RawNotesConnection) {
    let connection = try RawNotesConnection(path: try fixture.folder.copy(fixture.path, to: file))
    var notes = Dictionary(uniqueKeysWithValues: fixture.library.notes.map { ($0.id, $0) })
    var random = BenchRandom(state: 11)
    var run = 0
    let subject = Subject(name: name, operations: edits) {
      run += 1
      for step in 0..<edits {
        let id = noteIDs[Int.random(in: 0..<noteIDs.count, using: &random)]
        guard var note = notes[id] else { continue }
        edit(&note, run, step)
        failures.attempt { try connection.write(note) }
        notes[id] = note
      }
      sink.total &+= run
    }
    return (subject, connection)
  }

  let (body, bodyDatabase) = try funnelSubject(
    "EditNoteBody via dispatcher + NotesDatabase", file: "edit-body.sqlite"
  ) { note, run, step in
    EditNoteBody(id: note.id, body: editedBody(run: run, step: step), now: Date())
  }
  let (rawBody, rawBodyConnection) = try rawSubject(
    "same UPDATE via raw sqlite3", file: "raw-body.sqlite"
  ) { note, run, step in
    note.body = editedBody(run: run, step: step)
    note.modified = Date()
  }
  let (pin, pinDatabase) = try funnelSubject(
    "SetNotePinned via dispatcher (no index)", file: "pin.sqlite"
  ) { note, _, _ in
    SetNotePinned(id: note.id, isPinned: !note.isPinned)
  }
  let (rawPin, rawPinConnection) = try rawSubject(
    "pin toggle via raw sqlite3 (no index)", file: "raw-pin.sqlite"
  ) { note, _, _ in
    note.isPinned.toggle()
  }
  let measured = measureInterleaved(
    [body, rawBody, pin, rawPin], repetitions: scale.repetitions,
    budgetSeconds: scale.budgetSeconds)
  bodyDatabase.close()
  pinDatabase.close()
  withExtendedLifetime((rawBodyConnection, rawPinConnection)) {}
  try failures.check()

  // The target is the ratio to the same statements through raw sqlite3: a rate would judge
  // the disk and SQLite's own commit as much as the funnel.
  let targetRatio = 1.35
  let stats = measured.stats
  let bodyRatio = stats[0].median / stats[1].median
  let pinRatio = stats[2].median / stats[3].median
  var figure = Figure(
    number: number,
    title: "notes edits: \(grouped(edits)) single-note edits per run on \(grouped(noteIDs.count))"
      + " notes, each its own commit (ns per commit)",
    kind: .time(unit: "ns/commit"))
  for (index, subject) in [body, rawBody, pin, rawPin].enumerated() {
    let rate = 1e9 / stats[index].median
    var extras: [(key: String, value: JSONValue)] = [
      ("commits_per_second", .double(rate)), ("notes", .int(noteIDs.count)),
    ]
    var comment = "\(grouped(Int(rate.rounded()))) commits/s"
    var ratio: Double?
    switch index {
    case 0:
      ratio = bodyRatio
      extras += [
        ("target_ratio_to_baseline", .double(targetRatio)),
        ("target_met", .bool(bodyRatio <= targetRatio)),
      ]
      comment += ", \(ratioText(bodyRatio)) raw"
    case 2:
      ratio = pinRatio
      comment += ", \(ratioText(pinRatio)) raw"
    default:
      break
    }
    figure.rows.append(
      Row(
        benchmark: "notes-edits", subject: subject.name, operations: edits,
        repetitions: measured.repetitions, time: stats[index], ratioToBaseline: ratio,
        extras: extras, comment: comment))
  }
  figure.notes.append(
    "target: within \(formatted(targetRatio, digits: 2))× raw sqlite3: "
      + (bodyRatio <= targetRatio ? "met" : "MISSED") + " (\(ratioText(bodyRatio)))")
  figure.notes.append(
    "each subject edits its own copy of the file; synchronous = NORMAL, WAL, both ways")
  if let note = measured.note { figure.notes.append(note) }
  if notCommitted > 0 {
    figure.notes.append("WARNING: \(notCommitted) dispatched edit(s) did not commit")
  }
  sink.count += edits * 4 * (measured.repetitions + 1)
  return figure
}

/// Figure 9: full-text search over the library.
@MainActor
func notesSearchFigure(number: Int, fixture: NotesFixture, scale: Scale, sink: Sink) throws
  -> Figure
{
  // A copy of the (closed) file whose notes are edited between searches, so each of its
  // searches first brings the index up to date with those edits.
  let editedPath = try fixture.folder.copy(fixture.path, to: "search.sqlite")
  let database = try NotesDatabase(path: fixture.path)
  defer { database.close() }
  let vocabulary = fixture.library.vocabulary
  var random = BenchRandom(state: 23)
  func word() -> String { vocabulary[Int.random(in: 0..<vocabulary.count, using: &random)] }
  let searches = scale.notesSearches
  // The common word matches almost every note and takes far longer: fewer samples.
  let commonSearches = max(5, searches / 20)
  let edited = try NotesDatabase(path: editedPath)
  defer { edited.close() }
  let editor = ActionDispatcher(model: Model(try edited.loadState(), storage: edited))
  let noteIDs = fixture.library.notes.map(\.id)
  let editsPerSearch = 3
  var notCommitted = 0
  let failures = FailureLog()
  /// Edits `editsPerSearch` random notes' bodies, each its own commit (not timed).
  func editNotes() {
    for _ in 0..<editsPerSearch {
      let id = noteIDs[Int.random(in: 0..<noteIDs.count, using: &random)]
      let body = GeneratedLibrary.text(
        words: GeneratedLibrary.wordsPerBody, from: vocabulary, using: &random)
      let outcome = editor.dispatch(EditNoteBody(id: id, body: body, now: Date()))
      if !outcome.isCommitted { notCommitted += 1 }
    }
  }
  let kinds:
    [(
      name: String, query: () -> String, count: Int, hasTarget: Bool, database: NotesDatabase,
      prepare: () -> Void
    )] = [
      ("one word", { word() }, searches, true, database, {}),
      ("two words", { word() + " " + word() }, searches, true, database, {}),
      ("3-letter prefix", { String(word().prefix(3)) }, searches, true, database, {}),
      (
        "one word, \(editsPerSearch) notes edited since the last search", { word() }, searches,
        true, edited, editNotes
      ),
      ("common word \"the\" (no target)", { "the" }, commonSearches, false, database, {}),
    ]
  let warmUp = max(5, searches / 10)
  var samples = Array(repeating: [Double](), count: kinds.count)
  var hits = Array(repeating: 0, count: kinds.count)
  for step in 0..<(warmUp + searches) {
    for (index, kind) in kinds.enumerated() where step < warmUp + kind.count {
      kind.prepare()
      let query = kind.query()
      var found = 0
      let nanoseconds = timeNanoseconds {
        failures.attempt { found = try kind.database.search(query, limit: 50).count }
      }
      if step >= warmUp {
        samples[index].append(nanoseconds)
        hits[index] += found
      }
    }
  }
  try failures.check()

  let target = 5e6
  var figure = Figure(
    number: number,
    title: "notes search: full-text search over \(grouped(fixture.library.notes.count)) notes,"
      + " \(grouped(searches)) queries of each kind, up to 50 results (ms per query)",
    kind: .scaledTime(unit: "ms/query", nanosecondsPerUnit: 1e6))
  var allMet = true
  for (index, kind) in kinds.enumerated() {
    let stats = Stats(samples: samples[index])
    let p99 = nearestRank(samples[index], 0.99)
    let averageHits = Double(hits[index]) / Double(kind.count)
    var extras: [(key: String, value: JSONValue)] = [
      ("p99_ns_per_op", .double(p99)), ("notes", .int(fixture.library.notes.count)),
      ("average_results", .double(averageHits)),
    ]
    if kind.hasTarget {
      extras += [
        ("target_ns_per_op", .double(target)), ("target_met", .bool(stats.median <= target)),
      ]
      allMet = allMet && stats.median <= target
    }
    figure.rows.append(
      Row(
        benchmark: "notes-search", subject: kind.name, operations: 1, repetitions: kind.count,
        time: stats, extras: extras,
        comment: "p99 \(formatted(p99 / 1e6, digits: 2)) ms, \(formatted(averageHits, digits: 1))"
          + " results"))
    sink.total &+= hits[index]
  }
  sink.count += searches * kinds.count
  let medians = kinds.indices.filter { kinds[$0].hasTarget }.map {
    formatted(figure.rows[$0].time.median / 1e6, digits: 2)
  }
  figure.notes.append(
    "target: median ≤ \(formatted(target / 1e6, digits: 0)) ms for each kind with a target: "
      + (allMet ? "met" : "MISSED") + " (\(medians.joined(separator: ", ")) ms)")
  figure.notes.append(
    "each query is one sample; the kinds are interleaved; \(warmUp) warm-up queries of each;"
      + " \(commonSearches) of the common word")
  figure.notes.append(
    "edited since the last search: \(editsPerSearch) EditNoteBody commits (not timed) on a copy"
      + " of the file before each query; the query first brings the index up to date")
  if notCommitted > 0 {
    figure.notes.append("WARNING: \(notCommitted) edit(s) before a search did not commit")
  }
  return figure
}

/// Figure 10: one edit reaching all six View State Controllers of the Notes app.
@MainActor
func notesViewsFigure(number: Int, scale: Scale, sink: Sink) -> Figure {
  let library = GeneratedLibrary(noteCount: scale.notesCount)
  let writes = scale.notesViewWrites
  let warmUp = max(20, writes / 10)
  let noteIDs = library.notes.map(\.id)
  let shownInEditor = noteIDs[0]

  let model = Model(library.state)
  let dispatcher = ActionDispatcher(model: model)
  // Commit observers registered between the controllers (delivery is in registration
  // order) time each controller's share of the delivery.
  let stamps = DeliveryStamps(model: model)
  stamps.mark()
  let sidebar = SidebarController(model: model)
  stamps.mark()
  let noteList = NoteListController(model: model)
  stamps.mark()
  let windowTitle = WindowTitleController(model: model)
  stamps.mark()
  let statusBar = StatusBarController(model: model)
  stamps.mark()
  let editor = EditorController(dispatcher: dispatcher)
  editor.open(shownInEditor)
  stamps.mark()
  var selected = noteIDs[1]
  // As in the Notes app: the title is typed after the command starts, so availability is
  // the requirement alone (the action validates the title when triggered).
  let newNote = ActionController<NotesState, String>(
    dispatcher: dispatcher,
    requires: { $0.notebooks.count > 0 ? .met(()) : .unmet("Create a notebook first.") },
    makeAction: { _, title in
      CreateNote(notebookID: NotebookID(rawValue: 1), title: title, now: Date())
    })
  // Availability: DeleteNote's own validation of the selected note.
  let deleteNote = ActionController<NotesState, Void>(dispatcher: dispatcher) {
    DeleteNote(id: selected)
  }
  let commandMenu = CommandMenuController()
  commandMenu.add("New Note", shortcut: "⌘N", availability: newNote.availability)
  commandMenu.add("Delete Note", shortcut: "⌘⌫", availability: deleteNote.availability)
  stamps.mark()
  let controllerNames = [
    "sidebar", "note list", "window title", "status bar", "editor", "command menu",
  ]
  var shares = Array(repeating: [Double](), count: controllerNames.count)

  let bareModel = Model(library.state)
  let bareDispatcher = ActionDispatcher(model: bareModel)

  /// The `step`th write: a body edit on even steps, a rename on odd ones.
  func action(_ id: NoteID, step: Int) -> any Action<NotesState> {
    step.isMultiple(of: 2)
      ? EditNoteBody(id: id, body: "body \(step) " + library.vocabulary[step % 5_000], now: Date())
      : RenameNote(id: id, title: "title \(step) " + library.vocabulary[step % 5_000], now: Date())
  }

  var random = BenchRandom(state: 31)
  var samples: [Double] = []
  var bareSamples: [Double] = []
  var stale = 0
  var notCommitted = 0
  samples.reserveCapacity(writes)
  bareSamples.reserveCapacity(writes)
  for step in 0..<(warmUp + writes) {
    let id = noteIDs[Int.random(in: 1..<noteIDs.count, using: &random)]
    // Selecting the note (view state, not timed): the window title shows it.
    windowTitle.note = id
    selected = id
    let next = action(id, step: step)
    var outcome = ActionOutcome.unchanged
    let nanoseconds = timeNanoseconds { outcome = dispatcher.dispatch(next) }
    if !outcome.isCommitted { notCommitted += 1 }
    let revision = model.revision
    let note = model.state.notes[id]
    let rendered = [
      sidebar.renderedRevision, noteList.lens.revision, windowTitle.renderedRevision,
      statusBar.renderedRevision, editor.renderedRevision,
    ]
    let menuShowsCommands =
      commandMenu.rows.value.map(\.availability) == [
        newNote.availability.value, deleteNote.availability.value,
      ]
    let titleShowsNote = note.map { windowTitle.title.value.hasSuffix($0.title) } ?? false
    if rendered.contains(where: { $0 != revision }) || !menuShowsCommands || !titleShowsNote
      || editor.state.value.noteID != shownInEditor || editor.state.value.conflict != nil
    {
      stale += 1
    }
    let bareNanoseconds = timeNanoseconds { outcome = bareDispatcher.dispatch(next) }
    if !outcome.isCommitted { notCommitted += 1 }
    if step >= warmUp {
      samples.append(nanoseconds)
      bareSamples.append(bareNanoseconds)
      for index in shares.indices {
        shares[index].append(stamps.nanoseconds(from: index))
      }
    }
  }

  let target = 50_000.0
  let stats = Stats(samples: samples)
  let p99 = nearestRank(samples, 0.99)
  let bare = Stats(samples: bareSamples)
  let bareP99 = nearestRank(bareSamples, 0.99)
  let shareMedians = shares.map { Stats(samples: $0).median }
  var figure = Figure(
    number: number,
    title: "notes views: \(grouped(noteIDs.count)) notes in memory, 6 View State Controllers"
      + " observing, one EditNoteBody or RenameNote per write (ns from write to all 6 updated)",
    kind: .time(unit: "ns/write"))
  figure.rows.append(
    Row(
      benchmark: "notes-views", subject: "6 controllers observing", operations: 1,
      repetitions: writes, time: stats,
      extras: [
        ("p99_ns_per_op", .double(p99)), ("notes", .int(noteIDs.count)), ("controllers", .int(6)),
        ("stale_checks", .int(stale)), ("target_ns_per_op", .double(target)),
        ("target_met", .bool(stats.median <= target)),
      ]
        + zip(controllerNames, shareMedians).map {
          ("share_ns_" + $0.0.replacing(" ", with: "_"), JSONValue.double($0.1))
        },
      comment: "p99 \(formatted(p99, digits: 0)) ns"))
  figure.rows.append(
    Row(
      benchmark: "notes-views", subject: "same dispatches, nobody observing", operations: 1,
      repetitions: writes, time: bare,
      extras: [("p99_ns_per_op", .double(bareP99)), ("notes", .int(noteIDs.count))],
      comment: "p99 \(formatted(bareP99, digits: 0)) ns"))
  figure.notes.append(
    "target: median ≤ \(formatted(target / 1_000, digits: 0)) µs: "
      + (stats.median <= target ? "met" : "MISSED")
      + " (\(formatted(stats.median / 1_000, digits: 2)) µs, p99"
      + " \(formatted(p99 / 1_000, digits: 2)) µs)")
  figure.notes.append(
    "each sample is one write (\(grouped(writes)) after \(warmUp) warm-up); after every write"
      + " each controller was checked to show the model's revision: "
      + (stale == 0 ? "all did" : "WARNING: \(stale) write(s) left a controller behind"))
  figure.notes.append(
    "of which, median per controller (commit observers between them): "
      + zip(controllerNames, shareMedians).map {
        "\($0.0) \(formatted($0.1 / 1_000, digits: 2)) µs"
      }.joined(separator: ", "))
  if notCommitted > 0 {
    figure.notes.append("WARNING: \(notCommitted) dispatched write(s) did not commit")
  }
  stamps.cancel()
  sink.count += writes
  sink.total &+= noteList.lens.count &+ sidebar.rows.value.count
  newNote.cancel()
  deleteNote.cancel()
  return figure
}

/// When each of a row of commit observers last ran: splits a delivery into shares.
@MainActor
private final class DeliveryStamps {
  private let model: Model<NotesState>
  private let clock = ContinuousClock()
  private var instants: [ContinuousClock.Instant] = []
  private var lifetimes: [Lifetime] = []

  init(model: Model<NotesState>) { self.model = model }

  /// Registers the next commit observer, after every observer registered so far.
  func mark() {
    let index = instants.count
    instants.append(clock.now)
    lifetimes.append(
      model.observeCommits { [weak self] _ in
        guard let self else { return }
        instants[index] = clock.now
      })
  }

  /// Nanoseconds between mark `index` and the next one in the last delivery.
  func nanoseconds(from index: Int) -> Double {
    let parts = (instants[index + 1] - instants[index]).components
    return Double(parts.seconds) * 1e9 + Double(parts.attoseconds) / 1e9
  }

  func cancel() {
    for lifetime in lifetimes { lifetime.cancel() }
  }
}
