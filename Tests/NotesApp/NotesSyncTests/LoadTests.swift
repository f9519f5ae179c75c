// The sync load test: steady devices (ten by default), each a process of its own with a
// library of its own (`notes-load-device`), edit with live sync on, beside a device that
// joins late and one that goes offline, is killed there and started again, and comes back.
// Every device must end with the server's library, and every edit a device committed must
// be on the server and on every device.
//
// A few seconds of editing in the plain run; not under the sanitizers, where twelve
// instrumented processes on CI's two cores would take minutes (see .ci/run). The figures it
// prints (edits a second through the server, edit → visible elsewhere, the server's
// connections and memory, the devices' memory, the processor time of each side) are
// measured, not asserted: they go to the README and RELIABILITY.md. For them, the
// environment sets
// - AIRFRAME_LOAD_SECONDS: seconds of editing (3 by default);
// - AIRFRAME_LOAD_DEVICES: how many steady devices (10 by default), besides the late and
//   the offline one;
// - AIRFRAME_LOAD_RATE: edits a second each device aims at (by default as many as it can);
// - AIRFRAME_LOAD_PROGRAMS: the folder of the `notes` and `notes-load-device` to run (a
//   release build's), instead of those built next to the tests;
// - AIRFRAME_LOAD_KEEP: keep the libraries and logs (the folder is named in the output).

import AirframeTesting
import Foundation
import NotesTestSupport
import Testing

/// What the devices logged: each committed edit, and each other device's edit seen arriving.
struct LoadLogs {
  /// A committed edit.
  struct Edit {
    var device: String
    var token: String
    /// Wall-clock microseconds just before the edit was dispatched (in the token).
    var made: Int64
    /// Wall-clock microseconds once its commit returned.
    var committed: Int64
    var title: String
  }

  var edits: [Edit] = []
  /// Observer → token → when it was seen.
  var seen: [String: [String: Int64]] = [:]
  /// Syncs that failed, with the device and the reason.
  var failedSyncs: [String] = []

  /// Reads the log of `device` at `path`.
  mutating func read(_ path: String, device: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for line in text.split(separator: "\n") {
      let words = line.split(separator: " ", maxSplits: 3).map(String.init)
      if words.count == 4, words[0] == "edit", let committed = Int64(words[2]),
        let made = words[1].split(separator: ".").last.flatMap({ Int64($0) })
      {
        edits.append(
          Edit(device: device, token: words[1], made: made, committed: committed, title: words[3]))
      } else if words.count == 3, words[0] == "seen", let time = Int64(words[2]) {
        seen[device, default: [:]][words[1]] = time
      } else if words.count >= 2, words[0] == "failed" {
        failedSyncs.append("\(device): " + words.dropFirst(2).joined(separator: " "))
      } else {
        Issue.record("\(device)'s log has a line that is neither an edit nor a token seen: \(line)")
      }
    }
  }
}

/// What the environment asks of the load test (see the top of this file).
enum LoadRun {
  static let environment = ProcessInfo.processInfo.environment
  /// Seconds of editing: a few in CI, more with AIRFRAME_LOAD_SECONDS.
  static let seconds = max(1, environment["AIRFRAME_LOAD_SECONDS"].flatMap(Double.init) ?? 3)
  /// Steady devices: ten in CI, more with AIRFRAME_LOAD_DEVICES.
  static let deviceCount = max(1, environment["AIRFRAME_LOAD_DEVICES"].flatMap { Int($0) } ?? 10)
  /// Edits a second each device aims at (AIRFRAME_LOAD_RATE); 0, as many as it can.
  static let rate = max(0, environment["AIRFRAME_LOAD_RATE"].flatMap(Double.init) ?? 0)
  /// The most server connections one device holds at once: its sync's connection, the one
  /// it listens for the server's signals on, and the one a pull of more than a page reads
  /// ahead on.
  static let connectionsPerDevice = 3
  /// How far apart the steady devices start: at once for the plain run's few; a tenth of a
  /// second apart for more, whose first connections all at once (each a server process
  /// and a password exchange) would keep two cores busy past a connection's time limit.
  static var startGap: Double { deviceCount > 10 ? 0.1 : 0 }
  /// The server's settings: connections for every device at its most (the offline device
  /// twice: the connections it closes may not have ended when it opens new ones), for the
  /// setups and the test's own, and PostgreSQL's reserved ones; never fewer than
  /// PostgreSQL's default, so the plain run's server is the one every other suite has.
  static var serverSettings: [String: String] {
    ["max_connections": String(max(100, connectionsPerDevice * (deviceCount + 3) + 20))]
  }
}

@Suite(
  .serialized, .sharedPostgres(settings: LoadRun.serverSettings), .noLiveBindings,
  .timeLimit(.minutes(20)))
struct LoadTests {
  static let environment = LoadRun.environment

  /// A program the package built: from AIRFRAME_LOAD_PROGRAMS when set (a release build's
  /// folder, for the figures), else next to the tests.
  static func program(_ name: String) -> String? {
    guard let folder = environment["AIRFRAME_LOAD_PROGRAMS"] else { return Programs.built(name) }
    let path = "\(folder)/\(name)"
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }

  @Test(
    .disabled(
      if: ProcessInfo.processInfo.environment["AIRFRAME_SANITIZER"] != nil,
      "twelve instrumented processes on two cores: the plain run only"))
  func steadyDevicesALateOneAndAnOfflineOneConvergeAndLoseNoEdit() async throws {
    let program = try #require(Self.program("notes"), "the notes program is not built")
    let driver = try #require(
      Self.program("notes-load-device"), "the notes-load-device program is not built")
    let fixture = try await SyncFixture.make()
    let folder = try TemporaryFolder(prefix: "load")
    defer {
      if Self.environment["AIRFRAME_LOAD_KEEP"] == nil {
        folder.remove()
      } else {
        print(folder.path)
      }
    }
    // Sampled from before the first device starts, so the first samples are the idle
    // server's.
    let sampler = LoadSampler(
      server: fixture.database.server, account: SyncFixture.account, device: driver,
      interval: .seconds(1))
    do {
      try await run(
        fixture: fixture, folder: folder, program: program, driver: driver, sampler: sampler)
    } catch {
      _ = await sampler.stop()
      await fixture.database.drop()
      throw error
    }
    await fixture.database.drop()
  }

  /// The machine's load average over the last minute, as `uptime` shows it.
  static func loadAverage() -> String {
    let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)
    return text?.split(separator: " ").first.map(String.init) ?? "-"
  }

  /// The steady devices, then the one that joins late and the one that goes offline.
  let steady = (1...LoadRun.deviceCount).map { "d\($0)" }
  let late = "late"
  let offline = "offline"

  func run(
    fixture: SyncFixture, folder: TemporaryFolder, program: String, driver: String,
    sampler: LoadSampler
  ) async throws {
    let loadBefore = Self.loadAverage()
    let environment = Programs.environment(home: folder.path)
    func notes(_ words: [String], library: String) throws {
      let result = try Programs.run(
        program, words + ["--database", library], environment: environment, folder: folder)
      #expect(result.status == 0, "notes \(words.joined(separator: " ")): \(result.errors)")
    }
    // The shared notes, on the server before any device starts; the password goes to the
    // folder's password file with the first setup, as `notes sync setup` keeps it.
    let seed = folder.file("seed.notes")
    for index in 1...3 {
      let body = (1...20).map { "line \($0)" }.joined(separator: "\n")
      try notes(
        ["add", "--notebook", "Shared", "--title", "Shared \(index)", "--body", body]
          + (index == 1 ? ["--create-notebook"] : []), library: seed)
    }
    try notes(["sync", "setup", fixture.accountURL], library: seed)
    try notes(["sync"], library: seed)
    let devices = steady + [late, offline]
    // Set up side by side: one after the other costs seconds on a busy machine.
    let setups = try await withThrowingTaskGroup(of: ProgramResult.self) { group in
      for device in devices {
        let words = [
          "sync", "setup", fixture.accountURL, "--database", folder.file("\(device).notes"),
        ]
        group.addTask {
          try await onThreadOfItsOwn {
            try Programs.run(program, words, environment: environment, folder: folder.path)
          }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    for setup in setups { #expect(setup.status == 0, "sync setup: \(setup.errors)") }

    let seconds = LoadRun.seconds
    let spread = LoadRun.startGap * Double(steady.count - 1)
    let processorBefore = sampler.processorSeconds()
    let started = Date()
    let runs = try await withThrowingTaskGroup(of: (String, [ProgramResult]).self) { group in
      for device in devices {
        let words = [
          "--library", folder.file("\(device).notes"), "--name", device, "--log",
          folder.file("\(device).log"), "--devices", devices.joined(separator: ","),
          "--deadline", String(seconds + spread + 120), "--rate", String(LoadRun.rate),
        ]
        // The device that goes offline is killed halfway through, offline with edits not
        // yet pushed, and started again on its library: offline until the window ends, then
        // back.
        var runs: [[String]]
        switch device {
        case late:
          runs = [words + ["--delay", String(seconds / 2), "--seconds", String(seconds / 2)]]
        case offline:
          runs = [
            words + [
              "--seconds", String(seconds), "--offline", "\(seconds / 4):\(seconds * 3 / 4)",
              "--crash-after", String(seconds / 2),
            ],
            words + [
              "--seconds", String(seconds / 2), "--offline", "0:\(seconds / 4)",
              "--first-sequence", "1000000",
            ],
          ]
        default:
          let index = Double(steady.firstIndex(of: device) ?? 0)
          runs = [
            words + ["--delay", String(index * LoadRun.startGap), "--seconds", String(seconds)]
          ]
        }
        let programRuns = runs
        group.addTask {
          var results: [ProgramResult] = []
          for arguments in programRuns {
            results.append(
              try await onThreadOfItsOwn {
                // A device ends itself past its --deadline; a minute more is the safety net.
                try Programs.run(
                  driver, arguments, environment: environment, folder: folder.path,
                  timeout: .seconds(seconds + spread + 180))
              })
          }
          return (device, results)
        }
      }
      return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }
    let ended = Date()
    let processorAfter = sampler.processorSeconds()
    let samples = await sampler.stop()
    let loadAfter = Self.loadAverage()
    // Every sample, for a look at how the run went (kept with AIRFRAME_LOAD_KEEP).
    let table =
      ["connections devices waiting idle-in-transaction server-rss server-pss device-rss"]
      + samples.map { sample in
        [
          sample.connections, sample.deviceConnections, sample.waitingForLock,
          sample.idleInTransaction, sample.server.resident, sample.server.proportional,
          sample.devices.resident,
        ].map(String.init).joined(separator: " ")
      }
    try (table.joined(separator: "\n") + "\n").write(
      toFile: folder.file("samples.txt"), atomically: false, encoding: .utf8)
    for device in devices {
      let ends = try #require(runs[device])
      if device == offline {
        #expect(ends.first?.status == 128 + SIGKILL, "the offline device was not killed")
      }
      let result = try #require(ends.last)
      #expect(result.status == 0, "\(device) ended with \(result.status): \(result.errors)")
    }
    // The seed library syncs once more: a device that was idle throughout catches up too.
    try notes(["sync"], library: seed)

    // Every library is the server's.
    let server = try await fixture.content()
    for library in devices + ["seed"] {
      let path = folder.file("\(library).notes")
      let content = try await onThreadOfItsOwn { try SyncDevice.content(of: path) }
      let same = content == server
      #expect(same, "\(library) differs from the server: \(differences(content, server))")
    }

    // Every committed edit is on the server (in its note or a conflict copy), so on every
    // library above; and every device's model was told of every other device's edit.
    var logs = LoadLogs()
    for device in devices { try logs.read(folder.file("\(device).log"), device: device) }
    let lines = Set(server.notes.values.flatMap { $0.body.split(separator: "\n").map(String.init) })
    let lost = logs.edits.filter { !lines.contains($0.token) }
    #expect(
      lost.count == 0, "committed edits not on the server, such as \(lost.prefix(3).map(\.token))")
    #expect(logs.edits.count > devices.count, "the devices hardly edited")
    for observer in devices {
      let unseen = logs.edits.filter {
        $0.device != observer && logs.seen[observer]?[$0.token] == nil
      }
      #expect(
        unseen.count == 0,
        "\(observer) was never told of edits such as \(unseen.prefix(3).map(\.token))")
    }
    // Edits the app did not make, and said so (see `LoadDevice.edit()`), as each device
    // process counted them.
    var notMade = (refused: 0, unsaved: 0)
    for result in runs.values.joined() {
      let words = result.output.split(whereSeparator: \.isWhitespace)
      for (name, value) in zip(words, words.dropFirst()) {
        if name == "refused" { notMade.refused += Int(value) ?? 0 }
        if name == "unsaved" { notMade.unsaved += Int(value) ?? 0 }
      }
    }
    // A write's last try holds the library's write lock, so sync cannot refuse it a third
    // time: no edit may fail to save.
    #expect(notMade.unsaved == 0, "edits not saved because sync kept writing")
    report(
      logs, notMade: notMade, seconds: seconds, started: started, ended: ended, server: server)
    report(
      samples,
      processor: (
        processorAfter.server - processorBefore.server,
        processorAfter.children - processorBefore.children
      ), wall: ended.timeIntervalSince(started),
      load: (loadBefore, loadAfter))
  }

  /// What differs between two libraries, briefly: a whole library in a failure message is
  /// more than anyone reads.
  func differences(_ library: SyncedContent, _ server: SyncedContent) -> String {
    var lines: [String] = []
    for (uid, title) in server.notebooks where library.notebooks[uid] != title {
      lines.append("notebook \(title): \(library.notebooks[uid] ?? "missing")")
    }
    for uid in Set(library.notebooks.keys).subtracting(server.notebooks.keys) {
      lines.append("notebook \(library.notebooks[uid] ?? "") not on the server")
    }
    for (uid, note) in server.notes where library.notes[uid] != note {
      let mine = library.notes[uid]
      lines.append(
        "note \(note.title) (\(uid)): "
          + (mine.map { "\($0.title), \($0.body.count) characters against \(note.body.count)" }
            ?? "missing"))
    }
    for uid in Set(library.notes.keys).subtracting(server.notes.keys) {
      lines.append("note \(library.notes[uid]?.title ?? "") (\(uid)) not on the server")
    }
    return "\(lines.count) differences, such as:\n" + lines.prefix(8).joined(separator: "\n")
  }

  /// Prints the figures: edits a second through the server, and edit → visible on another
  /// steady device (both online throughout), p50 and p99.
  func report(
    _ logs: LoadLogs, notMade: (refused: Int, unsaved: Int), seconds: Double, started: Date,
    ended: Date, server: SyncedContent
  ) {
    var latencies: [Int64] = []
    for edit in logs.edits where steady.contains(edit.device) {
      for observer in steady where observer != edit.device {
        if let seen = logs.seen[observer]?[edit.token] { latencies.append(seen - edit.made) }
      }
    }
    latencies.sort()
    func milliseconds(_ micros: Int64) -> String {
      String(format: "%.1f ms", Double(micros) / 1_000)
    }
    func percentile(_ fraction: Double) -> String {
      guard !latencies.isEmpty else { return "-" }
      let rank = Int((Double(latencies.count) * fraction).rounded(.up)) - 1
      return milliseconds(latencies[min(latencies.count - 1, max(0, rank))])
    }
    let first = logs.edits.map(\.committed).min() ?? 0
    let last = logs.edits.map(\.committed).max() ?? 0
    let settled = Int64(ended.timeIntervalSince1970 * 1_000_000)
    func rate(_ micros: Int64) -> String {
      String(format: "%.0f", Double(logs.edits.count) * 1_000_000 / Double(max(1, micros)))
    }
    let copies = server.notes.values.filter { $0.title.hasSuffix("(conflict copy)") }.count
    print(
      [
        "load: \(logs.edits.count) edits by \(steady.count + 2) devices in \(seconds) s of editing"
          + (LoadRun.rate > 0 ? " (aiming at \(LoadRun.rate) a second each)" : ""),
        "committed at \(rate(last - first)) a second",
        "\(rate(settled - first)) a second through the server (first commit to every device"
          + " holding every edit, \(milliseconds(settled - last)) after the last commit)",
        "edit → visible on another device p50 \(percentile(0.5)), p99 \(percentile(0.99))"
          + " (\(latencies.count) samples)",
        "\(copies) conflict copies",
        "\(logs.failedSyncs.count) syncs failed"
          + (logs.failedSyncs.first.map { " (such as \($0))" } ?? ""),
        "\(notMade.refused) edits refused (the note changed underneath), \(notMade.unsaved) not"
          + " saved (sync kept writing)",
        String(format: "wall time %.1f s", ended.timeIntervalSince(started)),
      ].joined(separator: "; "))
  }

  /// Prints what the samples found: the server's connections and memory at their peak, what
  /// one connection costs the server, the devices' memory, the processor time each side
  /// used (of the `wall` seconds the devices ran), and the machine's load average.
  func report(
    _ samples: [LoadSample], processor: (server: Double, devices: Double), wall: Double,
    load: (before: String, after: String)
  ) {
    func mebibytes(_ kibibytes: Int) -> String {
      String(format: "%.0f MiB", Double(kibibytes) / 1_024)
    }
    func peak(_ value: (LoadSample) -> Int) -> Int { samples.map(value).max() ?? 0 }
    // The first sample is the idle server's; the detailed ones have the shares.
    let idle = samples.first
    let detailed = samples.filter(\.isDetailed)
    // One connection's cost: its backend process's own pages, and its share of the shared
    // ones, at the detailed sample with the most backends.
    let backends = detailed.max { $0.backends.count < $1.backends.count }?.backends
    let perConnection = backends.map { memory -> String in
      guard memory.count > 0 else { return "-" }
      return String(
        format: "%.1f MiB private, %.1f MiB proportional",
        Double(memory.unshared) / 1_024 / Double(memory.count),
        Double(memory.proportional) / 1_024 / Double(memory.count))
    }
    let devices = samples.max { $0.devices.resident < $1.devices.resident }?.devices
    let devicesShare = detailed.map(\.devices.proportional).max() ?? 0
    print(
      [
        "load figures: \(samples.count) samples a second or more apart (\(detailed.count) with"
          + " PSS)",
        "server connections at most \(peak(\.connections)) (\(peak(\.deviceConnections)) the"
          + " devices'), max_connections \(LoadRun.serverSettings["max_connections"] ?? "-")",
        "connections waiting for a lock at most \(peak(\.waitingForLock)), in a transaction"
          + " waiting for their device at most \(peak(\.idleInTransaction))",
        "server memory at most \(mebibytes(peak(\.server.resident))) RSS,"
          + " \(mebibytes(detailed.map(\.server.proportional).max() ?? 0)) PSS over"
          + " \(peak(\.server.count)) processes (idle before the devices:"
          + " \(mebibytes(idle?.server.resident ?? 0)) RSS,"
          + " \(mebibytes(idle?.server.proportional ?? 0)) PSS)",
        "each connection's backend \(perConnection ?? "-")"
          + " (\(backends?.count ?? 0) backends)",
        "device processes at most \(mebibytes(devices?.resident ?? 0)) RSS,"
          + " \(mebibytes(devicesShare)) PSS over \(devices?.count ?? 0) processes",
        String(
          format: "processor time %.0f s the server's, %.0f s the devices' in %.0f s of run",
          processor.server, processor.devices, wall),
        "load average \(load.before) before, \(load.after) after",
      ].joined(separator: "; "))
  }
}
