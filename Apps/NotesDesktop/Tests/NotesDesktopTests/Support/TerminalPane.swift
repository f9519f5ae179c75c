import Foundation

/// The `notes` program in a tmux pane of its own.
///
/// The terminal app (`notes`, built beside the tests) full screen in a private tmux server, on the
/// same library as the window under test: keys in, screen text out.
///
/// ## Guarantees
///
/// - Private: its own socket and configuration in the test's folder; `close()` kills the
///   server (and `notes`) whatever state it is in.
@MainActor
final class TerminalPane {
  private let socket: String
  private let configuration: String
  private let folder: String
  private let environment: [String: String]

  /// Starts `notes --database database` in a 110×30 pane.
  ///
  /// - Parameters:
  ///   - database: The library.
  ///   - folder: Where the socket, the configuration and the logs go.
  ///   - environment: More of `notes`' environment (such as `PGPASSFILE`).
  /// - Throws: ``DesktopError`` when `notes` is not built or tmux cannot start.
  init(database: String, folder: String, environment: [String: String] = [:]) throws {
    guard let notes = DesktopSession.builtProgram("notes") else {
      throw DesktopError("notes is not built next to the tests")
    }
    self.folder = folder
    socket = folder + "/tmux.socket"
    configuration = folder + "/tmux.conf"
    self.environment = [
      "PATH": "/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8", "SWIFT_BACKTRACE": "enable=no",
    ].merging(environment) { $1 }
    try Data("set -g default-terminal screen\nset -g status off\n".utf8)
      .write(to: URL(fileURLWithPath: configuration))
    try run([
      "new-session", "-d", "-s", "notes", "-x", "110", "-y", "30", notes, "--database", database,
    ])
  }

  /// Runs a tmux command against the pane's server.
  @discardableResult
  func run(_ arguments: [String]) throws -> String {
    let (status, output) = try Spawned.run(
      "tmux", ["-S", socket, "-f", configuration] + arguments, environment: environment,
      log: folder + "/tmux.log")
    guard status == 0 else { throw DesktopError("tmux \(arguments) failed (\(status)): \(output)") }
    return output
  }

  /// Types `text`, each character a key.
  func type(_ text: String) throws { try run(["send-keys", "-t", "notes", "-l", "--", text]) }

  /// Presses keys by their tmux names (`Enter`, `Escape`, `C-q`).
  func press(_ keys: String...) throws { try run(["send-keys", "-t", "notes"] + keys) }

  /// The pane's text.
  func screen() throws -> String { try run(["capture-pane", "-p", "-t", "notes"]) }

  /// Polls the screen every 50 ms until `condition` holds; `nil` after `timeout`.
  func waitForScreen(
    timeout: Duration = .seconds(10), until condition: (String) -> Bool
  ) async throws -> String? {
    let deadline = ContinuousClock.now + timeout
    repeat {
      let screen = try screen()
      if condition(screen) { return screen }
      try await Task.sleep(for: .milliseconds(50))
    } while ContinuousClock.now < deadline
    return nil
  }

  /// Kills the server and `notes` with it.
  func close() { _ = try? run(["kill-server"]) }
}
