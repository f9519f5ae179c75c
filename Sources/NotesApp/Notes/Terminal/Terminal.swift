import CNcurses
import Dispatch
import NotesTerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why the full-screen terminal could not start.
enum TerminalError: Error, CustomStringConvertible {
  /// Standard input or output is not a terminal.
  case notATerminal
  /// ncurses could not initialize the screen.
  case cannotInitialize(String)

  var description: String {
    switch self {
    case .notATerminal: "standard input and output must be a terminal"
    case .cannotInitialize(let reason): "cannot start the terminal screen: \(reason)"
    }
  }
}

/// The full-screen terminal: draws screen buffers and reports keys and resizes.
///
/// It draws with ncursesw. There is one terminal per process: ncurses has one screen. Create it
/// with `start()`.
///
/// ## Guarantees
///
/// - Starts only on a terminal: `start()` throws `.notATerminal` unless standard input and
///   output are both terminals, and `.cannotInitialize` (instead of exiting, as initscr
///   would) when ncurses cannot set up the terminal type.
/// - Every ncurses call happens on the main actor. Keys arrive through a read source on the
///   main queue; reads never block (nodelay), except that a lone Escape waits up to 25 ms
///   for the rest of a key sequence. Text arrives as bytes decoded by `InputDecoder`: a
///   byte that is not UTF-8 is dropped on its own, and every key after it still arrives.
/// - Bracketed paste is on while the screen is (off again on every exit path below): pasted
///   text arrives as `Key.paste`, never as keys. The keys of one read arrive together, as
///   one batch, so the app handles a paste or a burst of typing as one edit and one draw.
/// - Size changes are handled here, not by ncurses: SIGWINCH gets a handler of ours before
///   ncurses starts (so ncurses installs none of its own) that reports it through a pipe,
///   read on the main queue; none is lost, however early it arrives (Terminal+Size.swift).
///   The new size comes from the kernel, then `resizeterm`, `size`, `onResize`.
/// - `draw(_:)` puts each glyph at its own column, so a character the terminal measures
///   differently from `DisplayWidth` shifts nothing after it; a buffer larger than the
///   screen is clipped; a buffer smaller leaves the rest of the screen blank.
/// - The terminal is restored on every exit path:
///   - `stop()` (idempotent) ends curses mode; so does `exit` without it (atexit).
///   - SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP
///     (Swift's traps are SIGILL on x86-64, SIGTRAP on arm64) get a C handler (in
///     CNcurses/shim.h) that puts the signal's previous action back, calls endwin() and
///     lets the signal take its course: the process ends with that signal, or the Swift
///     runtime's backtracer, if it was installed, reports the crash on a normal screen.
///     (The backtracer lets a process run on after a crash signal sent with kill; that is
///     the runtime's choice, not this type's.) endwin() is not async-signal-safe; it is the
///     compromise ncurses itself makes in its own SIGINT/SIGTERM handlers, and the only
///     way to leave the alternate screen and show the cursor again without hand-written
///     escape sequences. The risk is a garbled escape sequence if the signal interrupts
///     a screen update; a crash inside endwin still ends the process with the signal
///     (the other restore signals are blocked while the handler runs). Signals the
///     parent ignores (SIGHUP under nohup) stay ignored. SIGTSTP is left to ncurses,
///     which suspends and resumes the screen itself.
/// - A hangup on standard input (the terminal went away) calls `onHangup`; by default the
///   terminal stops itself and the process exits with status 0.
@MainActor
final class Terminal {
  /// The screen's size in columns and rows (set by the resize handling only).
  var size: (width: Int, height: Int)
  /// Whether `stop()` ran; nothing is drawn or read after it.
  private(set) var isStopped = false

  /// The read source for standard input, once `run` started it.
  var inputSource: (any DispatchSourceRead)?
  /// The read source for the pipe SIGWINCH is reported through.
  var resizeSource: (any DispatchSourceRead)?
  /// Receives the keys of each read, in order.
  var onKeys: (@MainActor ([Key]) -> Void)?
  /// Receives each new size.
  var onResize: (@MainActor (_ width: Int, _ height: Int) -> Void)?
  /// Called once when standard input hangs up; `nil` stops the terminal and exits.
  var onHangup: (@MainActor () -> Void)?
  /// Decodes typed text and pastes, across reads.
  var decoder = InputDecoder()
  // (The state above is internal, not private, only so that the extensions in
  // Terminal+Keys.swift, Terminal+Size.swift and Terminal+Drawing.swift can reach it.)

  /// Creates the object for a screen ncurses has started.
  ///
  /// - Parameter size: The screen's size.
  private init(size: (width: Int, height: Int)) {
    self.size = size
  }

  /// Switches the terminal to full-screen mode.
  ///
  /// Sets the locale from the environment (falling back to C.UTF-8 for the character set
  /// when the environment's has no UTF-8), starts ncurses in raw mode without echo, with
  /// the keypad decoded, non-blocking reads and a 25 ms Escape delay, turns bracketed
  /// paste on, hides the cursor and installs the handlers that restore the terminal.
  ///
  /// - Returns: The terminal, showing a blank screen.
  /// - Throws: `TerminalError.notATerminal` when standard input or output is not a
  ///   terminal, `.cannotInitialize` when ncurses cannot start (such as an unknown `TERM`).
  static func start() throws(TerminalError) -> Terminal {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
    useUTF8Locale()
    // Before ncurses starts: with SIGWINCH not at its default action ncurses installs no
    // handler for it, and with ours installed it installs none for SIGINT and SIGTERM either.
    let resizes = catchResizes()
    airframe_install_restore_handlers()
    guard airframe_newterm() != nil else {
      airframe_remove_restore_handlers()
      stopCatchingResizes(unwatched: resizes)
      let type = getenv("TERM").map { String(cString: $0) }
      throw .cannotInitialize(
        type.map { "unknown terminal type \"\($0)\"" } ?? "the TERM variable is not set")
    }
    _ = airframe_register_exit_restore()
    let window = airframe_stdscr()
    raw()
    noecho()
    nonl()
    keypad(window, true)
    nodelay(window, true)
    set_escdelay(25)
    curs_set(0)
    airframe_bracketed_paste(true)
    let terminal = Terminal(size: (Int(getmaxx(window)), Int(getmaxy(window))))
    if let resizes { terminal.observeResizes(pipe: resizes) }
    return terminal
  }

  /// Starts reporting key presses and size changes on the main queue.
  ///
  /// - Parameters:
  ///   - onKeys: Called with the keys of each read, in order (a paste is one key).
  ///   - onResize: Called after the screen changed size, with the new width and height
  ///     (also in `size`).
  ///   - onHangup: Called once when standard input hangs up or ends; when `nil`, the
  ///     terminal stops and the process exits with status 0.
  func run(
    onKeys: @escaping @MainActor ([Key]) -> Void,
    onResize: @escaping @MainActor (_ width: Int, _ height: Int) -> Void,
    onHangup: (@MainActor () -> Void)? = nil
  ) {
    guard !isStopped else { return }
    self.onKeys = onKeys
    self.onResize = onResize
    self.onHangup = onHangup
    guard inputSource == nil else { return }
    let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
    source.setEventHandler { [weak self] in
      MainActor.assumeIsolated { self?.readKeys() }
    }
    inputSource = source
    source.resume()
  }

  /// Restores the terminal; calling it again does nothing.
  ///
  /// Stops reading keys and watching the size, ends curses mode (normal screen, cursor
  /// shown, the terminal's modes as before `start()`) and removes the signal handlers.
  func stop() {
    guard !isStopped else { return }
    isStopped = true
    inputSource?.cancel()
    inputSource = nil
    resizeSource?.cancel()
    resizeSource = nil
    airframe_bracketed_paste(false)
    endwin()
    airframe_remove_restore_handlers()
    Self.stopCatchingResizes()
  }

  // MARK: - Setup

  /// Sets the locale from the environment; uses C.UTF-8 for characters if it has no UTF-8.
  private static func useUTF8Locale() {
    setlocale(LC_ALL, "")
    guard let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" else {
      return
    }
    setlocale(LC_CTYPE, "C.UTF-8")
  }
}
