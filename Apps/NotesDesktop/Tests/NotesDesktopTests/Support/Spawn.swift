// Spawn: starts the programs the desktop tests need (Xvfb, dbus-daemon, the window,
// xdotool, the accessibility reader) with posix_spawn, their output in files, with no
// signal blocked and every signal's default action.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A program the tests started.
final class Spawned {
  /// Its process id.
  let pid: pid_t
  /// The file that receives its standard output and error.
  let log: String
  private var status: Int32?

  /// Whether it leads a process group of its own, which ``stop()`` ends as a whole.
  private let leadsGroup: Bool

  /// Starts `executable` with `arguments` in `environment`, output to `log`.
  ///
  /// - Parameters:
  ///   - executable: The program, found on `PATH` if it has no slash.
  ///   - arguments: Its arguments.
  ///   - environment: Its whole environment.
  ///   - log: The file for its standard output and error.
  ///   - group: Whether it gets a process group of its own, so that ``stop()`` also ends
  ///     what it starts (a D-Bus daemon's activated services).
  /// - Throws: `POSIXError` when it cannot be started.
  init(
    _ executable: String, _ arguments: [String], environment: [String: String], log: String,
    group: Bool = false
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    // No signal blocked and every signal's default action: the test runner blocks some,
    // and a child (and what it starts) would inherit that and ignore SIGTERM.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    sigfillset(&signals)
    posix_spawnattr_setsigdefault(&attributes, &signals)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if group {
      flags |= POSIX_SPAWN_SETPGROUP
      posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    self.pid = pid
    self.log = log
    self.leadsGroup = group
  }

  /// Whether it is still running (reaps it if it ended).
  var isRunning: Bool {
    guard status == nil else { return false }
    var code: Int32 = 0
    if waitpid(pid, &code, WNOHANG) == pid {
      status = code
      return false
    }
    return true
  }

  /// Waits for it to end and returns its exit status (or 128 + the signal).
  @discardableResult
  func wait() -> Int32 {
    if status == nil {
      var code: Int32 = 0
      while waitpid(pid, &code, 0) == -1, errno == EINTR {}
      status = code
    }
    let code = status ?? 0
    return code & 0x7f == 0 ? (code >> 8) & 0xff : 128 + (code & 0x7f)
  }

  /// Ends it with SIGTERM, then SIGKILL if it has not ended within a second.
  func stop() {
    // The group first: what the process started goes even if the process itself ended.
    if leadsGroup { kill(-pid, SIGTERM) }
    guard isRunning else { return }
    kill(pid, SIGTERM)
    for _ in 0..<50 where isRunning { usleep(20_000) }
    if isRunning { kill(pid, SIGKILL) }
    wait()
  }

  /// What it wrote so far.
  var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

  /// Runs `executable` to the end and returns its status and output.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String], log: String
  ) throws -> (status: Int32, output: String) {
    let child = try Spawned(executable, arguments, environment: environment, log: log)
    let status = child.wait()
    return (status, child.output)
  }
}
