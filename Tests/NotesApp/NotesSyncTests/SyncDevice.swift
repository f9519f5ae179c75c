// The test bench for sync: devices (library files with their models and engines) and a
// real PostgreSQL server the tests start and stop themselves, on which the devices sync as
// one account (a login role with a password, as `notes server add-account` makes).

import Airframe
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesServer
import NotesTestSupport
import Testing

@testable import NotesStorage
@testable import NotesSync

/// One device: a library file, the model the app would run on it, and its sync engine.
@MainActor
final class SyncDevice {
  let name: String
  let path: String
  let serverURL: String
  /// How long the device's connections wait on the network.
  let bounds: NetworkBounds
  /// The device's clock: what its actions stamp and its new entities' uids carry.
  let clock: DeviceClock
  private(set) var database: NotesDatabase
  private(set) var model: Model<NotesState>
  private(set) var engine: SyncEngine

  /// Now, by the device's clock.
  var now: Date { clock.now }

  private init(
    name: String, path: String, serverURL: String, bounds: NetworkBounds, clock: DeviceClock,
    database: NotesDatabase, engine: SyncEngine
  ) throws {
    self.name = name
    self.path = path
    self.serverURL = serverURL
    self.bounds = bounds
    self.clock = clock
    self.database = database
    model = Model(try database.loadState(), storage: database)
    self.engine = engine
  }

  /// A new library set up to sync with `serverURL`; the engine connects on a thread of its
  /// own.
  ///
  /// The library stores the URL without its password, as `notes sync setup` does; the
  /// engine is given the URL with it (a test has no password file of its own).
  static func make(
    name: String, folder: TemporaryFolder, serverURL: String, bounds: NetworkBounds = .standard,
    clock: DeviceClock = DeviceClock()
  ) async throws -> SyncDevice {
    let path = folder.file("\(name).notes")
    let database = try openDatabase(path, clock: clock)
    let engine = try await onThreadOfItsOwn {
      let store = try LibrarySyncStore(path: path)
      try store.setServer(try ConnectionSettings(serverURL).connectionString)
      store.close()
      return UncheckedEngine(
        engine: try SyncEngine(libraryPath: path, serverURL: serverURL, bounds: bounds))
    }
    return try SyncDevice(
      name: name, path: path, serverURL: serverURL, bounds: bounds, clock: clock,
      database: database, engine: engine.engine)
  }

  /// The library at `path`, its uids made by `clock`.
  private static func openDatabase(_ path: String, clock: DeviceClock) throws -> NotesDatabase {
    try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: FullTextIndex.isAvailable,
      schemaVersion: Migration.latestVersion, clock: { clock.now })
  }

  /// One sync, then the model catches up as the app's watcher would.
  ///
  /// The engine runs on a thread of its own, as the app runs it on a queue: the main actor
  /// is free meanwhile.
  @discardableResult
  func sync() async throws -> SyncReport {
    let engine = UncheckedEngine(engine: engine)
    let report = try await onThreadOfItsOwn { try engine.engine.sync() }
    try catchUp()
    return report
  }

  /// Pushes; a refused change's merge is written to the library, which the model then
  /// catches up with, as the app's does when its library changes.
  func push() async throws {
    let engine = UncheckedEngine(engine: engine)
    _ = try await onThreadOfItsOwn { try engine.engine.push() }
    try catchUp()
  }

  func pull() async throws {
    let engine = UncheckedEngine(engine: engine)
    _ = try await onThreadOfItsOwn { try engine.engine.pull() }
    try catchUp()
  }

  func catchUp() throws {
    if try database.hasExternalChanges() { try model.catchUpWithStorage() }
  }

  /// A push whose acknowledgement is lost: the server commits, the device never hears.
  func pushLosingTheAcknowledgement() async throws {
    let (path, serverURL) = (path, serverURL)
    try await onThreadOfItsOwn {
      let store = try LibrarySyncStore(path: path)
      defer { store.close() }
      let server = try SyncServer(url: serverURL)
      defer { server.close() }
      _ = try server.push(try store.outgoingChanges(), device: store.deviceID)
    }
  }

  /// The process is killed and started again: everything in memory is gone.
  func restart() async throws {
    engine.close()
    database.close()
    database = try Self.openDatabase(path, clock: clock)
    model = Model(try database.loadState(), storage: database)
    let (path, serverURL, bounds) = (path, serverURL, bounds)
    engine = try await onThreadOfItsOwn {
      UncheckedEngine(
        engine: try SyncEngine(libraryPath: path, serverURL: serverURL, bounds: bounds))
    }.engine
  }

  func close() {
    engine.close()
    database.close()
  }

  /// A copy of this library's file, as a user copies it with the app closed.
  ///
  /// The copy, `name`, is in this library's folder, with the same device id and server;
  /// its engine has a sender of its own. This device is closed for the copy and opened
  /// again, as ``restart()`` does.
  func copy(as name: String) async throws -> SyncDevice {
    engine.close()
    database.close()
    let copyPath = URL(fileURLWithPath: path).deletingLastPathComponent()
      .appendingPathComponent("\(name).notes").path
    try FileManager.default.copyItem(atPath: path, toPath: copyPath)
    try await restart()
    let copyDatabase = try Self.openDatabase(copyPath, clock: clock)
    let (serverURL, bounds) = (serverURL, bounds)
    let engine = try await onThreadOfItsOwn {
      UncheckedEngine(
        engine: try SyncEngine(libraryPath: copyPath, serverURL: serverURL, bounds: bounds))
    }
    return try SyncDevice(
      name: name, path: copyPath, serverURL: serverURL, bounds: bounds, clock: clock,
      database: copyDatabase, engine: engine.engine)
  }

  // MARK: Editing, as the app does (through the model)

  @discardableResult
  func createNotebook(_ title: String) throws -> NotebookID {
    let result = ActionDispatcher(model: model).dispatch(CreateNotebook(title: title, now: now))
    return try #require(result.createdID(in: \NotesState.notebooks), "\(result)")
  }

  @discardableResult
  func createNote(_ title: String, body: String = "", in notebook: String) throws -> NoteID {
    let notebook = try #require(self.notebookID(titled: notebook), "no notebook \(notebook)")
    let result = ActionDispatcher(model: model).dispatch(
      CreateNote(notebookID: notebook, title: title, body: body, now: now))
    return try #require(result.createdID(in: \NotesState.notes), "\(result)")
  }

  func edit(_ title: String, _ change: (inout Note) -> Void) throws {
    let id = try #require(note(titled: title)?.id, "\(name) has no note \(title)")
    try model.write(origin: .user("edit")) { try $0.update(id, in: \.notes, change) }
  }

  func delete(_ title: String) throws {
    let id = try #require(note(titled: title)?.id, "\(name) has no note \(title)")
    try model.write(origin: .user("delete")) { try $0.remove(id, from: \.notes) }
  }

  func note(titled title: String) -> Note? {
    model.state.notes.elements.first { $0.title == title }
  }

  func notebookID(titled title: String) -> NotebookID? {
    model.state.notebooks.elements.first { $0.title == title }?.id
  }

  func notebookTitle(of note: Note) -> String? {
    model.state.notebooks[note.notebookID]?.title
  }

  func notices() throws -> [String] {
    let store = try LibrarySyncStore(path: path)
    defer { store.close() }
    return try store.notices()
  }

  // MARK: Comparing

  /// The library as every device must agree on it: entities by uid (read on a thread of
  /// its own).
  func content() async throws -> SyncedContent {
    let path = path
    return try await onThreadOfItsOwn { try Self.content(of: path) }
  }

  nonisolated static func content(of path: String) throws -> SyncedContent {
    let connection = try SQLiteConnection(path: path, create: false)
    defer { connection.close() }
    var content = SyncedContent()
    try connection.withStatement("SELECT uid, title FROM notebooks") {
      statement throws(NotesStorageError) in
      while try statement.step() {
        content.notebooks[statement.string(at: 0)] = statement.string(at: 1)
      }
    }
    try connection.withStatement(
      """
      SELECT notes.uid, notebooks.uid, notes.title, notes.body, notes.pinned
      FROM notes JOIN notebooks ON notebooks.id = notes.notebook_id
      """
    ) { statement throws(NotesStorageError) in
      while try statement.step() {
        content.notes[statement.string(at: 0)] = SyncedContent.Note(
          notebook: statement.string(at: 1), title: statement.string(at: 2),
          body: statement.string(at: 3), isPinned: statement.int64(at: 4) != 0)
      }
    }
    return content
  }
}

/// Time every device of a test shares; it moves only when the test moves it.
final class Timeline: @unchecked Sendable {
  // Guarded by `lock`.
  private let lock = NSLock()
  private var elapsed: TimeInterval = 0

  /// Seconds since the test's start, as the test has moved them.
  var seconds: TimeInterval { lock.withLock { elapsed } }

  /// Moves time on by `seconds`.
  func advance(by seconds: TimeInterval) { lock.withLock { elapsed += seconds } }
}

/// A device's clock: the test's shared time, plus how far this device's clock is off.
final class DeviceClock: Sendable {
  /// The shared time.
  let timeline: Timeline
  /// How far this device's clock is ahead (negative: behind).
  let skew: TimeInterval

  /// A clock `skew` seconds off `timeline` (by default a time of its own that stays put).
  init(timeline: Timeline = Timeline(), skew: TimeInterval = 0) {
    self.timeline = timeline
    self.skew = skew
  }

  /// Now, by this clock.
  var now: Date { Date(timeIntervalSinceReferenceDate: 800_000_000 + timeline.seconds + skew) }
}

/// The device's engine, handed to the thread that runs it while the device waits: one user
/// at a time, so sending it is safe.
struct UncheckedEngine: @unchecked Sendable {
  let engine: SyncEngine
}

/// What devices and the server must agree on.
struct SyncedContent: Equatable, Sendable, CustomStringConvertible {
  struct Note: Equatable, Sendable {
    var notebook: String
    var title: String
    var body: String
    var isPinned: Bool
  }
  var notebooks: [String: String] = [:]
  var notes: [String: Note] = [:]

  /// The live entities of `account` on the server as every device must end with them:
  /// each entity's latest version that is not one of `bad` (versions a test wrote that
  /// break the rules), read with the superuser's `adminURL` (on a thread of its own).
  static func onServer(
    _ adminURL: String, account: String, excluding bad: Set<Int64> = []
  ) async throws -> SyncedContent {
    try await onThreadOfItsOwn { try read(adminURL, account: account, excluding: bad) }
  }

  private static func read(
    _ adminURL: String, account: String, excluding bad: Set<Int64>
  ) throws -> SyncedContent {
    let connection = try PostgresConnection(url: adminURL)
    defer { connection.close() }
    let rows = try connection.execute(
      """
      SELECT DISTINCT ON (entity, entity_id) entity, entity_id, payload IS NULL,
        payload->>'title', payload->>'body', payload->>'notebook', payload->>'pinned'
      FROM notes_changes WHERE account = $1 AND NOT seq = ANY($2::bigint[])
      ORDER BY entity, entity_id, seq DESC
      """, [account, "{" + bad.map(String.init).joined(separator: ",") + "}"])
    var content = SyncedContent()
    for row in rows.rows where row[2] == "f" {
      guard let uid = row[1] else { continue }
      if row[0] == "notebook" {
        content.notebooks[uid] = row[3] ?? ""
      } else {
        content.notes[uid] = Note(
          notebook: row[5] ?? "", title: row[3] ?? "", body: row[4] ?? "",
          isPinned: row[6] == "true")
      }
    }
    return content
  }

  var description: String {
    let books = notebooks.sorted { $0.key < $1.key }.map { "  notebook \($0.value)" }
    let pages = notes.sorted { $0.key < $1.key }.map {
      "  note \($0.value.title) in \(notebooks[$0.value.notebook] ?? "?"): "
        + $0.value.body.debugDescription
    }
    return (books + pages).joined(separator: "\n")
  }
}

/// What a test's devices sync with: a database of the test's own on the suite's server,
/// and the account they sync as.
struct SyncFixture: Sendable {
  /// The account every device of the test syncs as.
  static let account = "alice"
  /// Its password.
  static let password = "alice's secret: 🔑"

  let database: TestDatabase
  /// The superuser's URL of the database (for raw SQL and the operator's work).
  var adminURL: String { database.url }
  /// The account's URL, password included.
  var accountURL: String { database.url(user: Self.account, password: Self.password) }

  /// A new database with the tables and the account.
  static func make() async throws -> SyncFixture {
    let database = try await TestDatabase.make()
    let url = database.url
    try await onThreadOfItsOwn {
      let connection = try PostgresConnection(url: url)
      defer { connection.close() }
      try ServerSchema.prepare(connection)
      try ServerAccounts.add(account, password: password, on: connection)
    }
    return SyncFixture(database: database)
  }

  /// The account's content on the server as devices must end with it.
  func content(excluding bad: Set<Int64> = []) async throws -> SyncedContent {
    try await SyncedContent.onServer(adminURL, account: Self.account, excluding: bad)
  }
}

/// Checks that every device's library equals the account's content on the server.
@MainActor
func expectConverged(
  _ devices: [SyncDevice], _ fixture: SyncFixture,
  sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  let server = try await fixture.content()
  for device in devices {
    let content = try await device.content()
    #expect(
      content == server, "\(device.name):\n\(content)\nserver:\n\(server)",
      sourceLocation: sourceLocation)
  }
}

/// A database and a folder of devices for one test, removed afterwards whatever happens.
///
/// The suite must have the `.sharedPostgres` trait; the database is the test's own.
@MainActor
func withDevices(
  _ names: [String], _ body: ([SyncDevice], SyncFixture) async throws -> Void
) async throws {
  let fixture = try await SyncFixture.make()
  do {
    let folder = try TemporaryFolder(prefix: "sync")
    defer { folder.remove() }
    var devices: [SyncDevice] = []
    for name in names {
      devices.append(
        try await SyncDevice.make(name: name, folder: folder, serverURL: fixture.accountURL))
    }
    defer { for device in devices { device.close() } }
    try await body(devices, fixture)
  } catch {
    await fixture.database.drop()
    throw error
  }
  await fixture.database.drop()
}
