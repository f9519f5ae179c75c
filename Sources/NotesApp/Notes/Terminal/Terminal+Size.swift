// Terminal+Size: follows the terminal's size. A C handler reports each SIGWINCH through a
// pipe, installed before ncurses starts; a read source on the main queue drains it.
//
// Why a pipe and not a dispatch signal source: a signal source is registered only when
// the main queue next runs, after `start()` returned, and a SIGWINCH that arrives before
// then (the terminal resized as the app starts) finds the signal ignored and is lost for
// good: the screen keeps its old size until the next resize. A byte in the pipe waits for
// its reader.
//
// The C handler's pipe lives in a static of CNcurses/shim.h, one copy per Swift object
// file, so everything that touches it is in this file.

import CNcurses
import Dispatch
import NotesTerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Terminal {
  /// Starts catching SIGWINCH into the resize pipe; call it before ncurses starts.
  ///
  /// - Returns: The pipe's read end, or `nil` when no pipe could be opened (the size is
  ///   then only read at start, and SIGWINCH stays ignored).
  static func catchResizes() -> Int32? {
    let fd = airframe_install_resize_handler()
    guard fd >= 0 else {
      signal(SIGWINCH, SIG_IGN)
      return nil
    }
    return fd
  }

  /// Puts SIGWINCH's default action back and closes the resize pipe's write end.
  ///
  /// The read end closes when the source watching it is cancelled (a file descriptor must
  /// outlive its dispatch source), or here when nothing watches it.
  ///
  /// - Parameter pipe: The read end, when no source watches it.
  static func stopCatchingResizes(unwatched pipe: Int32? = nil) {
    airframe_remove_resize_handler()
    if let pipe { close(pipe) }
  }

  /// Starts reading the resize pipe on the main queue.
  ///
  /// - Parameter pipe: The read end `catchResizes()` returned.
  func observeResizes(pipe: Int32) {
    let source = DispatchSource.makeReadSource(fileDescriptor: pipe, queue: .main)
    source.setEventHandler { [weak self] in
      airframe_drain_resize_pipe(pipe)
      MainActor.assumeIsolated { self?.resize() }
    }
    source.setCancelHandler { close(pipe) }
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
