import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Editing a note's body in the user's editor.
///
/// The note's body in a private temporary file for `$VISUAL` or `$EDITOR`, and what the editor
/// leaves there.
///
/// ## Guarantees
///
/// - Private and unguessable: the file lives in a new folder made by `mkdtemp` (a random
///   name, mode 0700) in `$TMPDIR` (else /tmp), and is created there with `O_EXCL` and
///   `O_NOFOLLOW`, mode 0600. A folder or link someone made beforehand in a shared /tmp can
///   neither read the note nor redirect it: the name cannot be known in advance, and
///   `mkdtemp` and `O_EXCL` fail rather than use what exists.
/// - Removed whatever happens: the folder and everything in it (the editor's swap and
///   backup files too) are deleted when the edit ends, succeeded or failed. While the
///   editor runs, this process ignores the signals a terminal sends (interrupt, quit,
///   hang-up) and termination, as `system(3)` does, so a Ctrl-C reaches the editor and
///   never leaves the file behind; the editor itself gets every signal's default action.
/// - An editor that cannot start or exits with a failure saves nothing.
enum EditorFile {
  /// The signals this process ignores while the editor runs.
  static let ignoredWhileEditing = [SIGINT, SIGQUIT, SIGHUP, SIGTERM]

  /// The text the user's editor leaves in a private temporary file that starts as `body`.
  ///
  /// - Parameters:
  ///   - body: The note's body.
  ///   - environment: The environment (`VISUAL`, `EDITOR`, `TMPDIR`).
  /// - Returns: What the editor saved.
  /// - Throws: ``CommandFailure``: no editor set (64), the file cannot be made or read, the
  ///   editor cannot start or failed (1), or what it saved is not UTF-8 (65).
  static func edit(_ body: String, environment: [String: String]) throws(CommandFailure)
    -> String
  {
    let editor = [environment["VISUAL"], environment["EDITOR"]]
      .compactMap { $0 }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    guard let editor else {
      throw CommandFailure(
        .usage, "'edit' needs $VISUAL or $EDITOR set, or --body - to read standard input")
    }
    let folder = try makeFolder(in: environment["TMPDIR"])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/note.txt"
    try write(body, toNewFile: file)
    // The editor command is a shell word list, as $EDITOR conventionally is ("vim -n"); it
    // inherits the terminal (standard input, output and error) and the environment.
    let status = runShell(editor + " \"$1\"", argument: file)
    guard let status else {
      throw CommandFailure(.failure, "cannot start the editor '\(editor)'")
    }
    guard status == 0 else {
      throw CommandFailure(
        .failure, "the editor '\(editor)' exited with status \(status); nothing was saved")
    }
    guard let data = FileManager.default.contents(atPath: file) else {
      throw CommandFailure(.failure, "cannot read what the editor saved in \(file)")
    }
    return try CommandInput.text(data, from: "the edited note")
  }

  /// A new folder, mode 0700, with a random name in `temporary` (else /tmp).
  static func makeFolder(in temporary: String?) throws(CommandFailure) -> String {
    var base = temporary ?? ""
    if base.isEmpty { base = "/tmp" }
    while base.count > 1, base.hasSuffix("/") { base.removeLast() }
    var template = Array("\(base)/notes-edit-XXXXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw CommandFailure(
        .failure,
        "cannot make a private folder for the editor in \(base): "
          + String(cString: strerror(errno))
      )
    }
    let folder = String(cString: made)
    chmod(folder, 0o700)
    return folder
  }

  /// Writes `text` to `path`, which must not exist (not even as a link), with mode 0600.
  private static func write(_ text: String, toNewFile path: String) throws(CommandFailure) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw CommandFailure(
        .failure, "cannot create \(path) for the editor: \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        throw CommandFailure(
          .failure, "cannot write \(path) for the editor: \(String(cString: strerror(errno)))")
      }
      bytes = bytes.dropFirst(count)
    }
  }

  /// Runs `command` with `/bin/sh -c`, `argument` as its `$1`, and waits for it, ignoring
  /// ``ignoredWhileEditing`` meanwhile (the shell gets their default actions).
  ///
  /// - Returns: Its exit status (128 plus the signal that ended it), or `nil` if it could
  ///   not be started.
  private static func runShell(_ command: String, argument: String) -> Int32? {
    let words = ["/bin/sh", "-c", command, "sh", argument]
    let argv = words.map { strdup($0) } + [nil]
    defer { for word in argv { free(word) } }
    var ignore = sigaction()
    ignore.__sigaction_handler.sa_handler = SIG_IGN
    var previous: [sigaction] = Array(repeating: sigaction(), count: ignoredWhileEditing.count)
    for (index, signal) in ignoredWhileEditing.enumerated() {
      sigaction(signal, &ignore, &previous[index])
    }
    defer {
      for (index, signal) in ignoredWhileEditing.enumerated() {
        sigaction(signal, &previous[index], nil)
      }
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in ignoredWhileEditing { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
    var pid = pid_t()
    guard posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 {
      if errno != EINTR { return nil }
    }
    // WIFEXITED / WEXITSTATUS / WTERMSIG, which are macros in C.
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }
}
