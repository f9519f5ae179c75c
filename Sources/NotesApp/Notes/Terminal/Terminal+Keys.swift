// Terminal+Keys: reads every key available without blocking, decodes it and reports a
// read's keys as one batch; notices a hangup.

import CNcurses
import Dispatch
import NotesTerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Terminal {
  /// Reads every key available without blocking and reports them as one batch; notices a
  /// hangup.
  func readKeys() {
    // Bytes, not wide characters: ncurses' wget_wch gives up on the rest of a read after a
    // byte that is not UTF-8, so keys after it would be lost. Key codes (arrows, function
    // keys) still come decoded by keypad mode; text bytes go through `decoder`, which drops
    // an invalid byte on its own and finds bracketed pastes.
    while !isStopped {
      let code = wgetch(airframe_stdscr())
      if code == ERR { break }
      if code > 0xFF {
        if let key = Self.key(code: code) { decoder.feed(key: key) }
      } else {
        decoder.feed(byte: UInt8(truncatingIfNeeded: code))
      }
    }
    let keys = decoder.finishRead()
    if !isStopped, !keys.isEmpty { onKeys?(keys) }
    // Checked after every read, whatever it returned: the source reports a hangup only
    // once, and ncurses may still have returned a queued key (such as the KEY_RESIZE that
    // resizeterm queues) in that round.
    if !isStopped, Self.inputHungUp() { hangUp() }
  }

  /// Stops reading and calls `onHangup`, or stops and exits without one.
  fileprivate func hangUp() {
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
  fileprivate static func inputHungUp() -> Bool {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, 0) == 1 else { return false }
    return Int32(descriptor.revents) & (POLLHUP | POLLERR | POLLNVAL) != 0
  }

  /// The key an ncurses key code stands for.
  ///
  /// - Parameter code: A `KEY_…` value.
  /// - Returns: The key, or `nil` for one the app has no use for (such as KEY_RESIZE).
  fileprivate static func key(code: Int32) -> Key? {
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
}
