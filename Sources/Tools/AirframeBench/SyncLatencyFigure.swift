// Figure 14, sync-latency: an edit on device A shown on device B's screen.
//
// Both devices run as the `notes` app does: each library is opened
// and started by `NotesLibrary` (the program's own path: watcher, server sync service,
// live sync). B shows a `TerminalApplication` on its session; A's local commits push as in
// the app. Each sample: both devices idle, a random wait of 0–50 ms,
// then A commits one `EditNoteBody` through its model (origin `.user`); the sample ends
// when B's model has committed the new body with an `.external` origin, B's note list row
// (and, for the note open in B's editor, the editor's state) show it, and B's every pane
// has been rendered to a 120 × 40 buffer. Even samples edit the note open in B's editor,
// odd ones a random listed note.

import Airframe
import AirframeTesting
import Dispatch
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesFixtures
@_spi(Instrumentation) import NotesHost
@_spi(Instrumentation) import NotesPresentation
import NotesServer
import NotesStorage
import NotesSync
import NotesTerminalUI

#if canImport(Glibc)
  import Glibc
#endif

/// What the samples of figure 14 measured, each in nanoseconds.
struct LiveLatency {
  /// From A's commit to B's screen.
  var latencies: [Double] = []
  /// The parts, for the samples whose both syncs were seen starting: A's commit → A's sync
  /// starts, → B's sync starts, → B's model applies the edit.
  var untilASyncs: [Double] = []
  var untilBSyncs: [Double] = []
  var untilBApplied: [Double] = []
  /// B's model applied the edit → list and editor checked, panes rendered.
  var toScreen: [Double] = []
  /// Edits that did not reach B within 5 s.
  var missed = 0
  /// Samples whose list or editor did not show the new body.
  var stale = 0
  /// Failed syncs seen on either device.
  var failures: [String] = []
}

/// Runs both devices as the app does and times `samples` edits from A to B's screen.
@MainActor
func measureLiveLatency(
  devices: SyncedDevices, samples: Int, warmUp: Int, sink: Sink
) throws -> LiveLatency {
  // Device B: the app, opened and started as the `notes` program opens its library.
  let bLibrary = try NotesLibrary.open(path: devices.b, samples: .never)
  defer { bLibrary.close() }
  let bModel = bLibrary.model
  let app = TerminalApplication(session: bLibrary.session)
  defer { app.shutdown() }
  bLibrary.start()
  guard bLibrary.isSyncingLive else { throw SyncBenchError(description: "device B has no server") }

  // Device A: a session on its own library, opened and syncing the same way.
  let aLibrary = try NotesLibrary.open(path: devices.a, samples: .never)
  defer { aLibrary.close() }
  let aModel = aLibrary.model
  let aSession = aLibrary.session
  aLibrary.start()
  guard aLibrary.isSyncingLive else { throw SyncBenchError(description: "device A has no server") }
  let aDispatcher = ActionDispatcher(model: aModel)

  // Local ids differ between devices; the creation date (synced, unique in the fixture)
  // names a note on both.
  var aNotes: [Double: NoteID] = [:]
  for note in aModel.state.notes.elements {
    aNotes[note.created.timeIntervalSinceReferenceDate] = note.id
  }
  let sessions = [app.session, aSession]
  // Both start with a sync (the sync driver's startLive); wait for them.
  guard settle(sessions, quiet: 0.2, timeout: 30) else {
    throw SyncBenchError(description: "the devices' first live syncs did not finish in 30 s")
  }

  // What one sample waits for, set by the observers.
  var target: (id: NoteID, body: String)?
  var arrived: UInt64?
  var aSyncStarted: UInt64?
  var bSyncStarted: UInt64?
  let bObservation = bModel.observeCommits { commit in
    if case .external = commit.origin, arrived == nil, let target,
      commit.state.notes[target.id]?.body == target.body
    {
      arrived = monotonicNanoseconds()
    }
  }
  defer { bObservation.cancel() }
  // Every sync says so in the model from its first moment.
  let bStarts = bModel.observeCommits { commit in
    if case .syncing = commit.state.sync, bSyncStarted == nil {
      bSyncStarted = monotonicNanoseconds()
    }
  }
  defer { bStarts.cancel() }
  let aStarts = aModel.observeCommits { commit in
    if case .syncing = commit.state.sync, aSyncStarted == nil {
      aSyncStarted = monotonicNanoseconds()
    }
  }
  defer { aStarts.cancel() }

  var random = SeededRandomNumberGenerator(seed: 0x5EED_0014)
  var measured = LiveLatency()
  for sample in 0..<(warmUp + samples) {
    _ = settle(sessions, quiet: 0.01 + Double(random.next() % 50) / 1_000, timeout: 5)
    let list = app.session.list
    let opened = app.session.editorState.value.noteID
    let bID =
      sample.isMultiple(of: 2) || list.count < 2
      ? opened ?? list.row(at: 0).id : list.row(at: Int(random.next() % UInt64(list.count))).id
    guard let created = bModel.state.notes[bID]?.created,
      let aID = aNotes[created.timeIntervalSinceReferenceDate]
    else { throw SyncBenchError(description: "note \(bID) of device B is not on device A") }
    let body = "edited on device A, sample \(sample): \(random.next())"
    target = (bID, body)
    arrived = nil
    aSyncStarted = nil
    bSyncStarted = nil

    let start = monotonicNanoseconds()
    let outcome = aDispatcher.dispatch(EditNoteBody(id: aID, body: body, now: Date()))
    guard outcome.isCommitted else {
      throw SyncBenchError(description: "device A's edit did not commit: \(outcome)")
    }
    let deadline = Date(timeIntervalSinceNow: 5)
    while arrived == nil, Date() < deadline {
      _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
    }
    guard let arrivedAt = arrived else {
      measured.missed += 1
      if let message = failure(of: aModel) { measured.failures.append("A: " + message) }
      if let message = failure(of: bModel) { measured.failures.append("B: " + message) }
      continue
    }
    let listShows = app.session.list.row(for: bID)?.body == body
    let editor = app.session.editorState.value
    let editorShows = editor.noteID != bID || (editor.body == body && !editor.isDirty)
    let screen = app.render(width: 120, height: 40)
    let end = monotonicNanoseconds()
    if !listShows || !editorShows { measured.stale += 1 }
    guard sample >= warmUp else { continue }
    measured.latencies.append(Double(end - start))
    if let aSync = aSyncStarted, let bSync = bSyncStarted, aSync <= bSync, bSync <= arrivedAt {
      measured.untilASyncs.append(Double(aSync - start))
      measured.untilBSyncs.append(Double(bSync - aSync))
      measured.untilBApplied.append(Double(arrivedAt - bSync))
    }
    measured.toScreen.append(Double(end - arrivedAt))
    sink.count += 1
    sink.total &+= screen.width
  }
  _ = settle(sessions, quiet: 0.05, timeout: 5)
  return measured
}

/// Median nanoseconds of `SyncEngine.sync()` on its own (no app, no sync driver): with nothing
/// to do, pushing one edited note, and the other device pulling it.
@MainActor
func engineAlone(devices: SyncedDevices, runs: Int) throws
  -> (idle: Double, pushOne: Double, pullOne: Double)
{
  let database = try NotesDatabase(path: devices.a)
  defer { database.close() }
  let model = Model(try database.loadState(), storage: database)
  let dispatcher = ActionDispatcher(model: model)
  let pusher = try SyncEngine(libraryPath: devices.a)
  defer { pusher.close() }
  let puller = try SyncEngine(libraryPath: devices.b)
  defer { puller.close() }
  guard let note = model.state.notes.elements.map(\.id).max(by: { $0.rawValue < $1.rawValue })
  else { return (.nan, .nan, .nan) }
  try pusher.sync()
  try puller.sync()
  var idle: [Double] = []
  var pushes: [Double] = []
  var pulls: [Double] = []
  for run in 0..<runs {
    var start = monotonicNanoseconds()
    try pusher.sync()
    idle.append(Double(monotonicNanoseconds() - start))
    let outcome = dispatcher.dispatch(
      EditNoteBody(id: note, body: "edited alone, run \(run)", now: Date()))
    guard outcome.isCommitted else {
      throw SyncBenchError(description: "an edit did not commit: \(outcome)")
    }
    start = monotonicNanoseconds()
    try pusher.sync()
    pushes.append(Double(monotonicNanoseconds() - start))
    start = monotonicNanoseconds()
    try puller.sync()
    pulls.append(Double(monotonicNanoseconds() - start))
    if try database.hasExternalChanges() { _ = try model.catchUpWithStorage() }
  }
  return (
    Stats(samples: idle).median, Stats(samples: pushes).median, Stats(samples: pulls).median
  )
}

/// Figure 14: an edit on device A shown on device B, both running as the app does.
@MainActor
func syncLatencyFigure(
  number: Int, devices: SyncedDevices, noteCount: Int, scale: Scale, sink: Sink
) throws -> Figure {
  let samples = scale.syncSamples
  let warmUp = max(2, samples / 10)
  let medianTarget = 10e6
  let p99Target = 50e6
  var figure = Figure(
    number: number,
    title: "edit on device A → shown on device B: \(grouped(noteCount)) notes on each, one"
      + " EditNoteBody on A → A's sync driver pushes → server signal → B's driver pulls → B's"
      + " model, list, editor → all panes rendered (ms)",
    kind: .scaledTime(unit: "ms", nanosecondsPerUnit: 1e6))
  let measured = try measureLiveLatency(
    devices: devices, samples: samples, warmUp: warmUp, sink: sink)
  let latencies = measured.latencies
  guard !latencies.isEmpty else {
    figure.notes.append(
      "WARNING: no edit reached device B within 5 s (\(measured.missed) missed)"
        + (measured.failures.isEmpty ? "" : "; sync failed: \(measured.failures[0])"))
    return figure
  }

  let stats = Stats(samples: latencies)
  let p99 = nearestRank(latencies, 0.99)
  let met =
    stats.median <= medianTarget && p99 <= p99Target && measured.missed == 0
    && measured.stale == 0
  figure.rows.append(
    Row(
      benchmark: "sync-latency", subject: "edit on A → B's screen", operations: 1,
      repetitions: latencies.count, time: stats,
      extras: [
        ("p99_ns_per_op", .double(p99)), ("notes", .int(noteCount)),
        ("missed", .int(measured.missed)), ("stale_checks", .int(measured.stale)),
        ("target_ns_per_op", .double(medianTarget)), ("target_p99_ns", .double(p99Target)),
        ("target_met", .bool(met)),
      ],
      comment: "p99 \(formatted(p99 / 1e6, digits: 1)) ms"))
  figure.notes.append(
    "target: median ≤ \(formatted(medianTarget / 1e6, digits: 0)) ms, p99 ≤"
      + " \(formatted(p99Target / 1e6, digits: 0)) ms: " + (met ? "met" : "MISSED")
      + " (median \(formatted(stats.median / 1e6, digits: 1)) ms, p99"
      + " \(formatted(p99 / 1e6, digits: 1)) ms, \(measured.missed) missed)")
  func median(_ values: [Double]) -> String {
    values.isEmpty ? "n/a" : formatted(Stats(samples: values).median / 1e6, digits: 1)
  }
  figure.notes.append(
    "medians of the parts (\(measured.untilASyncs.count) samples): A's commit → A's sync"
      + " starts \(median(measured.untilASyncs)) ms (at once: the next main-actor turn);"
      + " → B's sync starts (A's pull + push,"
      + " NOTIFY, B's listener, main queue) \(median(measured.untilBSyncs)) ms; → B's model"
      + " applies it (B's pull, apply, catch-up) \(median(measured.untilBApplied)) ms; → list"
      + " and editor checked, panes rendered \(median(measured.toScreen)) ms")
  let alone = try engineAlone(devices: devices, runs: max(5, samples / 5))
  figure.notes.append(
    "SyncEngine.sync() alone afterwards (no app, medians): nothing to do"
      + " \(formatted(alone.idle / 1e6, digits: 1)) ms, pushing one edit"
      + " \(formatted(alone.pushOne / 1e6, digits: 1)) ms, the other device pulling it"
      + " \(formatted(alone.pullOne / 1e6, digits: 1)) ms")
  figure.notes.append(
    "\(latencies.count) samples after \(warmUp) warm-up; even samples edit the note open in"
      + " B's editor, odd ones a random listed note; each waits for both devices to be idle,"
      + " then 0–50 ms")
  if measured.stale > 0 {
    figure.notes.append(
      "WARNING: \(measured.stale) sample(s) found B's note list or editor not showing the new"
        + " body")
  }
  if !measured.failures.isEmpty {
    figure.notes.append(
      "WARNING: \(measured.failures.count) failed sync(s), first: \(measured.failures[0])")
  }
  return figure
}
