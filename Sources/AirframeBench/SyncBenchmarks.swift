// Sync (figures 14–16): libraries synced through a real PostgreSQL server of the run's own.
//
// The server: `TemporaryPostgres`, a new cluster in a temporary folder, listening only on a
// Unix socket there, started with fsync off (`-F`), so the figures leave out the server's
// disk. It is stopped, and its folder removed, at the end whatever happens; so is the
// folder of the library files. Without PostgreSQL's server programs (or when the cluster
// cannot start) the group is skipped with a line on standard error.
//
// Setup, shared by the three figures: a `NotesFixture` of `Scale.syncNotesCount` notes
// (100,000; 200 with --quick) is built, its file copied to device A's file, which is set up
// with an empty server database and an account on it, as the operator (`ServerSchema
// .prepare`, `ServerAccounts.add`) and `notes sync setup` (the password into the run's own
// password file, `PGPASSFILE`; the connection string without it into the library) do, and
// pushes everything with `SyncEngine.sync()`; then a new,
// empty library B is set up with the same server and pulls everything with
// `SyncEngine.sync()`. Both devices then hold the same notes under their own device ids
// (two copies of one file would share the fixture's device id, and each would ignore the
// other's signals as its own).
//
// - sync-first (15): that setup, timed: A's first push, B's first sync. Each run uses a new
//   server database and a new copy of the fixture; the last run's devices are kept for the
//   other figures.
// - sync-latency (14): both devices run as the `notes` app does: each library is opened
//   and started by `NotesLibrary` (the program's own path: watcher, server sync service,
//   live sync). B shows a `TerminalApplication` on its session; A's local commits push as in
//   the app. Each sample: both devices idle, a random wait of 0–50 ms,
//   then A commits one `EditNoteBody` through its model (origin `.user`); the sample ends
//   when B's model has committed the new body with an `.external` origin, B's note list row
//   (and, for the note open in B's editor, the editor's state) show it, and B's every pane
//   has been rendered to a 120 × 40 buffer. Even samples edit the note open in B's editor,
//   odd ones a random listed note.
// - sync-offline (16): on device A (no sync running), `Scale.syncOfflineEdits` notes, each
//   edited once through the model (`EditNoteBody`, one commit each), then
//   `SyncEngine.sync()` on A pushes them (timed), and B's `SyncEngine.sync()` pulls them
//   (timed, second row). One warm-up run, then up to `Scale.repetitions` runs, each on
//   other notes.

import Airframe
import Dispatch
import Foundation
@_spi(Instrumentation) import NotesCore
@_spi(Instrumentation) import NotesHost
import NotesPresentation
import NotesServer
import NotesStorage
import NotesSync
import NotesTerminalUI
import NotesTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// What the sync group produced.
enum SyncFigures {
  /// The selected figures, in number order.
  case measured([Figure])
  /// PostgreSQL could not be started here, and why.
  case skipped(String)
}

/// A device that did not sync as it should.
struct SyncBenchError: Error, CustomStringConvertible {
  var description: String
}

/// Figures 14 (`sync-latency`), 15 (`sync-first`) and 16 (`sync-offline`), those selected.
@MainActor
func syncFigures(firstNumber: Int, options: Options, scale: Scale, sink: Sink) throws
  -> SyncFigures
{
  let server: TemporaryPostgres
  do {
    server = try TemporaryPostgres.start()
  } catch let failure as TemporaryPostgres.StartFailure {
    return .skipped(failure.description)
  }
  defer { server.stop() }
  let folder = try ScratchFolder()
  defer { folder.remove() }
  // The devices' password file: the run's own, never the user's ~/.pgpass.
  setenv("PGPASSFILE", folder.file("pgpass"), 1)
  let fixture = try NotesFixture(noteCount: scale.syncNotesCount, folder: folder)

  // Figure 15 and the devices of the others.
  let runs = options.selects("sync-first") ? scale.syncFirstRuns : 1
  var firstRuns: [FirstSyncRun] = []
  var devices: SyncedDevices?
  var spent = 0.0
  for run in 0..<runs {
    if let previous = devices {
      try previous.remove(on: server)
    }
    let synced = try firstSync(run: run, fixture: fixture, server: server)
    devices = synced.devices
    firstRuns.append(synced.run)
    // Another run only while the runs so far took under a minute.
    spent += synced.run.pushNanoseconds + synced.run.pullNanoseconds
    if spent > 60e9 { break }
  }
  guard let devices else { throw SyncBenchError(description: "no first sync ran") }

  var figures: [Figure] = []
  if options.selects("sync-latency") {
    figures.append(
      try syncLatencyFigure(
        number: firstNumber, devices: devices, noteCount: fixture.library.notes.count,
        scale: scale, sink: sink))
  }
  if options.selects("sync-first") {
    figures.append(
      try firstSyncFigure(
        number: firstNumber + 1, runs: firstRuns, fixture: fixture, devices: devices,
        sink: sink))
  }
  if options.selects("sync-offline") {
    figures.append(
      try syncOfflineFigure(
        number: firstNumber + 2, devices: devices, scale: scale, sink: sink))
  }
  return .measured(figures)
}

// MARK: - Devices

/// Two library files synced with one server database.
private struct SyncedDevices {
  /// Device A's library: the fixture's copy, which pushed everything.
  let a: String
  /// Device B's library: new and empty, then filled by its first sync.
  let b: String
  /// The server database both sync with.
  let url: String
  /// The database's name on the server.
  let databaseName: String

  /// Deletes both files, drops the server database and its account.
  func remove(on server: TemporaryPostgres) throws {
    for path in [a, b] {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
    let admin = try PostgresConnection(url: server.url)
    defer { admin.close() }
    try admin.execute("DROP DATABASE IF EXISTS \(databaseName) WITH (FORCE)")
    try admin.execute("DROP ROLE IF EXISTS \(databaseName)")
  }
}

/// A new database on `server` with the notes schema and an account of the same name, as
/// the operator makes them.
///
/// - Returns: The account's connection URL, password included.
func makeServerDatabase(_ name: String, on server: TemporaryPostgres) throws -> String {
  let admin = try PostgresConnection(url: server.url)
  defer { admin.close() }
  try admin.execute("CREATE DATABASE \(name)")
  let operatorURL = server.url.replacing("///postgres?", with: "///\(name)?")
  guard operatorURL != server.url else {
    throw SyncBenchError(description: "unexpected server URL \(server.url)")
  }
  let connection = try PostgresConnection(url: operatorURL)
  defer { connection.close() }
  try ServerSchema.prepare(connection)
  let password = "bench password"
  try ServerAccounts.add(name, password: password, on: connection)
  return server.url(user: name, password: password, database: name)
}

/// Sets the library at `path` up to sync with `url`, as `notes sync setup` does: the
/// password into the password file, the connection string without it into the library.
func setUpSync(path: String, url: String) throws {
  let settings = try ConnectionSettings(url)
  let server = try SyncServer(settings: settings)
  defer { server.close() }
  _ = try server.storePassword(of: settings)
  let store = try LibrarySyncStore(path: path)
  defer { store.close() }
  try store.setServer(settings.connectionString)
}

/// One run of figure 15.
private struct FirstSyncRun {
  /// A's `SyncEngine.sync()`: everything pushed to the empty server.
  var pushNanoseconds: Double
  /// Of which: from the start until the changes to push were collected (the push began).
  var collectNanoseconds: Double?
  /// Of which: each batch of the push, from the previous one's answer to its own.
  var batchNanoseconds: [Double]
  /// B's `SyncEngine.sync()`: everything pulled into the empty library.
  var pullNanoseconds: Double
  /// Nanoseconds of each page B pulled (the first includes the sync's start).
  var pageNanoseconds: [Double]
  var pushed: Int
  var pulled: Int
  var applied: Int
  /// Notes in B's library afterwards.
  var notesOnB: Int
  /// CPU time this process used during A's sync and during B's.
  var pushCPUNanoseconds: Double
  var pullCPUNanoseconds: Double
}

/// Nanoseconds on the monotonic clock.
private func monotonicNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Nanoseconds of CPU time this process (every thread) has used; not the server's.
private func processCPUNanoseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

/// A's first push to a new server database, then B's first sync from it.
@MainActor
private func firstSync(run: Int, fixture: NotesFixture, server: TemporaryPostgres) throws
  -> (devices: SyncedDevices, run: FirstSyncRun)
{
  let name = "notes_bench_\(run)"
  let url = try makeServerDatabase(name, on: server)
  let devices = SyncedDevices(
    a: try fixture.folder.copy(fixture.path, to: "sync-a-\(run).sqlite"),
    b: fixture.folder.file("sync-b-\(run).sqlite"), url: url, databaseName: name)
  // B: a new library, created (and migrated) by NotesDatabase as the app would.
  try NotesDatabase(path: devices.b).close()
  try setUpSync(path: devices.a, url: url)
  try setUpSync(path: devices.b, url: url)

  let pusher = try SyncEngine(libraryPath: devices.a)
  defer { pusher.close() }
  // A's sync calls progress when the push starts (everything collected), after each batch
  // the server answered, and once the acknowledgements are recorded.
  var pushStamps: [UInt64] = []
  let pushCPU = processCPUNanoseconds()
  let pushStart = monotonicNanoseconds()
  let pushReport = try pusher.sync { _ in pushStamps.append(monotonicNanoseconds()) }
  let pushEnd = monotonicNanoseconds()
  let pushCPUNanoseconds = processCPUNanoseconds() - pushCPU

  let puller = try SyncEngine(libraryPath: devices.b)
  defer { puller.close() }
  var pullStamps: [UInt64] = []
  let pullCPU = processCPUNanoseconds()
  let pullStart = monotonicNanoseconds()
  let pullReport = try puller.sync { _ in pullStamps.append(monotonicNanoseconds()) }
  let pullEnd = monotonicNanoseconds()
  let pullCPUNanoseconds = processCPUNanoseconds() - pullCPU

  // B's pages: every progress call but the last (which follows the empty push).
  var pages: [Double] = []
  var previous = pullStart
  for stamp in pullStamps.dropLast() {
    pages.append(Double(stamp - previous))
    previous = stamp
  }
  let check = try NotesDatabase(path: devices.b)
  let notesOnB = try check.loadState().notes.count
  check.close()
  return (
    devices,
    FirstSyncRun(
      pushNanoseconds: Double(pushEnd - pushStart),
      collectNanoseconds: pushStamps.first.map { Double($0 - pushStart) },
      batchNanoseconds: zip(pushStamps.dropLast(), pushStamps.dropFirst().dropLast()).map {
        Double($1 - $0)
      },
      pullNanoseconds: Double(pullEnd - pullStart), pageNanoseconds: pages,
      pushed: pushReport.pushed, pulled: pullReport.pulled, applied: pullReport.applied,
      notesOnB: notesOnB, pushCPUNanoseconds: pushCPUNanoseconds,
      pullCPUNanoseconds: pullCPUNanoseconds)
  )
}

/// Runs the main run loop until no session syncs for `quiet` seconds, or `timeout` passes.
///
/// - Returns: Whether they went quiet.
@MainActor
private func settle(_ sessions: [NotesSession], quiet: Double, timeout: Double) -> Bool {
  let deadline = Date(timeIntervalSinceNow: timeout)
  var quietSince: Date?
  while Date() < deadline {
    _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
    if sessions.contains(where: \.isSyncing) {
      quietSince = nil
    } else if let since = quietSince {
      if Date().timeIntervalSince(since) >= quiet { return true }
    } else {
      quietSince = Date()
    }
  }
  return false
}

/// The failure message of a model's last sync, if it failed.
@MainActor
private func failure(of model: Model<NotesState>) -> String? {
  if case .failed(let message, _) = model.state.sync { message } else { nil }
}

// MARK: - Figure 14

/// What the samples of figure 14 measured, each in nanoseconds.
private struct LiveLatency {
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
private func measureLiveLatency(
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
  // Both start with a sync (LiveSync.start); wait for them.
  guard settle(sessions, quiet: 0.2, timeout: 30) else {
    throw SyncBenchError(description: "the devices' first live syncs did not finish in 30 s")
  }

  // What one sample waits for, set by the observers.
  var target: (id: NoteID, body: String)?
  var arrived: UInt64?
  var aSyncStarted: UInt64?
  var bSyncStarted: UInt64?
  let bObservation = bModel.observeCommits { commit in
    switch commit.origin {
    case .external:
      if arrived == nil, let target, commit.state.notes[target.id]?.body == target.body {
        arrived = monotonicNanoseconds()
      }
    case .background:
      if bSyncStarted == nil, case .syncing = commit.state.sync {
        bSyncStarted = monotonicNanoseconds()
      }
    case .user: break
    }
  }
  defer { bObservation.cancel() }
  let aObservation = aModel.observeCommits { commit in
    if case .background = commit.origin, aSyncStarted == nil, case .syncing = commit.state.sync {
      aSyncStarted = monotonicNanoseconds()
    }
  }
  defer { aObservation.cancel() }

  var random = BenchRandom(state: 0x5EED_0014)
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

/// Median nanoseconds of `SyncEngine.sync()` on its own (no app, no LiveSync): with nothing
/// to do, pushing one edited note, and the other device pulling it.
@MainActor
private func engineAlone(devices: SyncedDevices, runs: Int) throws
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
private func syncLatencyFigure(
  number: Int, devices: SyncedDevices, noteCount: Int, scale: Scale, sink: Sink
) throws -> Figure {
  let samples = scale.syncSamples
  let warmUp = max(2, samples / 10)
  let medianTarget = 10e6
  let p99Target = 50e6
  var figure = Figure(
    number: number,
    title: "edit on device A → shown on device B: \(grouped(noteCount)) notes on each, one"
      + " EditNoteBody on A → LiveSync push → server signal → B's LiveSync pull → B's"
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

// MARK: - Figure 15

/// Figure 15: the first push of the whole library to an empty server, and the first sync
/// of an empty device from it.
@MainActor
private func firstSyncFigure(
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
      "push, last run: \(formatted(collect / 1e9, digits: 2)) s to collect the"
      + " \(grouped(entities)) changes (LibrarySyncStore.outgoingChanges), "
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

// MARK: - Figure 16

/// Figure 16: edits made offline on one device, pushed back by its next sync.
@MainActor
private func syncOfflineFigure(
  number: Int, devices: SyncedDevices, scale: Scale, sink: Sink
) throws -> Figure {
  let database = try NotesDatabase(path: devices.a)
  defer { database.close() }
  let model = Model(try database.loadState(), storage: database)
  let dispatcher = ActionDispatcher(model: model)
  let noteIDs = model.state.notes.elements.map(\.id).sorted { $0.rawValue < $1.rawValue }
  let edits = min(scale.syncOfflineEdits, noteIDs.count)
  let target = 1e9
  var figure = Figure(
    number: number,
    title: "\(grouped(edits)) offline edits back to the server: \(grouped(edits)) notes of"
      + " \(grouped(noteIDs.count)) each edited once through the model with no sync running,"
      + " then SyncEngine.sync() (ms)",
    kind: .scaledTime(unit: "ms", nanosecondsPerUnit: 1e6))
  let pusher = try SyncEngine(libraryPath: devices.a)
  defer { pusher.close() }
  let puller = try SyncEngine(libraryPath: devices.b)
  defer { puller.close() }

  var random = BenchRandom(state: 0x5EED_0016)
  var order = noteIDs
  order.shuffle(using: &random)
  var next = 0
  var editSamples: [Double] = []
  var catchUps: [Double] = []
  var pushCPUs: [Double] = []
  var pullCPUs: [Double] = []
  var wrongCounts = 0
  /// One run: the edits, then the timed push and pull.
  func run(_ index: Int) throws -> (push: Double, pull: Double) {
    for step in 0..<edits {
      let id = order[next % order.count]
      next += 1
      let action = EditNoteBody(
        id: id, body: "edited offline, run \(index), edit \(step)", now: Date())
      let start = monotonicNanoseconds()
      let outcome = dispatcher.dispatch(action)
      editSamples.append(Double(monotonicNanoseconds() - start))
      guard outcome.isCommitted else {
        throw SyncBenchError(description: "an offline edit did not commit: \(outcome)")
      }
    }
    let pushCPU = processCPUNanoseconds()
    let pushStart = monotonicNanoseconds()
    let pushed = try pusher.sync()
    let pushEnd = monotonicNanoseconds()
    pushCPUs.append(processCPUNanoseconds() - pushCPU)
    if try database.hasExternalChanges() { _ = try model.catchUpWithStorage() }
    catchUps.append(Double(monotonicNanoseconds() - pushEnd))
    let pullCPU = processCPUNanoseconds()
    let pullStart = monotonicNanoseconds()
    let pulled = try puller.sync()
    let pullEnd = monotonicNanoseconds()
    pullCPUs.append(processCPUNanoseconds() - pullCPU)
    if pushed.pushed != edits || pulled.pulled != edits || pushed.pending != 0 {
      wrongCounts += 1
    }
    sink.count += pushed.pushed
    sink.total &+= pulled.applied
    return (Double(pushEnd - pushStart), Double(pullEnd - pullStart))
  }

  let warm = try run(0)
  var rounds = scale.repetitions
  var budgetNote: String?
  if let budget = scale.budgetSeconds, (warm.push + warm.pull) * Double(rounds) > budget * 1e9 {
    rounds = min(rounds, max(3, Int(budget * 1e9 / (warm.push + warm.pull))))
    if rounds < scale.repetitions {
      budgetNote =
        "time budget: \(rounds) timed runs instead of \(scale.repetitions) (a run took"
        + " \(formatted((warm.push + warm.pull) / 1e9, digits: 1)) s)"
    }
  }
  var pushes: [Double] = []
  var pulls: [Double] = []
  for index in 1...rounds {
    let timed = try run(index)
    pushes.append(timed.push)
    pulls.append(timed.pull)
  }
  let push = Stats(samples: pushes)
  let pull = Stats(samples: pulls)
  let met = push.median <= target && wrongCounts == 0
  figure.rows.append(
    Row(
      benchmark: "sync-offline", subject: "A's sync pushes \(grouped(edits)) edits",
      operations: 1, repetitions: rounds, time: push,
      extras: [
        ("edits", .int(edits)), ("notes", .int(noteIDs.count)),
        ("ns_per_edit", .double(push.median / Double(edits))),
        ("target_ns_per_op", .double(target)), ("target_met", .bool(met)),
      ],
      comment: "\(formatted(push.median / Double(edits) / 1e3, digits: 0)) µs per edit"))
  figure.rows.append(
    Row(
      benchmark: "sync-offline", subject: "B's next sync pulls them", operations: 1,
      repetitions: rounds, time: pull,
      extras: [
        ("edits", .int(edits)), ("notes", .int(noteIDs.count)),
        ("ns_per_edit", .double(pull.median / Double(edits))),
      ],
      comment: "\(formatted(pull.median / Double(edits) / 1e3, digits: 0)) µs per edit"))
  figure.notes.append(
    "target: push ≤ \(formatted(target / 1e9, digits: 0)) s: " + (met ? "met" : "MISSED")
      + " (\(formatted(push.median / 1e9, digits: 3)) s)")
  let editStats = Stats(samples: editSamples)
  figure.notes.append(
    "each run: \(grouped(edits)) EditNoteBody commits on notes not edited before (median"
      + " \(formatted(editStats.median / 1e3, digits: 0)) µs each, not timed above), then A's"
      + " sync; A's model then catches up with what the sync wrote in"
      + " \(formatted(Stats(samples: catchUps).median / 1e6, digits: 1)) ms (not timed); 1"
      + " warm-up run")
  figure.notes.append(
    "CPU time of this process (not the server's), medians over all runs:"
      + " \(formatted(Stats(samples: pushCPUs).median / 1e6, digits: 0)) ms during A's sync,"
      + " \(formatted(Stats(samples: pullCPUs).median / 1e6, digits: 0)) ms during B's")
  if let budgetNote { figure.notes.append(budgetNote) }
  if wrongCounts > 0 {
    figure.notes.append(
      "WARNING: \(wrongCounts) run(s) pushed or pulled another number of changes than"
        + " \(grouped(edits)), or left changes pending")
  }
  return figure
}
