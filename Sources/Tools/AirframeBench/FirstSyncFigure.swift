// Figure 15, sync-first: the first push of a whole library and the first sync of an
// empty device.
//
// The setup of SyncFixtures.swift, timed: A's first push, B's first sync. Each run uses a new
// server database and a new copy of the fixture; the last run's devices are kept for the
// other figures.

import Airframe
import Dispatch
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesFixtures
@_spi(Instrumentation) import NotesHost
import NotesPresentation
import NotesServer
import NotesStorage
import NotesSync
import NotesTerminalUI

#if canImport(Glibc)
  import Glibc
#endif

/// Figure 15: the first push of the whole library to an empty server, and the first sync
/// of an empty device from it.
@MainActor
func firstSyncFigure(
  number: Int, runs: [FirstSyncRun], fixture: NotesFixture, devices: SyncedDevices, sink: Sink
) throws -> Figure {
  let notes = fixture.library.notes.count
  let entities = notes + GeneratedLibrary.notebookCount
  let target = 5e9
  var figure = Figure(
    number: number,
    title: "first sync of \(grouped(notes)) notes into an empty device: device A pushes its"
      + " library to an empty server, then a new library B runs SyncEngine.sync() (s)",
    kind: .scaledTime(unit: "s", nanosecondsPerUnit: 1e9))
  let push = Stats(samples: runs.map(\.pushNanoseconds))
  let pull = Stats(samples: runs.map(\.pullNanoseconds))
  let last = runs[runs.count - 1]
  let met = pull.median <= target && last.notesOnB == notes
  let pushMet = push.median <= target && last.pushed == entities
  figure.rows.append(
    Row(
      benchmark: "sync-first", subject: "first push of \(grouped(notes)) notes", operations: 1,
      repetitions: runs.count, time: push,
      extras: [
        ("notes", .int(notes)), ("pushed", .int(last.pushed)),
        ("ns_per_change", .double(push.median / Double(max(1, last.pushed)))),
        ("target_ns_per_op", .double(target)), ("target_met", .bool(pushMet)),
      ],
      comment: "\(formatted(push.median / Double(max(1, last.pushed)) / 1e3, digits: 0)) µs per"
        + " change, \(grouped(last.pushed)) pushed"))
  figure.rows.append(
    Row(
      benchmark: "sync-first", subject: "first sync of an empty device", operations: 1,
      repetitions: runs.count, time: pull,
      extras: [
        ("notes", .int(notes)), ("pulled", .int(last.pulled)), ("notes_on_b", .int(last.notesOnB)),
        ("ns_per_note", .double(pull.median / Double(max(1, last.pulled)))),
        ("target_ns_per_op", .double(target)), ("target_met", .bool(met)),
      ],
      comment: "\(formatted(pull.median / Double(max(1, last.pulled)) / 1e3, digits: 0)) µs per"
        + " version, \(grouped(last.pulled)) pulled"))
  figure.notes.append(
    "target: first push ≤ \(formatted(target / 1e9, digits: 0)) s: "
      + (pushMet ? "met" : "MISSED") + " (\(formatted(push.median / 1e9, digits: 2)) s)")
  figure.notes.append(
    "target: first sync ≤ \(formatted(target / 1e9, digits: 0)) s: " + (met ? "met" : "MISSED")
      + " (\(formatted(pull.median / 1e9, digits: 2)) s; B then holds"
      + " \(grouped(last.notesOnB)) of \(grouped(notes)) notes)")
  // Where the push's time goes.
  if let collect = last.collectNanoseconds, !last.batchNanoseconds.isEmpty {
    let batches = last.batchNanoseconds
    let answered: Double = batches.reduce(0, +)
    let rest: Double = last.pushNanoseconds - collect - answered
    let perBatch: Double = Stats(samples: batches).median
    let collected =
      "push, last run: \(formatted(collect / 1e9, digits: 2)) s until the first batch of the"
      + " \(grouped(entities)) changes was collected (the rest are collected on a second"
      + " connection while the server answers: OutgoingBatches), "
    let sent =
      "\(formatted(answered / 1e9, digits: 2)) s for the server to answer them in"
      + " \(batches.count) batches (one set-based statement each, median"
      + " \(formatted(perBatch / 1e6, digits: 1)) ms), "
    let recorded =
      "\(formatted(rest / 1e9, digits: 2)) s to commit and record the"
      + " acknowledgements"
    figure.notes.append(collected + sent + recorded)
  }
  if !last.pageNanoseconds.isEmpty {
    let pages = last.pageNanoseconds
    let tenth = max(1, pages.count / 10)
    let firstPages = Stats(samples: Array(pages.prefix(tenth))).median
    let lastPages = Stats(samples: Array(pages.suffix(tenth))).median
    figure.notes.append(
      "pull, last run: \(pages.count) page(s) of up to \(SyncEngine.pageSize) notes, each the"
        + " server's two queries and one SQLite transaction: median"
        + " \(formatted(Stats(samples: pages).median / 1e6, digits: 1)) ms per page (first"
        + " \(tenth) page(s) \(formatted(firstPages / 1e6, digits: 1)) ms, last \(tenth)"
        + " \(formatted(lastPages / 1e6, digits: 1)) ms), slowest"
        + " \(formatted((pages.max() ?? .nan) / 1e6, digits: 1)) ms;"
        + " \(grouped(last.applied)) entities written")
  }
  // The server's share of a page: the two queries SyncEngine.pull sends, at the start of
  // the log and at its end.
  let reader = try SyncServer(url: devices.url)
  defer { reader.close() }
  let head = try reader.head()
  func pageQueries(after cursor: Int64) throws -> Double {
    var times: [Double] = []
    for _ in 0..<5 {
      let start = monotonicNanoseconds()
      let notebooks = try reader.pull(
        .notebook, after: cursor, upTo: head, limit: Int(Int32.max))
      let notes = try reader.pull(.note, after: cursor, upTo: head, limit: SyncEngine.pageSize)
      times.append(Double(monotonicNanoseconds() - start))
      sink.total &+= notebooks.count + notes.count
    }
    return Stats(samples: times).median
  }
  let atStart = try pageQueries(after: 0)
  let atEnd = try pageQueries(after: max(0, head - Int64(SyncEngine.pageSize)))
  figure.notes.append(
    "of which the server (SyncServer.pull of the notebooks and one page of notes, median of"
      + " 5): \(formatted(atStart / 1e6, digits: 1)) ms after cursor 0,"
      + " \(formatted(atEnd / 1e6, digits: 1)) ms for the last page (cursor"
      + " \(grouped(Int(max(0, head - Int64(SyncEngine.pageSize))))))")
  figure.notes.append(
    "CPU time of this process (both libraries' SQLite, libpq, Swift; not the server's), last"
      + " run: \(formatted(last.pushCPUNanoseconds / 1e9, digits: 2)) s during the push,"
      + " \(formatted(last.pullCPUNanoseconds / 1e9, digits: 2)) s during the first sync; the"
      + " rest of each is waiting (server, disk, other processes on the cores)")
  figure.notes.append(
    "\(runs.count) run(s) (another only while the runs so far took under a minute), each on a"
      + " new server database and a new copy of the library; PostgreSQL on a Unix socket,"
      + " fsync off; the library built in"
      + " \(formatted(fixture.buildSeconds, digits: 2)) s (not measured above)")
  if last.pushed != entities {
    figure.notes.append(
      "WARNING: A pushed \(grouped(last.pushed)) changes, not \(grouped(entities))")
  }
  sink.count += runs.count
  sink.total &+= last.notesOnB
  return figure
}
