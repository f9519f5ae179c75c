// End-to-end tests of the full-screen app in a private tmux server: it starts on a
// terminal, follows its size, decodes keys, and leaves the terminal as it found it on
// every way out (quitting, signals, a start that fails).

import AirframeTesting
import Foundation
import NotesTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.noLiveBindings, .serialized, .timeLimit(.minutes(10)))
struct FullScreenTests {
  @Test func showsTheLibraryAndRestoresTheTerminalOnQuit() async throws {
    let notes = try NotesProgram()
    defer { notes.close() }
    try #require(await notes.waitUntilFullScreen())
    try await notes.tmux.waitForScreen("the library shows") { $0.first?.contains("Notes") == true }
    #expect(try notes.tmux.value("#{cursor_flag}") == "0", "the cursor shows while browsing")

    try notes.tmux.type("q")
    #expect(try await notes.waitForExit() == 0)
    try notes.expectTerminalRestored()
  }

  @Test func theAppOpensWhereItWasLeftOnTheLibrary() async throws {
    let state = try TemporaryFolder()
    defer { state.remove() }
    let library = try TemporaryFolder()
    defer { library.remove() }
    // One user's state folder for both launches (each session has a HOME of its own).
    let launcher = ["env", "XDG_STATE_HOME=\(state.path)"]
    let database = library.file("notes.sqlite")
    do {
      let notes = try NotesProgram(launcher: launcher, database: database)
      defer { notes.close() }
      try #require(await notes.waitUntilFullScreen())
      try notes.tmux.type("/")
      try notes.tmux.type("bike")
      try notes.tmux.press("Enter")
      _ = try await notes.tmux.waitForScreen("the search") { screen in
        screen.contains { $0.contains("· “bike”") }
          && screen.contains { $0.contains("Fix the bike") }
      }
      try notes.tmux.type("q")
      #expect(try await notes.waitForExit() == 0)
    }
    let again = try NotesProgram(launcher: launcher, database: database)
    defer { again.close() }
    try #require(await again.waitUntilFullScreen())
    _ = try await again.tmux.waitForScreen("the search and note, again") { screen in
      screen.contains { $0.contains("· “bike”") }
        && screen.contains { $0.contains("Fix the bike") }
    }
    try again.tmux.type("q")
    #expect(try await again.waitForExit() == 0)
  }

  @Test(arguments: [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGABRT])
  func aSignalEndsTheProcessAndRestoresTheTerminal(signal: Int32) async throws {
    let notes = try NotesProgram()
    defer { notes.close() }
    try #require(await notes.waitUntilFullScreen())
    let pid = try #require(notes.pid)
    // ThreadSanitizer delivers SIGSEGV and SIGABRT at once even inside its own runtime, and
    // our handler's sigaction and endwin re-enter that runtime: a CI run and 2 of 12 local
    // runs deadlocked there (gdb: sigaction_impl waiting on TSan's SlotLock, interrupting
    // VectorClock::Acquire). That is the sanitizer's limit, not the app's; the plain run
    // and AddressSanitizer runs check both signals whole.
    let sanitizer = ProcessInfo.processInfo.environment["AIRFRAME_SANITIZER"]
    if sanitizer == "thread", signal == SIGSEGV || signal == SIGABRT { return }
    // AddressSanitizer handles SIGSEGV itself: after our handler restores the terminal and
    // raises the signal again, ASan's handler reports it and exits with status 1.
    let expected = sanitizer == "address" && signal == SIGSEGV ? 1 : 128 + signal
    kill(pid, signal)
    let status = try await notes.waitForExit()
    #expect(status == expected, "not ended by the signal")
    try notes.expectTerminalRestored()
  }

  @Test(arguments: [false, true])
  func closingTheTerminalEndsTheProgram(ignoringSIGHUP: Bool) async throws {
    // The kernel sends SIGHUP when the terminal hangs up; with SIGHUP ignored (as under
    // nohup) only the input's hangup tells notes its terminal is gone. Either way it must
    // end, not spin on a dead input or wait forever. A resize first leaves a KEY_RESIZE
    // queued in ncurses, which must not hide the hangup.
    let launcher = ignoringSIGHUP ? ["sh", "-c", #"trap '' HUP; exec "$0" "$@""#] : []
    let notes = try NotesProgram(launcher: launcher)
    defer { notes.close() }
    try #require(await notes.waitUntilFullScreen())
    let pid = try #require(notes.pid)
    try notes.tmux.resize(width: 80, height: 20)
    // Redrawn, not only cut by tmux: the title bar ends with its help hint within the
    // new width, and the status bar is the last of the new rows.
    try await notes.tmux.waitForScreen("the screen is redrawn at 80 × 20") { screen in
      screen.count == 20 && screen[0].hasSuffix("? help") && screen[0].count <= 80
        && screen[19].contains("notes ·")
    }

    try notes.tmux.killPane()
    try await notes.tmux.waitUntil("notes ends") { !NotesProgram.isRunning(pid) }
  }

  @Test func followsTheTerminalsSize() async throws {
    let notes = try NotesProgram(width: 100, height: 30)
    defer { notes.close() }
    try #require(await notes.waitUntilFullScreen())
    try await notes.tmux.waitForScreen("the title bar spans the screen") {
      $0.first.map { $0.count > 90 } == true
    }

    try notes.tmux.resize(width: 70, height: 12)
    try await notes.tmux.waitForScreen("the screen is redrawn at 70 × 12") { screen in
      screen.count == 12 && (61...70).contains(screen[0].count) && !screen[11].isEmpty
    }
    #expect(try notes.tmux.value("#{alternate_on}") == "1")
  }

  @Test func decodesTextAndKeys() async throws {
    let notes = try NotesProgram()
    defer { notes.close() }
    try #require(await notes.waitUntilFullScreen())
    let start = try #require(
      await notes.tmux.waitForScreen("the library shows") { $0.first?.contains("Notes") == true })

    // Arrows: Down moves the selection twice, Up moves it back once.
    try notes.tmux.press("Down")
    let first = try #require(
      await notes.tmux.waitForScreen("Down changes the screen") { $0 != start })
    try notes.tmux.press("Down")
    try await notes.tmux.waitForScreen("Down changes the screen again") { $0 != first }
    try notes.tmux.press("Up")
    try await notes.tmux.waitForScreen("Up goes back") { $0 == first }

    // A function key opens help; Escape on its own closes it.
    try notes.tmux.press("F1")
    try await notes.tmux.waitForScreen("F1 changes the screen") { $0 != first }
    try notes.tmux.press("Escape")
    try await notes.tmux.waitForScreen("Escape closes help") { $0 == first }

    // UTF-8 text, wide characters included, reaches the app and is drawn in its columns.
    try notes.tmux.type("/漢字é")
    let screen = try #require(
      await notes.tmux.waitForScreen("the search text shows") {
        $0.contains { $0.contains("漢字é") }
      })
    let row = try #require(screen.first { $0.contains("漢字é") })
    #expect(Self.barColumns(row) == Self.barColumns(screen[screen.count / 2]))
  }

  @Test func anUnknownTerminalTypeIsReportedAndLeavesTheTerminalAlone() async throws {
    let notes = try NotesProgram(launcher: ["env", "TERM=no-such-terminal"])
    defer { notes.close() }
    #expect(try await notes.waitForExit() == 1)
    #expect(try notes.tmux.screen().contains { $0.contains("unknown terminal type") })
    try notes.expectTerminalRestored()
  }

  @Test func anOutputThatIsNotATerminalIsRefused() async throws {
    let notes = try NotesProgram(redirection: "> output")
    defer { notes.close() }
    #expect(try await notes.waitForExit() == 1)
    #expect(try notes.tmux.screen().contains { $0.contains("terminal") })
    #expect(notes.tmux.folder.text(of: "output") == "")
  }

  /// The display columns of the pane borders (│) in a row, counting CJK characters (the
  /// only wide ones the tests type) as two columns.
  ///
  /// - Parameter row: A row of the screen.
  /// - Returns: The columns.
  private static func barColumns(_ row: String) -> [Int] {
    var columns: [Int] = []
    var column = 0
    for character in row {
      if character == "│" { columns.append(column) }
      let scalar = character.unicodeScalars.first?.value ?? 0
      column += (0x3000...0x9FFF).contains(scalar) || (0xAC00...0xD7A3).contains(scalar) ? 2 : 1
    }
    return columns
  }
}
