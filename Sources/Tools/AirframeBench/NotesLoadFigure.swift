// Figure 7, notes-load: the Notes library at 100,000 notes opened and loaded.
//
// Open the file and load the whole state (`NotesDatabase(path:)` +
// `loadState()`), each run one sample; the time to drop the loaded state and close is
// not counted. Beside it, `loadState()` alone on a database that is already open.

import Airframe
import AirframeBinding
import CSQLite
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesStorage

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
