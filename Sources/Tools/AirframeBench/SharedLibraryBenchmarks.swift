// Figure 13: another process's commit → shown in the open app. Two connections to one
// library file stand for two processes: a writer (as `notes add` or a second window would)
// and a reader running the terminal app with its `LibraryWatcher`, exactly as `notes` does
// (woken by the write to the library's write-ahead log, then asking `PRAGMA data_version`).
// Each sample waits a random time, then the writer commits one body edit; the sample ends
// when the reader's six controllers have applied the external commit and every pane has
// been rendered to a 120 × 40 buffer. So the figure includes the file event's way to the
// main queue, the catch-up read and the views.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesFixtures
import NotesStorage
import NotesTerminalUI

/// The cross-process latency figure.
@MainActor
func sharedLibraryFigure(number: Int, fixture: NotesFixture, scale: Scale, sink: Sink) throws
  -> Figure
{
  let samples = max(5, scale.notesViewWrites / 40)
  let target = (median: 5_000_000.0, p99: 20_000_000.0)
  var figure = Figure(
    number: number,
    title:
      "another process's commit → shown in the open app: \(grouped(fixture.library.notes.count))"
      + " notes, one body edit by a second connection → file event → catch-up →"
      + " 6 controllers → all panes rendered",
    kind: .scaledTime(unit: "ms", nanosecondsPerUnit: 1_000_000))

  let path = try fixture.folder.copy(fixture.path, to: "shared.sqlite")
  let readerDatabase = try NotesDatabase(path: path)
  let writerDatabase = try NotesDatabase(path: path)
  defer {
    readerDatabase.close()
    writerDatabase.close()
  }
  let readerModel = Model(try readerDatabase.loadState(), storage: readerDatabase)
  let writerModel = Model(try writerDatabase.loadState(), storage: writerDatabase)
  let writer = ActionDispatcher(model: writerModel)
  let app = TerminalApplication(
    model: readerModel, syncService: SimulatedSyncService(stepDelay: .zero), now: { Date() })
  defer { app.shutdown() }
  let watcher = LibraryWatcher(database: readerDatabase, model: readerModel)
  watcher.start()
  defer { watcher.cancel() }

  guard let note = writerModel.state.notes.elements.first?.id else { return figure }
  var arrived: UInt64?
  let observation = readerModel.observeCommits { commit in
    if case .external = commit.origin { arrived = DispatchTime.now().uptimeNanoseconds }
  }
  defer { observation.cancel() }
  var random = SeededRandomNumberGenerator(seed: 0x5EED_0013)
  var latencies: [Double] = []
  var missed = 0
  for sample in 0..<samples {
    RunLoop.main.run(until: Date(timeIntervalSinceNow: Double(random.next() % 100) / 1_000))
    arrived = nil
    let start = DispatchTime.now().uptimeNanoseconds
    _ = writer.dispatch(EditNoteBody(id: note, body: "edited elsewhere \(sample)", now: Date()))
    let deadline = Date(timeIntervalSinceNow: 2)
    while arrived == nil, Date() < deadline {
      _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
    }
    guard arrived != nil, readerModel.state.notes[note]?.body == "edited elsewhere \(sample)"
    else {
      missed += 1
      continue
    }
    let screen = app.render(width: 120, height: 40)
    let end = DispatchTime.now().uptimeNanoseconds
    latencies.append(Double(end - start))
    sink.count += 1
    sink.total &+= screen.width
  }
  guard !latencies.isEmpty else {
    figure.notes.append("WARNING: no sample arrived within 2 s (\(missed) missed)")
    return figure
  }
  let stats = Stats(samples: latencies)
  let p99 = nearestRank(latencies, 0.99)
  let met = stats.median <= target.median && p99 <= target.p99 && missed == 0
  figure.rows.append(
    Row(
      benchmark: "shared-library", subject: "commit in one process → other app's screen",
      operations: 1, repetitions: latencies.count, time: stats,
      extras: [
        ("p99_ns_per_op", .double(p99)), ("missed", .int(missed)),
        ("target_median_ns", .double(target.median)), ("target_p99_ns", .double(target.p99)),
        ("target_met", .bool(met)), ("wake", .string("\(watcher.wake.map { "\($0)" } ?? "-")")),
      ],
      comment: "p99 \(formatted(p99 / 1_000_000, digits: 1)) ms"))
  figure.notes.append(
    "target median ≤ 5 ms, p99 ≤ 20 ms: " + (met ? "met" : "MISSED")
      + " (median \(formatted(stats.median / 1_000_000, digits: 2)) ms, p99"
      + " \(formatted(p99 / 1_000_000, digits: 1)) ms, \(missed) missed); the watcher woke on"
      + " \(watcher.wake == .fileEvents ? "file events" : "a timer (no file watch here)")")
  return figure
}
