import Foundation
import NotesServer
import NotesTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Memory of a set of processes, in KiB, summed over them.
struct ProcessMemory: Equatable, Sendable {
  /// How many processes.
  var count = 0
  /// The sum of their resident sets.
  var resident = 0
  /// The sum of their proportional sets (shared pages split between the processes); 0 when
  /// not read.
  var proportional = 0
  /// The sum of their private pages; 0 when not read.
  var unshared = 0

  /// The memory of `pids` (those that ended meanwhile left out): the resident sets from
  /// `/proc/PID/statm`, or everything from `/proc/PID/smaps_rollup` when `detailed`.
  static func of(_ pids: [Int32], detailed: Bool) -> ProcessMemory {
    var memory = ProcessMemory()
    let pageKiB = Int(sysconf(Int32(_SC_PAGESIZE))) / 1_024
    for pid in pids {
      if !detailed {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8),
          let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { continue }
        memory.count += 1
        memory.resident += pages * pageKiB
        continue
      }
      guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)
      else { continue }
      var fields: [String: Int] = [:]
      for line in text.split(separator: "\n") {
        let words = line.split(whereSeparator: \.isWhitespace)
        if words.count >= 2, let value = Int(words[1]) { fields[String(words[0])] = value }
      }
      guard let resident = fields["Rss:"] else { continue }
      memory.count += 1
      memory.resident += resident
      memory.proportional += fields["Pss:"] ?? 0
      memory.unshared += (fields["Private_Clean:"] ?? 0) + (fields["Private_Dirty:"] ?? 0)
    }
    return memory
  }
}

/// The processes on this machine, as /proc lists them.
enum ProcessTable {
  /// A process's `/proc/PID/stat` fields after its command's name (which is in
  /// parentheses and may hold spaces): the state first, so the stat file's field N is at
  /// N - 3.
  static func fields(of pid: Int32) -> [Substring]? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(after: close)...].split(separator: " ")
  }

  /// Each running process's id, parent's id and command line.
  static func processes() -> [(pid: Int32, parent: Int32, command: String)] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap { name in
      guard let pid = Int32(name), let fields = fields(of: pid), fields.count > 1,
        let parent = Int32(fields[1])
      else { return nil }
      let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
      let command = String(decoding: bytes, as: UTF8.self).replacing("\0", with: " ")
      return (pid, parent, command)
    }
  }

  /// The processor time `pid` used, in seconds: its own (user and system), and with
  /// `children` that of its children it has waited for.
  static func processorSeconds(of pid: Int32, children: Bool) -> Double {
    guard let fields = fields(of: pid), fields.count > 14 else { return 0 }
    // utime, stime, cutime, cstime: the stat file's fields 14 to 17.
    let indices = children ? 11...14 : 11...12
    let ticks = indices.reduce(0) { $0 + (Int(fields[$1]) ?? 0) }
    return Double(ticks) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}

/// One sample of the run.
struct LoadSample: Sendable {
  /// The server's client connections, and of those the account's (the devices').
  var connections = 0
  var deviceConnections = 0
  /// Connections waiting for a lock (a push waiting for its account's), and connections
  /// in a transaction but waiting for their client (holding what they locked meanwhile).
  var waitingForLock = 0
  var idleInTransaction = 0
  /// Whether the memory's proportional and private sums were read.
  var isDetailed = false
  /// The server's processes: the postmaster and every child.
  var server = ProcessMemory()
  /// The server's client backends alone (one a connection).
  var backends = ProcessMemory()
  /// The device processes.
  var devices = ProcessMemory()
}

/// Samples the server and the devices every `interval` until stopped.
///
/// What the load test's server and devices hold while they run — the server's connections and
/// memory, the device processes' memory — sampled on a thread of its own, and the processor time
/// each side used.
///
/// ## Guarantees
///
/// - Measures, never asserts: a sample that cannot be taken (a process that ended between
///   the listing and the reading, a query that failed) is left out, never an issue.
/// - Connections are the server's own count (`pg_stat_activity`), over one connection of
///   the sampler's, which is not counted. Memory is read from /proc: each process's resident
///   set (RSS, which counts a shared page once in every process mapping it) in every
///   sample; its proportional share (PSS, which splits a shared page between the processes
///   mapping it, so a sum counts it once) and its private pages (what the process alone
///   costs) in every fifth, since reading them costs far more and the sampler must not
///   take the cores it measures.
/// - Processor time is the kernel's account: the devices' is what the test process's
///   children used (counted when each ends), the server's what its processes used, ended
///   ones included (the postmaster's children's account).
/// - `stop()` ends the thread and waits for it (on a thread of its own); a sample in flight
///   finishes first.
final class LoadSampler: @unchecked Sendable {
  // `samples` and `isStopped` only under `lock`; the connection only on the thread.
  private let lock = NSLock()
  private var samples: [LoadSample] = []
  private var isStopped = false
  private let finished = DispatchSemaphore(value: 0)
  private let server: TemporaryPostgres
  private let account: String
  private let device: String

  /// Starts sampling `server` (its connections of `account` counted apart) and the test's
  /// child processes whose command starts with `device` (the device program's path).
  init(server: TemporaryPostgres, account: String, device: String, interval: Duration) {
    self.server = server
    self.account = account
    self.device = device
    Thread.detachNewThread { [self] in
      let connection = try? PostgresConnection(url: server.url)
      let ownPid = (try? connection?.execute("SELECT pg_backend_pid()").singleValue)
        .flatMap { $0.flatMap { Int32($0) } }
      defer {
        connection?.close()
        finished.signal()
      }
      var count = 0
      while !lock.withLock({ isStopped }) {
        let sample = take(connection, backend: ownPid, detailed: count % 5 == 0)
        count += 1
        lock.withLock { samples.append(sample) }
        Thread.sleep(forTimeInterval: interval / .seconds(1))
      }
    }
  }

  /// Every sample taken so far.
  var taken: [LoadSample] { lock.withLock { samples } }

  /// One sample, now, through `connection` (whose server process is `backend`).
  private func take(_ connection: PostgresConnection?, backend: Int32?, detailed: Bool)
    -> LoadSample
  {
    var sample = LoadSample(isDetailed: detailed)
    if let rows = try? connection?.execute(
      """
      SELECT count(*) FILTER (WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()),
             count(*) FILTER (WHERE usename = $1),
             count(*) FILTER (WHERE usename = $1 AND wait_event_type = 'Lock'),
             count(*) FILTER (WHERE usename = $1 AND state LIKE 'idle in transaction%')
      FROM pg_stat_activity
      """, [account]), let row = rows.rows.first
    {
      let counts = row.map { Int($0 ?? "") ?? 0 }
      sample.connections = counts[0]
      sample.deviceConnections = counts[1]
      sample.waitingForLock = counts[2]
      sample.idleInTransaction = counts[3]
    }
    let table = ProcessTable.processes()
    if let postmaster = Self.postmaster(of: server) {
      let children = table.filter { $0.parent == postmaster }
      sample.server = ProcessMemory.of([postmaster] + children.map(\.pid), detailed: detailed)
      // A client backend names its client: "postgres: USER DATABASE [local] STATE".
      sample.backends = ProcessMemory.of(
        children.filter { $0.command.contains("[local]") && $0.pid != backend }.map(\.pid),
        detailed: detailed)
    }
    let me = getpid()
    sample.devices = ProcessMemory.of(
      table.filter { $0.parent == me && $0.command.hasPrefix(device + " ") }.map(\.pid),
      detailed: detailed)
    return sample
  }

  /// The server's postmaster, from the first line of its `postmaster.pid`.
  static func postmaster(of server: TemporaryPostgres) -> Int32? {
    let text = try? String(contentsOfFile: "\(server.folder)/data/postmaster.pid", encoding: .utf8)
    return text?.split(separator: "\n").first.flatMap { Int32($0) }
  }

  /// The processor time used so far, in seconds, by the server (its processes, ended
  /// ones included) and by the test process's ended children (the devices, once ended).
  func processorSeconds() -> (server: Double, children: Double) {
    var server = 0.0
    if let postmaster = Self.postmaster(of: self.server) {
      server = ProcessTable.processorSeconds(of: postmaster, children: true)
      for child in ProcessTable.processes() where child.parent == postmaster {
        server += ProcessTable.processorSeconds(of: child.pid, children: false)
      }
    }
    return (server, ProcessTable.processorSeconds(of: getpid(), children: true))
  }

  /// Stops sampling and waits, on a thread of its own, for the sampling thread to end;
  /// calling it again only returns the samples.
  ///
  /// - Returns: Every sample taken.
  func stop() async -> [LoadSample] {
    let wasRunning = lock.withLock {
      defer { isStopped = true }
      return !isStopped
    }
    if wasRunning { _ = try? await onThreadOfItsOwn { [finished] in finished.wait() } }
    return taken
  }
}
