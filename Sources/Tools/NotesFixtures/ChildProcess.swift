// ChildProcess: a program started with posix_spawn whose standard output the test reads
// line by line while it runs (for crash tests, which kill it at a chosen line).

public import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A running child process with its standard output connected to a pipe.
///
/// ## Guarantees
/// - Started with an empty environment, no signal blocked and every signal's default
///   action (as ``Programs`` starts programs).
/// - ``wait(within:)`` reaps the child and closes the pipe; a child that is never waited
///   for stays a zombie until the test process ends.
/// - Every wait has a deadline: ``readLine(within:)`` throws ``TimedOut`` when no line came
///   in time, and ``wait(within:)`` kills a child still running at its deadline and
///   throws; each says what it waited for and the last line read.
public final class ChildProcess {
  /// A wait on the child that passed its deadline.
  public struct TimedOut: Error, CustomStringConvertible {
    /// What the test waited for, such as "a line from notes-crash-writer".
    public var awaited: String
    /// The deadline it was given.
    public var limit: Duration
    /// The last whole line read from the child, if any.
    public var lastLine: String?
    /// What the child had written of a line not yet ended.
    public var partialLine: String

    /// What was awaited, for how long, and the last output seen.
    public var description: String {
      "Timed out after \(limit) waiting until \(awaited); the last line read: "
        + "\(lastLine?.debugDescription ?? "none"), then \(partialLine.debugDescription)"
    }
  }

  /// The child's process id.
  public let pid: pid_t
  /// The program's name and arguments, for messages.
  private let command: String
  private let output: Int32
  private var buffer: [UInt8] = []
  private var isAtEnd = false
  private var lastLine: String?

  /// Starts `executable` with `arguments` and an empty environment.
  ///
  /// - Parameters:
  ///   - executable: The program's path.
  ///   - arguments: Its arguments.
  /// - Throws: `POSIXError` when the pipe or the process cannot be made.
  public init(executable: String, arguments: [String]) throws {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_addclose(&actions, fds[1])
    var attributes = Programs.defaultSignalAttributes()
    defer { posix_spawnattr_destroy(&attributes) }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let envp: [UnsafeMutablePointer<CChar>?] = [nil]
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    close(fds[1])
    guard status == 0 else {
      close(fds[0])
      throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL)
    }
    self.pid = pid
    self.output = fds[0]
    command = ([(executable as NSString).lastPathComponent] + arguments).joined(separator: " ")
  }

  /// The next line of standard output, or `nil` at the end.
  ///
  /// - Parameter limit: The longest to wait for the line: a safety net for a child that
  ///   neither writes nor ends, not a measurement.
  /// - Returns: The line, without its line break.
  /// - Throws: ``TimedOut`` when neither a line nor the end came within `limit`.
  public func readLine(within limit: Duration = .seconds(60)) throws -> String? {
    let deadline = ContinuousClock.now.advanced(by: limit)
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        lastLine = line
        return line
      }
      if isAtEnd { return nil }
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else {
        throw TimedOut(
          awaited: "a line from `\(command)` (pid \(pid))", limit: limit, lastLine: lastLine,
          partialLine: String(decoding: buffer, as: UTF8.self))
      }
      var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(clamping: Int((left / .milliseconds(1)).rounded(.up)))
      guard poll(&ready, 1, milliseconds) > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = read(output, &chunk, chunk.count)
      if count <= 0 {
        isAtEnd = true
        if buffer.isEmpty { return nil }
        let line = String(decoding: buffer, as: UTF8.self)
        buffer.removeAll()
        return line
      }
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  /// Sends SIGKILL.
  public func kill() { _ = Glibc.kill(pid, SIGKILL) }

  /// Waits for the process to end and closes the pipe; kills it (SIGKILL) if it is still
  /// running after `limit`.
  ///
  /// - Parameter limit: The longest to wait: a safety net, not a measurement.
  /// - Returns: The raw wait status.
  /// - Throws: ``TimedOut`` when the process was still running at `limit` (it is killed and
  ///   reaped first).
  @discardableResult
  public func wait(within limit: Duration = .seconds(60)) throws -> Int32 {
    let (status, timedOut) = Programs.waitForExit(pid, within: limit)
    close(output)
    guard !timedOut else {
      throw TimedOut(
        awaited: "`\(command)` (pid \(pid)) ends", limit: limit, lastLine: lastLine,
        partialLine: String(decoding: buffer, as: UTF8.self))
    }
    return status
  }
}
