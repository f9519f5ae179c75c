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
/// - ``wait()`` reaps the child and closes the pipe; a child that is never waited for
///   stays a zombie until the test process ends.
public final class ChildProcess {
  /// The child's process id.
  public let pid: pid_t
  private let output: Int32
  private var buffer: [UInt8] = []
  private var isAtEnd = false

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
  }

  /// The next line of standard output, or `nil` at the end.
  ///
  /// - Returns: The line, without its line break.
  public func readLine() -> String? {
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
      }
      if isAtEnd { return nil }
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

  /// Waits for the process to end and closes the pipe.
  ///
  /// - Returns: The raw wait status.
  @discardableResult
  public func wait() -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    close(output)
    return status
  }
}
