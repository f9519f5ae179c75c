// Whether `notes` is still working through the keys sent to it, as the kernel sees it.
//
// Why: a settled screen alone is no proof that the program has handled every key. A slow
// build (ThreadSanitizer makes each key cost tens of milliseconds) can take a burst of
// keys that change nothing on the screen for longer than two captures apart, and ncurses
// holds back screen updates while input is pending. A test that reads the database then
// pairs it with a screen the program has already moved past.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension NotesProgram {
  /// What `notes` is doing, sampled at one moment.
  struct Activity: Equatable {
    /// Whether bytes sent to the program are still waiting to be read.
    var hasPendingInput: Bool
    /// The processor time the program has used, in clock ticks (user plus system).
    var processorTicks: Int
  }

  /// Samples what `notes` is doing, or `nil` when it is not running.
  ///
  /// ## Guarantees
  ///
  /// - Reads two facts without disturbing the program: whether bytes are still waiting in
  ///   its terminal's input queue (poll on the pane's tty, which shares the queue; nothing
  ///   is read), and the processor time it has used so far (/proc/PID/stat).
  /// - Two equal samples in a row, with no pending input, mean the program read all its
  ///   input and used no processor time in between: it is idle, waiting for keys.
  ///
  /// - Returns: Its activity.
  /// - Throws: `TmuxError` when tmux cannot name the pane's terminal.
  func activity() throws -> Activity? {
    guard let pid, let ticks = Self.processorTicks(pid) else { return nil }
    let tty = try tmux.value("#{pane_tty}")
    let descriptor = open(tty, O_RDONLY | O_NOCTTY | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { Glibc.close(descriptor) }
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&request, 1, 0) == 1 && Int32(request.revents) & POLLIN != 0
    return Activity(hasPendingInput: ready, processorTicks: ticks)
  }

  /// The user and system time of process `pid` in clock ticks, from /proc/PID/stat.
  private static func processorTicks(_ pid: pid_t) -> Int? {
    guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else {
      return nil
    }
    let text = String(decoding: stat, as: UTF8.self)
    guard let end = text.range(of: ") ", options: .backwards) else { return nil }
    // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
    let fields = text[end.upperBound...].split(separator: " ")
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
      return nil
    }
    return user + system
  }
}
