import Foundation
import NotesTestSupport
import Testing

/// A tmux command that could not run.
struct TmuxError: Error, CustomStringConvertible {
  /// What went wrong.
  var description: String
}

/// A tmux server of its own, with one session whose only pane runs a shell script.
///
/// It serves the end-to-end tests of the full-screen app: the session has a fixed size, and a
/// test types and presses keys (or sends any bytes), reads the screen (with or without its
/// attributes) and the pane's modes, and waits for them to change.
///
/// ## Guarantees
///
/// - Private: its own socket in its own temporary folder and only its own configuration
///   (`-f`), so it never touches the user's tmux server or settings.
/// - `close()` kills the server and removes the folder; call it in a `defer`.
/// - A missing tmux is an error (`TmuxError`), so the tests fail with a clear message in CI
///   rather than pass without running.
/// - The pane runs with a fixed environment (C.UTF-8 locale, TERM=screen, and the Swift
///   backtracer off: on a crash signal sent with kill it prints a backtrace and lets the
///   process run on), whatever the test process's environment is — only sanitizer settings
///   pass through — and stays after its program ends (remain-on-exit).
/// - Waiting polls every 20 ms; the timeout is only a safety net, with room for a machine
///   busy with other work (each poll runs tmux, and an observation reads the library with
///   `notes`), and hitting it records an issue that names what was awaited and shows the
///   screen at that moment.
final class TmuxSession {
  /// The folder of the socket and the configuration; the script's files go here too.
  let folder: TemporaryFolder
  /// The tmux program.
  private let tmux: String
  /// The session's name, the target of every command.
  private let session = "test"
  /// The environment of every tmux command, and so of the server and the pane.
  private let environment: [String]

  /// Starts the server with a detached session running `script` with /bin/sh.
  ///
  /// - Parameters:
  ///   - script: The shell script the pane runs, written to `run.sh` in `folder`.
  ///   - folder: The session's folder; removed by `close()`.
  ///   - width: The pane's columns.
  ///   - height: The pane's rows.
  /// - Throws: `TmuxError` when tmux is not installed or cannot start.
  init(script: String, in folder: TemporaryFolder, width: Int = 100, height: Int = 30) throws {
    guard let tmux = Programs.onPath("tmux") else {
      throw TmuxError(
        description: "tmux is not installed: the terminal tests need it (apt-get install tmux)")
    }
    self.tmux = tmux
    self.folder = folder
    // Sanitizer settings pass through, so an instrumented `notes` runs as CI configured it.
    let passedThrough = ["ASAN_OPTIONS", "TSAN_OPTIONS", "AIRFRAME_SANITIZER"].compactMap { name in
      ProcessInfo.processInfo.environment[name].map { "\(name)=\($0)" }
    }
    environment =
      [
        "PATH=/usr/bin:/bin", "HOME=\(folder.path)", "LANG=C.UTF-8",
        "SWIFT_BACKTRACE=enable=no",
      ] + passedThrough
    let configuration = """
      set -g default-terminal screen
      set -g remain-on-exit on
      set -g status off

      """
    try Data(configuration.utf8).write(to: URL(fileURLWithPath: folder.file("tmux.conf")))
    try Data(script.utf8).write(to: URL(fileURLWithPath: folder.file("run.sh")))
    try run([
      "new-session", "-d", "-s", session, "-x", "\(width)", "-y", "\(height)",
      "/bin/sh", folder.file("run.sh"),
    ])
  }

  /// Runs a tmux command against this server.
  ///
  /// - Parameter arguments: The command and its arguments.
  /// - Returns: What it printed.
  /// - Throws: `TmuxError` when it fails.
  @discardableResult
  func run(_ arguments: [String]) throws -> String {
    // A tmux command returns at once; its deadline only keeps a hung one from hanging the test.
    let result = try Programs.run(
      tmux, ["-S", folder.file("tmux.socket"), "-f", folder.file("tmux.conf")] + arguments,
      environment: environment, folder: folder, timeout: .seconds(60))
    guard result.status == 0 else {
      throw TmuxError(
        description: "tmux \(arguments.joined(separator: " ")) failed with status "
          + "\(result.status): \(result.errors)")
    }
    return result.output
  }

  /// Types text as it is, each character a key press.
  ///
  /// - Parameter text: The text.
  /// - Throws: `TmuxError` when tmux fails.
  func type(_ text: String) throws {
    try run(["send-keys", "-t", session, "-l", "--", text])
  }

  /// Presses keys by their tmux names, such as `Enter`, `Tab`, `BTab`, `Escape`, `Up`,
  /// `F1` or `C-r`.
  ///
  /// - Parameter keys: The key names.
  /// - Throws: `TmuxError` when tmux fails.
  func press(_ keys: String...) throws {
    try run(["send-keys", "-t", session] + keys)
  }

  /// Pastes text as a terminal does: bracketed (`paste-buffer -p`) when the program turned
  /// bracketed paste on, with line feeds sent as carriage returns.
  ///
  /// - Parameter text: The text, of any length (it goes through a file).
  /// - Throws: `TmuxError` when tmux fails, or the error writing the file.
  func paste(_ text: String) throws {
    let file = folder.file("paste.txt")
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    try run(["load-buffer", "-b", "paste", file])
    try run(["paste-buffer", "-p", "-d", "-b", "paste", "-t", session])
  }

  /// Sends bytes as they are, whatever they are: invalid UTF-8, NUL and control bytes
  /// included (`send-keys -H`).
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: `TmuxError` when tmux fails.
  func send(bytes: [UInt8]) throws {
    guard !bytes.isEmpty else { return }
    let hex = bytes.map { String($0, radix: 16) }
    try run(["send-keys", "-t", session, "-H"] + hex)
  }

  /// The pane's text with each character's attributes (bold, dim, reverse, underline).
  ///
  /// - Returns: The rows.
  /// - Throws: `TmuxError` when tmux fails.
  func styledScreen() throws -> [StyledText] {
    StyledText.rows(
      fromCapture: Self.visible(try run(["capture-pane", "-p", "-e", "-t", session])))
  }

  /// A capture without the invisible marks that isolate user text (U+2068, U+2069), which
  /// tmux keeps with the characters they enclose: the tests read what the pane shows.
  private static func visible(_ capture: String) -> String {
    String(capture.unicodeScalars.filter { $0 != "\u{2068}" && $0 != "\u{2069}" })
  }

  /// The pane's text, one string per row, trailing spaces removed.
  ///
  /// - Returns: The rows.
  /// - Throws: `TmuxError` when tmux fails.
  func screen() throws -> [String] {
    var lines = Self.visible(try run(["capture-pane", "-p", "-t", session]))
      .components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// A tmux format expanded for the pane, such as `#{alternate_on}`.
  ///
  /// - Parameter format: The format.
  /// - Returns: Its value.
  /// - Throws: `TmuxError` when tmux fails.
  func value(_ format: String) throws -> String {
    try run(["display-message", "-p", "-t", session, format])
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Resizes the window (and so the pane) as a terminal window resize would.
  ///
  /// - Parameters:
  ///   - width: Columns.
  ///   - height: Rows.
  /// - Throws: `TmuxError` when tmux fails.
  func resize(width: Int, height: Int) throws {
    try run(["resize-window", "-t", session, "-x", "\(width)", "-y", "\(height)"])
  }

  /// Closes the pane as closing a terminal window would: its terminal hangs up.
  ///
  /// - Throws: `TmuxError` when tmux fails.
  func killPane() throws {
    try run(["kill-pane", "-t", session])
  }

  /// Waits until `condition` holds, checking every 20 ms.
  ///
  /// - Parameters:
  ///   - description: What is awaited, for the issue recorded on a timeout.
  ///   - timeout: A safety net, not a measurement.
  ///   - sourceLocation: Where the issue is recorded.
  ///   - condition: The condition.
  /// - Returns: Whether it held before the timeout.
  /// - Throws: An error `condition` throws, or `CancellationError`.
  @discardableResult
  func waitUntil(
    _ description: String, timeout: Duration = .seconds(60),
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
  ) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if try condition() { return true }
      try await Task.sleep(for: .milliseconds(20))
    }
    if try condition() { return true }
    let screen = (try? screen().joined(separator: "\n")) ?? "(no screen)"
    Issue.record(
      "Timed out after \(timeout) waiting until \(description). The pane shows:\n\(screen)",
      sourceLocation: sourceLocation)
    return false
  }

  /// Waits until the screen satisfies `condition` and has settled: two captures in a row
  /// are the same, so a screen half-way through a redraw is never taken.
  ///
  /// - Parameters:
  ///   - description: What is awaited, for the issue recorded on a timeout.
  ///   - sourceLocation: Where the issue is recorded.
  ///   - condition: The condition, given the screen's rows.
  /// - Returns: The screen, or `nil` on a timeout.
  /// - Throws: `TmuxError` when tmux fails, or `CancellationError`.
  @discardableResult
  func waitForScreen(
    _ description: String, sourceLocation: SourceLocation = #_sourceLocation,
    where condition: ([String]) -> Bool
  ) async throws -> [String]? {
    var previous: [String]?
    var settled: [String]?
    try await waitUntil(description, sourceLocation: sourceLocation) {
      let screen = try screen()
      defer { previous = screen }
      guard screen == previous, condition(screen) else { return false }
      settled = screen
      return true
    }
    return settled
  }

  /// Kills the server (and the pane's programs) and removes the folder.
  func close() {
    _ = try? run(["kill-server"])
    folder.remove()
  }
}
