public import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How a program ended and what it printed.
public struct ProgramResult: Equatable, Sendable {
  /// The exit status, or 128 plus the signal that ended it (as a shell reports it).
  public var status: Int32
  /// Standard output.
  public var output: String
  /// Standard error.
  public var errors: String

  /// A result, as a test expects one.
  ///
  /// - Parameters:
  ///   - status: The exit status.
  ///   - output: Standard output.
  ///   - errors: Standard error.
  public init(status: Int32, output: String, errors: String) {
    self.status = status
    self.output = output
    self.errors = errors
  }
}

/// A program that had not ended by its deadline: it was killed, and this says what it was
/// and what it had printed.
public struct ProgramTimedOut: Error, CustomStringConvertible {
  /// The program's path.
  public var program: String
  /// Its arguments.
  public var arguments: [String]
  /// The deadline it was given.
  public var limit: Duration
  /// What it had printed on standard output when it was killed.
  public var output: String
  /// What it had printed on standard error when it was killed.
  public var errors: String

  /// The program, its deadline, and the end of what it printed.
  public var description: String {
    let command = ([(program as NSString).lastPathComponent] + arguments).joined(separator: " ")
    return "waiting until `\(command)` ends: it was still running after \(limit) and was"
      + " killed; its output ended with \(Self.tail(output).debugDescription) and its errors"
      + " with \(Self.tail(errors).debugDescription)"
  }

  /// The last 2,000 characters of `text`.
  private static func tail(_ text: String) -> String { String(text.suffix(2_000)) }
}

/// Finds programs (those the package built, those on the search path) and runs them.
///
/// Finds the programs the package built and runs programs for the tests, with posix_spawn and files
/// for their standard streams.
///
/// ## Guarantees
///
/// - Never Foundation.Process: its output pipe stays open in a daemon the child forks (the
///   tmux server), so reading it would wait for that daemon.
/// - Output goes to files, never pipes, so no child can block on a full pipe.
/// - A child starts with no signal blocked and every signal's default action, whatever
///   the test thread had, and with exactly the environment it is given.
/// - A run ends within its stated time: a child still running at its deadline is killed
///   (SIGKILL) and the run throws `ProgramTimedOut`, naming the program and what it had
///   printed, rather than waiting for ever.
public enum Programs {
  /// How long a program may run before `run` kills it, unless the caller states another
  /// time: a safety net for a program that hangs, far beyond what a program the tests run
  /// needs.
  public static let defaultTimeout = Duration.seconds(300)

  /// A child's whole environment: `home` as its home, a UTF-8 locale, and the sanitizer
  /// settings this test process runs with (so a sanitized program behaves as the tests
  /// expect, leak checking included).
  ///
  /// - Parameter home: The child's `HOME`.
  /// - Returns: `NAME=value` strings.
  public static func environment(home: String) -> [String] {
    ["HOME=\(home)", "LANG=C.UTF-8"]
      + ["ASAN_OPTIONS", "TSAN_OPTIONS"].compactMap { name in
        ProcessInfo.processInfo.environment[name].map { "\(name)=\($0)" }
      }
  }

  /// The path of a program built next to the test bundle, such as `notes`.
  ///
  /// - Parameter name: The program's name.
  /// - Returns: Its path, or `nil` if it was not built.
  public static func built(_ name: String) -> String? {
    guard let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else { return nil }
    let folder = URL(fileURLWithPath: runner).deletingLastPathComponent()
    return executable(name, in: [folder.path, folder.deletingLastPathComponent().path])
  }

  /// The path of a program on the test process's `PATH`, such as `tmux`.
  ///
  /// - Parameter name: The program's name.
  /// - Returns: Its path, or `nil` if no folder on the path has it.
  public static func onPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return executable(name, in: path.split(separator: ":").map(String.init))
  }

  /// The first executable file called `name` in `folders`.
  private static func executable(_ name: String, in folders: [String]) -> String? {
    folders.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Runs a program to its end with standard input from a file and its output in files.
  ///
  /// - Parameters:
  ///   - program: The program's path.
  ///   - arguments: Its arguments.
  ///   - environment: Its whole environment, as `NAME=value` strings.
  ///   - input: The file for standard input.
  ///   - folder: Where the output files go (they are deleted afterwards).
  ///   - timeout: How long it may run before it is killed.
  /// - Returns: How it ended and what it printed.
  /// - Throws: `POSIXError` when it cannot be started; ``ProgramTimedOut`` when it was
  ///   still running at `timeout`.
  public static func run(
    _ program: String, _ arguments: [String], environment: [String],
    input: String = "/dev/null", folder: String, timeout: Duration = defaultTimeout
  ) throws -> ProgramResult {
    let name = UUID().uuidString
    let outputs = ["\(folder)/\(name).out", "\(folder)/\(name).err"]
    defer { for file in outputs { try? FileManager.default.removeItem(atPath: file) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
    for (descriptor, file) in zip([Int32(1), 2], outputs) {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    var attributes = defaultSignalAttributes()
    defer { posix_spawnattr_destroy(&attributes) }
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
    let (rawStatus, timedOut) = waitForExit(pid, within: timeout)
    let texts = outputs.map { file in
      FileManager.default.contents(atPath: file).map { String(decoding: $0, as: UTF8.self) }
    }
    guard !timedOut else {
      throw ProgramTimedOut(
        program: program, arguments: arguments, limit: timeout, output: texts[0] ?? "",
        errors: texts[1] ?? "")
    }
    return ProgramResult(
      status: shellStatus(rawStatus), output: texts[0] ?? "", errors: texts[1] ?? "")
  }

  /// Runs a program to its end, its output files in a temporary folder.
  ///
  /// - Parameters:
  ///   - program: The program's path.
  ///   - arguments: Its arguments.
  ///   - environment: Its whole environment, as `NAME=value` strings.
  ///   - input: The file for standard input.
  ///   - folder: Where the output files go (they are deleted afterwards).
  ///   - timeout: How long it may run before it is killed.
  /// - Returns: How it ended and what it printed.
  /// - Throws: `POSIXError` when it cannot be started; ``ProgramTimedOut`` when it was
  ///   still running at `timeout`.
  public static func run(
    _ program: String, _ arguments: [String], environment: [String],
    input: String = "/dev/null", folder: TemporaryFolder, timeout: Duration = defaultTimeout
  ) throws -> ProgramResult {
    try run(
      program, arguments, environment: environment, input: input, folder: folder.path,
      timeout: timeout)
  }

  /// Runs a program to its end with `input` as its standard input (written to a file in
  /// `folder` first).
  ///
  /// - Parameters:
  ///   - program: The program's path.
  ///   - arguments: Its arguments.
  ///   - input: The bytes for standard input.
  ///   - environment: Its whole environment, as `NAME=value` strings.
  ///   - folder: Where the input and output files go (they are deleted afterwards).
  ///   - timeout: How long it may run before it is killed.
  /// - Returns: How it ended and what it printed.
  /// - Throws: What writing the input file or starting the program throws;
  ///   ``ProgramTimedOut`` when it was still running at `timeout`.
  public static func run(
    _ program: String, _ arguments: [String], input: Data, environment: [String],
    folder: String, timeout: Duration = defaultTimeout
  ) throws -> ProgramResult {
    let file = "\(folder)/\(UUID().uuidString).in"
    defer { try? FileManager.default.removeItem(atPath: file) }
    try input.write(to: URL(fileURLWithPath: file))
    return try run(
      program, arguments, environment: environment, input: file, folder: folder,
      timeout: timeout)
  }

  /// Spawn attributes that start a child with no signal blocked and every signal's
  /// default action.
  ///
  /// A test runs on a thread that blocks every signal, and a child inherits the mask: a
  /// tmux server would never see SIGCHLD or SIGTERM.
  static func defaultSignalAttributes() -> posix_spawnattr_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    sigfillset(&signals)
    posix_spawnattr_setsigdefault(&attributes, &signals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return attributes
  }

  /// Waits for `pid` to end and reaps it, killing it (SIGKILL) if it is still running after
  /// `limit`: its raw wait status, and whether it was killed for its time.
  ///
  /// The child is not reaped until the watchdog is disarmed, so its process id cannot be
  /// reused by another process that the watchdog would then kill.
  static func waitForExit(_ pid: pid_t, within limit: Duration) -> (
    rawStatus: Int32, timedOut: Bool
  ) {
    let watchdog = Watchdog(pid: pid)
    let firing = DispatchWorkItem { watchdog.fire() }
    let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: firing)
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
    let timedOut = watchdog.disarm()
    firing.cancel()
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    return (status, timedOut)
  }

  /// A raw wait status as a shell reports it: the exit status, or 128 plus the signal that
  /// ended the process.
  static func shellStatus(_ status: Int32) -> Int32 {
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  /// Kills a child that outlives its deadline, unless it was disarmed first.
  private final class Watchdog: @unchecked Sendable {
    private let pid: pid_t
    // Guarded by `lock`.
    private let lock = NSLock()
    private var armed = true
    private var fired = false

    init(pid: pid_t) { self.pid = pid }

    /// Kills the child, if still armed.
    func fire() {
      lock.withLock {
        guard armed else { return }
        fired = true
        _ = kill(pid, SIGKILL)
      }
    }

    /// Stops the watchdog; returns whether it had killed the child.
    func disarm() -> Bool {
      lock.withLock {
        armed = false
        return fired
      }
    }
  }
}
