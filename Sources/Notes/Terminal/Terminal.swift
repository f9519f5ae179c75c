// Terminal: the full-screen terminal of the `notes` app, drawn with ncursesw.
//
// Guarantees
// - Starts only on a terminal: `start()` throws `.notATerminal` unless standard input and
//   output are both terminals, and `.cannotInitialize` (instead of exiting, as initscr
//   would) when ncurses cannot set up the terminal type.
// - Every ncurses call happens on the main actor. Keys arrive through a read source on the
//   main queue; reads never block (nodelay), except that a lone Escape waits up to 25 ms
//   for the rest of a key sequence. Text arrives as bytes decoded by `UTF8Decoder`: a byte
//   that is not UTF-8 is dropped on its own, and every key after it still arrives.
// - Size changes are handled here, not by ncurses: SIGWINCH is ignored before ncurses
//   starts (so ncurses installs no handler of its own) and observed through a signal
//   source; the new size comes from the kernel, then `resizeterm`, `size`, `onResize`.
// - `draw(_:)` puts each glyph at its own column, so a character the terminal measures
//   differently from `DisplayWidth` shifts nothing after it; a buffer larger than the
//   screen is clipped; a buffer smaller leaves the rest of the screen blank.
// - The terminal is restored on every exit path:
//   - `stop()` (idempotent) ends curses mode; so does `exit` without it (atexit).
//   - SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP
//     (Swift's traps are SIGILL on x86-64, SIGTRAP on arm64) get a C handler (in
//     CNcurses/shim.h) that puts the signal's previous action back, calls endwin() and
//     lets the signal take its course: the process ends with that signal, or the Swift
//     runtime's backtracer, if it was installed, reports the crash on a normal screen.
//     (The backtracer lets a process run on after a crash signal sent with kill; that is
//     the runtime's choice, not this file's.) endwin() is not async-signal-safe; it is the
//     compromise ncurses itself makes in its own SIGINT/SIGTERM handlers, and the only
//     way to leave the alternate screen and show the cursor again without hand-written
//     escape sequences. The risk is a garbled escape sequence if the signal interrupts
//     a screen update; a crash inside endwin still ends the process with the signal
//     (the other restore signals are blocked while the handler runs). Signals the
//     parent ignores (SIGHUP under nohup) stay ignored. SIGTSTP is left to ncurses,
//     which suspends and resumes the screen itself.
// - A hangup on standard input (the terminal went away) calls `onHangup`; by default the
//   terminal stops itself and the process exits with status 0.

import CNcurses
import Dispatch
import NotesApp

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
/// There is one terminal per process: ncurses has one screen. Create it with `start()`.
@MainActor
final class Terminal {
  /// The screen's size in columns and rows.
  private(set) var size: (width: Int, height: Int)
  /// Whether `stop()` ran; nothing is drawn or read after it.
  private(set) var isStopped = false

  /// The read source for standard input, once `run` started it.
  private var inputSource: (any DispatchSourceRead)?
  /// The signal source for SIGWINCH.
  private var resizeSource: (any DispatchSourceSignal)?
  /// Receives each decoded key.
  private var onKey: (@MainActor (Key) -> Void)?
  /// Receives each new size.
  private var onResize: (@MainActor (_ width: Int, _ height: Int) -> Void)?
  /// Called once when standard input hangs up; `nil` stops the terminal and exits.
  private var onHangup: (@MainActor () -> Void)?
  /// Decodes the UTF-8 bytes of typed text, across reads.
  private var decoder = UTF8Decoder()

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
  /// the keypad decoded, non-blocking reads and a 25 ms Escape delay, hides the cursor
  /// and installs the handlers that restore the terminal.
  ///
  /// - Returns: The terminal, showing a blank screen.
  /// - Throws: `TerminalError.notATerminal` when standard input or output is not a
  ///   terminal, `.cannotInitialize` when ncurses cannot start (such as an unknown `TERM`).
  static func start() throws(TerminalError) -> Terminal {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
    useUTF8Locale()
    // Before ncurses starts: with SIGWINCH ignored ncurses installs no handler for it, and
    // with ours installed it installs none for SIGINT and SIGTERM either.
    signal(SIGWINCH, SIG_IGN)
    airframe_install_restore_handlers()
    guard airframe_newterm() != nil else {
      airframe_remove_restore_handlers()
      signal(SIGWINCH, SIG_DFL)
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
    let terminal = Terminal(size: (Int(getmaxx(window)), Int(getmaxy(window))))
    terminal.observeResizes()
    return terminal
  }

  /// Starts reporting key presses and size changes on the main queue.
  ///
  /// - Parameters:
  ///   - onKey: Called for each key, in order.
  ///   - onResize: Called after the screen changed size, with the new width and height
  ///     (also in `size`).
  ///   - onHangup: Called once when standard input hangs up or ends; when `nil`, the
  ///     terminal stops and the process exits with status 0.
  func run(
    onKey: @escaping @MainActor (Key) -> Void,
    onResize: @escaping @MainActor (_ width: Int, _ height: Int) -> Void,
    onHangup: (@MainActor () -> Void)? = nil
  ) {
    guard !isStopped else { return }
    self.onKey = onKey
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

  /// Shows `buffer`: its cells, then its cursor (hidden when it has none).
  ///
  /// - Parameter buffer: The screen to show; clipped to `size`.
  func draw(_ buffer: ScreenBuffer) {
    guard !isStopped else { return }
    let window = airframe_stdscr()
    // Blank first: a glyph the terminal draws narrower than we measured leaves no stale
    // cell behind. ncurses sends only the differences when it refreshes.
    werase(window)
    let rows = min(buffer.height, size.height)
    let columns = min(buffer.width, size.width)
    for y in 0..<rows {
      for x in 0..<columns where !buffer[y, x].glyph.isEmpty {
        let cell = buffer[y, x]
        // A wide character cut by the screen's right edge would wrap; draw a blank.
        let isCutWide =
          x == columns - 1 && x + 1 < buffer.width && buffer[y, x + 1].glyph.isEmpty
        wattr_set(window, Self.attributes(cell.style), 0, nil)
        _ = mvwaddstr(window, Int32(y), Int32(x), isCutWide ? " " : cell.glyph)
      }
    }
    wattr_set(window, 0, 0, nil)
    if let cursor = buffer.cursor, (0..<rows).contains(cursor.row),
      (0..<columns).contains(cursor.column)
    {
      wmove(window, Int32(cursor.row), Int32(cursor.column))
      curs_set(1)
    } else {
      curs_set(0)
    }
    wrefresh(window)
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
    endwin()
    airframe_remove_restore_handlers()
  }

  // MARK: - Keys

  /// Reads every key available without blocking and reports each; notices a hangup.
  private func readKeys() {
    // Bytes, not wide characters: ncurses' wget_wch gives up on the rest of a read after a
    // byte that is not UTF-8, so keys after it would be lost. Key codes (arrows, function
    // keys) still come decoded by keypad mode; text bytes go through `decoder`, which drops
    // an invalid byte on its own.
    while !isStopped {
      let code = wgetch(airframe_stdscr())
      if code == ERR { break }
      if code > 0xFF {
        if let key = Self.key(code: code) { onKey?(key) }
      } else if let scalar = decoder.feed(UInt8(truncatingIfNeeded: code)) {
        if let key = Key.typed(scalar) { onKey?(key) }
      }
    }
    // Checked after every read, whatever it returned: the source reports a hangup only
    // once, and ncurses may still have returned a queued key (such as the KEY_RESIZE that
    // resizeterm queues) in that round.
    if !isStopped, Self.inputHungUp() { hangUp() }
  }

  /// Stops reading and calls `onHangup`, or stops and exits without one.
  private func hangUp() {
    inputSource?.cancel()
    inputSource = nil
    if let onHangup {
      onHangup()
    } else {
      stop()
      exit(0)
    }
  }

  /// Whether standard input reports a hangup or an error.
  ///
  /// - Returns: `true` if the terminal is gone.
  private static func inputHungUp() -> Bool {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, 0) == 1 else { return false }
    return Int32(descriptor.revents) & (POLLHUP | POLLERR | POLLNVAL) != 0
  }

  /// The key an ncurses key code stands for.
  ///
  /// - Parameter code: A `KEY_…` value.
  /// - Returns: The key, or `nil` for one the app has no use for (such as KEY_RESIZE).
  private static func key(code: Int32) -> Key? {
    switch code {
    case KEY_UP: .up
    case KEY_DOWN: .down
    case KEY_LEFT: .left
    case KEY_RIGHT: .right
    case KEY_HOME: .home
    case KEY_END: .end
    case KEY_PPAGE: .pageUp
    case KEY_NPAGE: .pageDown
    case KEY_BTAB: .backTab
    case KEY_DC: .delete
    case KEY_BACKSPACE: .backspace
    case KEY_ENTER: .enter
    case (KEY_F0 + 1)...(KEY_F0 + 63): .function(Int(code - KEY_F0))
    default: nil
    }
  }

  // MARK: - Size

  /// Starts watching SIGWINCH (ignored as a signal since `start()`) on the main queue.
  private func observeResizes() {
    let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
    source.setEventHandler { [weak self] in
      MainActor.assumeIsolated { self?.resize() }
    }
    resizeSource = source
    source.resume()
  }

  /// Takes the terminal's size from the kernel and tells ncurses and `onResize`.
  private func resize() {
    guard !isStopped else { return }
    var rows: Int32 = 0
    var columns: Int32 = 0
    guard airframe_window_size(STDOUT_FILENO, &rows, &columns) == 0, rows > 0, columns > 0
    else { return }
    resizeterm(rows, columns)
    let window = airframe_stdscr()
    size = (Int(getmaxx(window)), Int(getmaxy(window)))
    onResize?(size.width, size.height)
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

  /// The ncurses attributes for a cell style.
  ///
  /// - Parameter style: The style.
  /// - Returns: The attributes.
  private static func attributes(_ style: CellStyle) -> attr_t {
    var attributes: attr_t = 0
    if style.contains(.bold) { attributes |= airframe_attribute_bold() }
    if style.contains(.reverse) { attributes |= airframe_attribute_reverse() }
    if style.contains(.dim) { attributes |= airframe_attribute_dim() }
    if style.contains(.underline) { attributes |= airframe_attribute_underline() }
    return attributes
  }
}
