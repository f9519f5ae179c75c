// SyncFixtures: the sync figures' (14–16) server, devices and first sync, run once and
// shared by the three; which of them run.
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

/// The sync group's figures: those `numbers` names (`sync-latency`, `sync-first`,
/// `sync-offline`), each printed with its number.
@MainActor
func syncFigures(numbers: [String: Int], scale: Scale, sink: Sink) throws
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
  let runs = numbers["sync-first"] != nil ? scale.syncFirstRuns : 1
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
  if let number = numbers["sync-latency"] {
    figures.append(
      try syncLatencyFigure(
        number: number, devices: devices, noteCount: fixture.library.notes.count,
        scale: scale, sink: sink))
  }
  if let number = numbers["sync-first"] {
    figures.append(
      try firstSyncFigure(
        number: number, runs: firstRuns, fixture: fixture, devices: devices,
        sink: sink))
  }
  if let number = numbers["sync-offline"] {
    figures.append(
      try syncOfflineFigure(
        number: number, devices: devices, scale: scale, sink: sink))
  }
  return .measured(figures)
}

// MARK: - Devices

/// Two library files synced with one server database.
struct SyncedDevices {
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
struct FirstSyncRun {
  /// A's `SyncEngine.sync()`: everything pushed to the empty server.
  var pushNanoseconds: Double
  /// Of which: from the start until the push began (its first batch collected).
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
func monotonicNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Nanoseconds of CPU time this process (every thread) has used; not the server's.
func processCPUNanoseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

/// A's first push to a new server database, then B's first sync from it.
@MainActor
func firstSync(run: Int, fixture: NotesFixture, server: TemporaryPostgres) throws
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
  // A's sync calls progress when the push starts (its first batch collected), after each batch
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
func settle(_ sessions: [NotesSession], quiet: Double, timeout: Double) -> Bool {
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
func failure(of model: Model<NotesState>) -> String? {
  if case .failed(let message, _) = model.state.sync { message } else { nil }
}
