// BuiltProgram: runs the built `notes` executable as a child process, its standard input
// read from a file and its output written to files, so no pipe can fill up and block.
// Started with posix_spawn, as NotesStorageTests' ChildProcess does (not Foundation.Process).

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

enum BuiltProgram {
  /// The path of `name` built next to the test bundle, as `builtProgram` in
  /// NotesStorageTests finds `notes-crash-writer`.
  static func path(_ name: String) -> String? {
    guard let test = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else { return nil }
    let folder = URL(fileURLWithPath: test).deletingLastPathComponent()
    return [folder, folder.deletingLastPathComponent()]
      .map { $0.appendingPathComponent(name).path }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Runs `program` with `arguments` and `input` as standard input, in `folder` (which
  /// holds the input and output files), with only `HOME` set to `folder`, and waits.
  ///
  /// - Returns: The exit status (or 128 + the signal) and what it printed.
  static func run(
    _ program: String, _ arguments: [String], input: Data, folder: String
  ) throws -> CommandResult {
    let files = ["stdin", "stdout", "stderr"].map { "\(folder)/\($0)-\(UUID().uuidString)" }
    defer { for file in files { try? FileManager.default.removeItem(atPath: file) } }
    try input.write(to: URL(fileURLWithPath: files[0]))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, files[0], O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, files[1], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, files[2], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let envp = [strdup("HOME=\(folder)"), nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, program, &actions, nil, argv, envp)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    let signal = status & 0x7F
    let read = { (path: String) in
      String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self)
    }
    return CommandResult(
      status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal,
      output: read(files[1]), errors: read(files[2]))
  }
}
