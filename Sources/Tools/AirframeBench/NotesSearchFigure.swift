// Figure 9, notes-search: full-text search at 100,000 notes.
//
// `NotesDatabase.search(_:limit:)` (50 results, bm25 order) for a
// vocabulary word, two vocabulary words, and the 3-letter prefix of a vocabulary word,
// each query one sample (median and p99); and a vocabulary word searched on a copy of
// the file after 3 `EditNoteBody` commits (not timed), so each of those searches first
// brings the index up to date with 3 edited notes. A common word that is in almost every
// note is shown too, without a target: it is the worst case of a one-word query.

import Airframe
import AirframeBinding
import AirframeTesting
import CSQLite
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesStorage

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
  var random = SeededRandomNumberGenerator(seed: 23)
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
