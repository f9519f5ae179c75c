import Foundation
import NotesTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `notes` in a tmux pane, with what is needed to check how it leaves the terminal.
///
/// The built `notes` program running full-screen in a private tmux pane, on a fresh library,
/// started by a shell that records the terminal's modes before and after.
///
/// ## Guarantees
///
/// - The pane's shell saves `stty -g` before `notes` starts and after it ends, prints
///   "notes exited with status N" (N as a shell reports it: 128 + the signal for a
///   signal), then stays; so a test sees the normal screen the user would be back at.
/// - `notes` runs with the pid the shell wrote to `notes.pid` (the shell execs it).
/// - The library is `notes.sqlite` in the session's temporary folder, new for each session,
///   unless the session is given a database file of its own (which it never removes).
/// - `close()` leaves nothing behind: no tmux server, no folder, no `notes`.
final class NotesProgram {
  /// The tmux session.
  let tmux: TmuxSession
  /// The library file `notes` opens.
  let databasePath: String
  /// Where `notes` logs a View State Controller that disagrees with the model.
  let consistencyLog: String
  /// What the shell prints after `notes` ends, before the status.
  private static let exitPrefix = "notes exited with status "

  /// Starts `notes --database notes.sqlite` in a new tmux session.
  ///
  /// - Parameters:
  ///   - launcher: Words before the program, such as `["env", "TERM=unknown"]`.
  ///   - redirection: Shell redirections after the arguments, such as `> output`.
  ///   - width: The pane's columns.
  ///   - height: The pane's rows.
  ///   - database: The library file, such as one kept from an earlier session; by default
  ///     a new one in the session's folder.
  /// - Throws: When `notes` was not built, or tmux is missing or cannot start.
  init(
    launcher: [String] = [], redirection: String = "", width: Int = 100, height: Int = 30,
    database: String? = nil
  ) throws {
    let notes = try #require(Programs.built("notes"), "notes is not built")
    let folder = try TemporaryFolder()
    databasePath = database ?? folder.file("notes.sqlite")
    // `notes` checks every View State Controller against the model after each key and
    // redraw, and logs any mismatch here; `close()` expects the log to be empty.
    consistencyLog = folder.file("consistency.log")
    let environment = ["env", "AIRFRAME_CONSISTENCY_LOG=\(consistencyLog)"]
    let command = (environment + launcher + [notes, "--database", databasePath])
      .map(Self.quoted)
    let script = """
      cd \(Self.quoted(folder.path)) || exit 1
      stty -g > stty-before
      sh -c 'echo $$ > notes.pid; exec "$@"' sh \(command.joined(separator: " ")) \(redirection)
      echo "\(Self.exitPrefix)$?"
      stty -g > stty-after.new && mv stty-after.new stty-after
      exec sleep 600

      """
    do {
      tmux = try TmuxSession(script: script, in: folder, width: width, height: height)
    } catch {
      folder.remove()
      throw error
    }
  }

  /// The process id of `notes`, once the shell started it.
  var pid: pid_t? { tmux.folder.text(of: "notes.pid").flatMap { pid_t($0.filter(\.isNumber)) } }

  /// Waits until `notes` switched the terminal to full-screen mode (alternate screen and
  /// keypad on), which it does only after installing its signal handlers.
  ///
  /// - Parameter sourceLocation: Where a timeout is recorded.
  /// - Returns: Whether it did.
  /// - Throws: `TmuxError` when tmux fails.
  func waitUntilFullScreen(sourceLocation: SourceLocation = #_sourceLocation) async throws
    -> Bool
  {
    try await tmux.waitUntil("notes is full-screen", sourceLocation: sourceLocation) {
      try tmux.value("#{alternate_on}#{keypad_flag}") == "11" && pid != nil
    }
  }

  /// Waits until `notes` ended and the shell recorded the terminal's modes.
  ///
  /// - Parameter sourceLocation: Where a timeout is recorded.
  /// - Returns: The status the shell reported, or `nil` on a timeout.
  /// - Throws: `TmuxError` when tmux fails.
  func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int32? {
    var status: Int32?
    try await tmux.waitUntil("notes ends", sourceLocation: sourceLocation) {
      let line = try tmux.screen().first { $0.hasPrefix(Self.exitPrefix) }
      status = line.flatMap { Int32($0.dropFirst(Self.exitPrefix.count)) }
      return status != nil && tmux.folder.text(of: "stty-after") != nil
    }
    return status
  }

  /// Checks that the terminal is as `notes` found it: the normal screen, cursor shown,
  /// keypad off, and the same terminal modes (`stty -g`) as before it started.
  ///
  /// - Parameter sourceLocation: Where failures are recorded.
  /// - Throws: `TmuxError` when tmux fails.
  func expectTerminalRestored(sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(
      try tmux.value("#{alternate_on}") == "0", "still on the alternate screen",
      sourceLocation: sourceLocation)
    #expect(
      try tmux.value("#{cursor_flag}") == "1", "the cursor is hidden",
      sourceLocation: sourceLocation)
    #expect(
      try tmux.value("#{keypad_flag}#{keypad_cursor_flag}") == "00", "the keypad is on",
      sourceLocation: sourceLocation)
    let before = tmux.folder.text(of: "stty-before")
    #expect(before != nil, "no terminal modes recorded", sourceLocation: sourceLocation)
    #expect(
      tmux.folder.text(of: "stty-after") == before, "the terminal modes changed",
      sourceLocation: sourceLocation)
  }

  /// Whether a process exists and has not ended (a zombie has ended: in a container
  /// nobody may reap `notes` once its shell is gone).
  ///
  /// - Parameter pid: The process id.
  /// - Returns: `true` while it runs.
  static func isRunning(_ pid: pid_t) -> Bool {
    guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else {
      return false
    }
    let text = String(decoding: stat, as: UTF8.self)
    guard let end = text.range(of: ") ", options: .backwards) else { return false }
    return !["Z", "X"].contains(text[end.upperBound...].prefix(1))
  }

  /// Kills the tmux server, and `notes` if it outlived its terminal (after a failed
  /// test), and removes the folder.
  func close() {
    let pid = pid
    let mismatches = (try? String(contentsOfFile: consistencyLog, encoding: .utf8)) ?? ""
    if !mismatches.isEmpty {
      Issue.record("View State Controllers disagreed with the model:\n\(mismatches)")
    }
    tmux.close()
    if let pid, Self.isRunning(pid) { kill(pid, SIGKILL) }
  }

  /// A word quoted for the shell.
  ///
  /// - Parameter word: The word.
  /// - Returns: The word in single quotes.
  private static func quoted(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
