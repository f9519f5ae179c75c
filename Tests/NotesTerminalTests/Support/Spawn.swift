// Spawn: runs programs for the terminal tests with posix_spawn, their standard streams
// connected to files, and finds the programs the package built.
//
// Guarantees
// - Never Foundation.Process: its output pipe stays open in a daemon the child forks (the
//   tmux server), so reading it would wait for that daemon.
// - Output goes to files, never pipes, so no child can block on a full pipe.
// - A child starts with no signal blocked and every signal's default action, whatever
//   the test thread had.
// - A temporary folder is created with mkdtemp under /tmp (short paths: a tmux socket path
//   must fit in 108 bytes) and removed with everything in it.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How a program ended and what it printed.
struct ProgramResult {
  /// The exit status, or 128 plus the signal that ended it (as a shell reports it).
  var status: Int32
  /// Standard output.
  var output: String
  /// Standard error.
  var errors: String
}

/// A fresh folder under /tmp, removed with its contents by `remove()`.
struct TemporaryFolder {
  /// The folder's path.
  let path: String

  /// Creates the folder.
  ///
  /// - Throws: `POSIXError` when it cannot be created.
  init() throws {
    var template = Array("/tmp/notes-terminal-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw POSIXError(.EACCES) }
    path = String(cString: made)
  }

  /// The path of `name` inside the folder.
  ///
  /// - Parameter name: A file name.
  /// - Returns: The path.
  func file(_ name: String) -> String { path + "/" + name }

  /// The text of a file in the folder, or `nil` if it cannot be read.
  ///
  /// - Parameter name: A file name.
  /// - Returns: The file's text.
  func text(of name: String) -> String? {
    FileManager.default.contents(atPath: file(name)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Deletes the folder and everything in it.
  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Finds programs: those the package built, and those on the search path.
enum Programs {
  /// The path of a program built next to the test bundle, such as `notes` (the same
  /// place NotesStorageTests' `builtProgram` looks).
  ///
  /// - Parameter name: The program's name.
  /// - Returns: Its path, or `nil` if it was not built.
  static func built(_ name: String) -> String? {
    guard let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else { return nil }
    let folder = URL(fileURLWithPath: runner).deletingLastPathComponent()
    return executable(name, in: [folder.path, folder.deletingLastPathComponent().path])
  }

  /// The path of a program on the test process's `PATH`, such as `tmux`.
  ///
  /// - Parameter name: The program's name.
  /// - Returns: Its path, or `nil` if no folder on the path has it.
  static func onPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return executable(name, in: path.split(separator: ":").map(String.init))
  }

  /// The first executable file called `name` in `folders`.
  ///
  /// - Parameters:
  ///   - name: A file name.
  ///   - folders: Folders, searched in order.
  /// - Returns: Its path, or `nil`.
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
  /// - Returns: How it ended and what it printed.
  /// - Throws: `POSIXError` when it cannot be started.
  static func run(
    _ program: String, _ arguments: [String], environment: [String],
    input: String = "/dev/null", folder: TemporaryFolder
  ) throws -> ProgramResult {
    let name = UUID().uuidString
    let outputs = [folder.file("\(name).out"), folder.file("\(name).err")]
    defer { for file in outputs { try? FileManager.default.removeItem(atPath: file) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
    for (descriptor, file) in zip([Int32(1), 2], outputs) {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    // The test runs on a thread that blocks every signal, and a child inherits the mask: a
    // tmux server would never see SIGCHLD or SIGTERM. Start children with no signal
    // blocked and every signal's default action.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    sigfillset(&signals)
    posix_spawnattr_setsigdefault(&attributes, &signals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    let signal = status & 0x7F
    let texts = outputs.map { file in
      FileManager.default.contents(atPath: file).map { String(decoding: $0, as: UTF8.self) }
    }
    return ProgramResult(
      status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal,
      output: texts[0] ?? "", errors: texts[1] ?? "")
  }
}
