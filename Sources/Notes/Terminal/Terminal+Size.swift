// Terminal+Size: follows the terminal's size through SIGWINCH, observed on the main queue.

import CNcurses
import Dispatch
import NotesTerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Terminal {
  /// Starts watching SIGWINCH (ignored as a signal since `start()`) on the main queue.
  func observeResizes() {
    let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
    source.setEventHandler { [weak self] in
      MainActor.assumeIsolated { self?.resize() }
    }
    resizeSource = source
    source.resume()
  }

  /// Takes the terminal's size from the kernel and tells ncurses and `onResize`.
  fileprivate func resize() {
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
}
