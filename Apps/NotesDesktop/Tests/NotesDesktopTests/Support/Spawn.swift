// Spawn: starts the programs the desktop tests need (Xvfb, dbus-daemon, the window,
// xdotool, the accessibility reader) with posix_spawn, their output in files.

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

  /// Starts `executable` with `arguments` in `environment`, output to `log`.
  ///
  /// - Throws: `POSIXError` when it cannot be started.
  init(_ executable: String, _ arguments: [String], environment: [String: String], log: String)
    throws
  {
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
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, executable, &actions, nil, argv, envp)
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    self.pid = pid
    self.log = log
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
