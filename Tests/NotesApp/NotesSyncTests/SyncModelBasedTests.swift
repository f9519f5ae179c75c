// The model-based test of sync: three devices and a real PostgreSQL server, random edits on
// each device and random interleavings of sync, push, pull, lost acknowledgements and
// process kills, and Recently Deleted and note history on each device (deleting to it,
// restoring from it, deleting for good, restoring an earlier version). After a final sync
// every device equals every other and the server, and no edit is lost.
//
// What "no edit is lost" means here: every body edit inserts a line with a unique token.
// Every token ever written must be in the final library (in its note or in a conflict
// copy) unless some device removed it knowingly: deleted that line, or deleted the note or
// notebook holding it, while the token was in its own copy. A device can only remove what
// it has seen; what it has not seen (a concurrent edit) must survive. Restoring a version
// removes knowingly the lines the note has and the version has not; deleting for good
// removes nothing the device has not seen, so an edit elsewhere brings the note back.
//
// A fourth, hostile device of the same account writes random malformed versions straight
// into the server's tables (checks dropped, as on a server that does not check): new
// entities that break a rule, and bad versions over existing ones. The devices must keep
// them aside and still converge — on each entity's latest version that is not one of the
// hostile ones — and every library must keep every rule of the app.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesServer
import NotesTestSupport
import Testing

@testable import NotesStorage
@testable import NotesSync

@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(20)))
@MainActor
struct SyncModelBasedTests {
  /// How many seeded runs; `NOTES_SYNC_RUNS` overrides it.
  static var runs: Int {
    ProcessInfo.processInfo.environment["NOTES_SYNC_RUNS"].flatMap(Int.init) ?? 100
  }
  static let steps = 40

  @Test func threeDevicesConvergeAndLoseNoEdit() async throws {
    let fixture = try await SyncFixture.make()
    do {
      try await runAll(on: fixture)
    } catch {
      await fixture.database.drop()
      throw error
    }
    await fixture.database.drop()
  }

  /// Runs every seeded run, on one database emptied between runs.
  ///
  /// Each step is a short stretch on the main actor; the test yields between steps so
  /// other tests get their turns.
  func runAll(on fixture: SyncFixture) async throws {
    let adminURL = fixture.adminURL
    let hostile = HostileWriter(adminURL: adminURL, account: SyncFixture.account)
    try await onThreadOfItsOwn { try hostile.dropServerChecks() }
    for seed in 1...UInt64(Self.runs) {
      try await onThreadOfItsOwn {
        let connection = try PostgresConnection(url: adminURL)
        defer { connection.close() }
        try connection.execute(
          "TRUNCATE notes_entities, notes_changes, notes_devices RESTART IDENTITY CASCADE")
      }
      let folder = try TemporaryFolder(prefix: "sync-run")
      defer { folder.remove() }
      var run = RandomRun(seed: seed, hostile: hostile)
      var devices: [SyncDevice] = []
      for name in ["A", "B", "C"] {
        devices.append(
          try await SyncDevice.make(name: name, folder: folder, serverURL: fixture.accountURL))
      }
      defer { for device in devices { device.close() } }
      let ok = try await run.play(on: devices, fixture: fixture)
      if !ok { break }
    }
  }
}

/// One seeded run: its random choices, what it wrote, and what it removed knowingly.
@MainActor
struct RandomRun {
  var random: SeededRandomNumberGenerator
  let seed: UInt64
  var log: [String] = []
  var written: Set<String> = []
  var removed: Set<String> = []
  var nextToken = 0
  /// The hostile device, and the sequence numbers of the versions it wrote.
  let hostile: HostileWriter
  var bad: Set<Int64> = []

  init(seed: UInt64, hostile: HostileWriter) {
    self.seed = seed
    self.hostile = hostile
    // Not `seed × 0x9E3779B97F4A7C15`, SplitMix64's own increment: with it, run n + 1 would
    // be run n one draw later, so the runs would be nearly one sequence. Another odd
    // multiplier keeps every run's sequence apart.
    random = SeededRandomNumberGenerator(seed: seed &* 0xD1B5_4A32_D192_ED03)
  }

  /// Plays the run; returns false (after recording the issue) if it failed.
  mutating func play(on devices: [SyncDevice], fixture: SyncFixture) async throws -> Bool {
    for step in 0..<SyncModelBasedTests.steps {
      let device = devices[Int.random(in: 0..<devices.count, using: &random)]
      try await act(on: device, step: step)
      await Task.yield()
    }
    // The final sync: rounds until a whole round moves nothing.
    for _ in 0..<8 {
      var moved = 0
      for device in devices {
        let report = try await device.sync()
        moved += report.pushed + report.pulled
      }
      if moved == 0 { break }
    }
    let expected = try await fixture.content(excluding: bad)
    var ok = true
    for device in devices {
      let broken = LibraryInvariants.violations(in: device.model.state)
      if !broken.isEmpty {
        ok = report("\(device.name) breaks the app's rules: \(broken)")
      }
      let content = try await device.content()
      if content != expected {
        ok = report("\(device.name) differs from the server\n\(content)\nserver:\n\(expected)")
      }
    }
    let final = Set(
      expected.notes.values.flatMap { $0.body.split(separator: "\n").map(String.init) })
    let lost = written.subtracting(removed).subtracting(final)
    if !lost.isEmpty {
      ok = report("lost \(lost.sorted())\nfinal:\n\(expected)")
    }
    return ok
  }

  /// Records a failure of this run, with its seed and every step; returns false.
  func report(_ what: String) -> Bool {
    Issue.record(
      Comment(rawValue: "seed \(seed): \(what)\nsteps:\n" + log.joined(separator: "\n")))
    return false
  }

  mutating func token() -> String {
    nextToken += 1
    let token = "t\(nextToken)"
    written.insert(token)
    return token
  }

  mutating func pick<T>(_ items: [T]) -> T? {
    items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)]
  }

  mutating func removeKnowingly(_ body: String) {
    for line in body.split(separator: "\n") { removed.insert(String(line)) }
  }

  mutating func act(on device: SyncDevice, step: Int) async throws {
    // What the user acts on is the library as it is: the app's model catches up with its
    // library's changes (here, another process's or the sync's) before the next gesture.
    try device.catchUp()
    let notes = device.model.state.notes.elements.sorted { $0.id < $1.id }
    let notebooks = device.model.state.notebooks.elements.sorted { $0.id < $1.id }
    let roll = Int.random(in: 0..<112, using: &random)
    let who = device.name
    switch roll {
    case 0..<26:
      guard let note = pick(notes) else { return try createNote(on: device, in: notebooks) }
      var lines = note.body.split(separator: "\n", omittingEmptySubsequences: false).map(
        String.init)
      let kind = Int.random(in: 0..<4, using: &random)
      if kind < 2 || lines.count < 2 {
        lines.insert(token(), at: Int.random(in: 0...lines.count, using: &random))
      } else {
        let index = Int.random(in: 0..<lines.count, using: &random)
        removed.insert(lines[index])
        if kind == 2 { lines[index] = token() } else { lines.remove(at: index) }
      }
      let body = lines.joined(separator: "\n")
      log.append("\(step) \(who): body of \(note.title) = \(body.debugDescription)")
      try device.model.write(origin: .user("edit")) {
        try $0.update(note.id, in: \.notes) { $0.body = body }
      }
    case 26..<36:
      try createNote(on: device, in: notebooks)
    case 36..<41:
      guard let note = pick(notes), let title = pick(["Plan", "List", "Idea", "Todo"]) else {
        return
      }
      log.append("\(step) \(who): rename \(note.title) to \(title)")
      try device.model.write(origin: .user("rename")) {
        try $0.update(note.id, in: \.notes) { $0.title = title }
      }
    case 41..<45:
      guard let note = pick(notes) else { return }
      log.append("\(step) \(who): pin \(note.title) \(!note.isPinned)")
      try device.model.write(origin: .user("pin")) {
        try $0.update(note.id, in: \.notes) { $0.isPinned.toggle() }
      }
    case 45..<49:
      guard let note = pick(notes), let notebook = pick(notebooks) else { return }
      log.append("\(step) \(who): move \(note.title) to \(notebook.title)")
      try device.model.write(origin: .user("move")) {
        try $0.update(note.id, in: \.notes) { $0.notebookID = notebook.id }
      }
    case 49..<53:
      guard let note = pick(notes) else { return }
      log.append("\(step) \(who): delete \(note.title) \(note.body.debugDescription)")
      removeKnowingly(note.body)
      try device.model.write(origin: .user("delete")) { try $0.remove(note.id, from: \.notes) }
    case 53..<57:
      guard let title = pick(["Work", "Home", "Ideas"]) else { return }
      let outcome = ActionDispatcher(model: device.model).dispatch(
        CreateNotebook(title: title, now: device.now))
      log.append("\(step) \(who): create notebook \(title): \(outcome.isCommitted)")
    case 57..<59:
      guard let notebook = pick(notebooks), notebooks.count > 1 else { return }
      for note in notes where note.notebookID == notebook.id { removeKnowingly(note.body) }
      let outcome = ActionDispatcher(model: device.model).dispatch(
        DeleteNotebook(id: notebook.id, deletingNotes: true))
      log.append("\(step) \(who): delete notebook \(notebook.title): \(outcome.isCommitted)")
    case 59..<61:
      guard let notebook = pick(notebooks), let title = pick(["Work", "Home", "Ideas", "Misc"])
      else { return }
      let outcome = ActionDispatcher(model: device.model).dispatch(
        RenameNotebook(id: notebook.id, title: title))
      log.append(
        "\(step) \(who): rename notebook \(notebook.title) to \(title): \(outcome.isCommitted)")
    case 61..<80:
      log.append("\(step) \(who): sync")
      try await device.sync()
    case 80..<87:
      log.append("\(step) \(who): push")
      try await device.push()
    case 87..<94:
      log.append("\(step) \(who): pull")
      try await device.pull()
    case 94..<97:
      log.append("\(step) \(who): push, acknowledgement lost")
      try await device.pushLosingTheAcknowledgement()
    case 97..<100:
      log.append("\(step) \(who): killed and restarted")
      try await device.restart()
    case 100..<104:
      try await writeHostileVersion(step: step)
    default:
      try trashOrHistoryStep(on: device, notes: notes, step: step)
    }
  }

  /// Recently Deleted and note history on one device: a note deleted to Recently Deleted,
  /// restored from it, deleted from it for good (or all of it), or a note's earlier version
  /// restored.
  mutating func trashOrHistoryStep(on device: SyncDevice, notes: [Note], step: Int) throws {
    let who = device.name
    let dispatcher = ActionDispatcher(model: device.model)
    let deleted = device.model.state.recentlyDeleted.elements.sorted { $0.id < $1.id }
    switch Int.random(in: 0..<4, using: &random) {
    case 0:
      guard let note = pick(notes) else { return }
      removeKnowingly(note.body)
      let outcome = dispatcher.dispatch(DeleteNote(id: note.id, now: device.now))
      log.append("\(step) \(who): delete \(note.title) to Recently Deleted: \(outcome)")
    case 1:
      guard let entry = pick(deleted) else { return }
      let outcome = dispatcher.dispatch(RestoreDeletedNote(id: entry.id, now: device.now))
      log.append("\(step) \(who): restore \(entry.note.title) from Recently Deleted: \(outcome)")
    case 2:
      let all = Bool.random(using: &random)
      guard let entry = pick(deleted) else { return }
      for gone in all ? deleted : [entry] { removeKnowingly(gone.note.body) }
      let outcome = dispatcher.dispatch(DeleteForGood(all ? .all : .note(entry.id)))
      let what = all ? "empty Recently Deleted" : "delete \(entry.note.title) for good"
      log.append("\(step) \(who): \(what): \(outcome)")
    default:
      guard let note = pick(notes), let version = pick(try device.database.history(of: note.id))
      else { return }
      let outcome = dispatcher.dispatch(RestoreNoteVersion(version: version, now: device.now))
      if outcome.isCommitted {
        let kept = Set(version.body.split(separator: "\n").map(String.init))
        for line in note.body.split(separator: "\n") where !kept.contains(String(line)) {
          removed.insert(String(line))
        }
      }
      log.append(
        "\(step) \(who): restore \(note.title)'s version \(version.id) "
          + "\(version.body.debugDescription) (\(version.origin.rawValue)): \(outcome)")
    }
  }

  /// The hostile device writes a random bad version: of a new entity, or over one the
  /// server has.
  mutating func writeHostileVersion(step: Int) async throws {
    guard let kind = pick(BadVersion.allCases) else { return }
    let hostile = hostile
    let entities = try await onThreadOfItsOwn { try hostile.liveEntities() }
    let notebook = pick(entities.notebooks) ?? UUID().uuidString.lowercased()
    let existing = kind.kind == .notebook ? entities.notebooks : entities.notes
    let overwrite = Bool.random(using: &random) && kind != .entityIDNotAUUID
    let uid = overwrite ? pick(existing) : nil
    let seq = try await onThreadOfItsOwn { try hostile.write(kind, uid: uid, notebook: notebook) }
    bad.insert(seq)
    log.append("\(step) hostile: \(kind) over \(uid ?? "a new entity") (version \(seq))")
  }

  mutating func createNote(on device: SyncDevice, in notebooks: [Notebook]) throws {
    var notebook = pick(notebooks)
    if notebook == nil {
      let outcome = ActionDispatcher(model: device.model).dispatch(
        CreateNotebook(title: "Inbox \(device.name)", now: device.now))
      notebook = outcome.createdID(in: \NotesState.notebooks).flatMap {
        device.model.state.notebooks[$0]
      }
    }
    guard let notebook, let title = pick(["Plan", "List", "Idea", "Todo"]) else { return }
    let body = token()
    log.append("\(device.name): create \(title) in \(notebook.title) with \(body)")
    let outcome = ActionDispatcher(model: device.model).dispatch(
      CreateNote(notebookID: notebook.id, title: title, body: body, now: device.now))
    if !outcome.isCommitted { removed.insert(body) }
  }
}
