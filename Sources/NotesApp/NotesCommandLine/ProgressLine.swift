internal import Foundation
import NotesFiles

/// A line on standard error that says how far a long command is.
///
/// ## Guarantees
///
/// - Nothing is written unless standard error is a terminal (`CommandIO.isErrorTerminal`):
///   a script that captures or redirects the output sees exactly what it saw before.
/// - One line, rewritten in place (a carriage return, then the text, then "erase to the end
///   of the line"), at most every `interval` and always when the phase changes; `finish()`
///   erases it, so the command's own output starts on a clean line.
/// - The text is built from numbers and fixed words only: nothing from the library or the
///   server reaches the terminal through it.
struct ProgressLine {
  /// The shortest time between two updates of the same phase.
  static let interval: Duration = .milliseconds(100)

  private let io: CommandIO
  private let isShown: Bool
  private let clock = ContinuousClock()
  private var lastWrite: ContinuousClock.Instant?
  private var lastPhase = ""
  private var isVisible = false

  /// A progress line for `io`; it writes only if `io`'s standard error is a terminal.
  init(io: CommandIO) {
    self.io = io
    self.isShown = io.isErrorTerminal()
  }

  /// Shows `phase` with `done` of `total` and the percentage; with no `total`, `done`
  /// alone ("Reading files: 4,500"), or `phase` alone when both are 0.
  mutating func show(_ phase: String, done: Int = 0, total: Int = 0) {
    guard isShown else { return }
    let now = clock.now
    if phase == lastPhase, let lastWrite, now - lastWrite < Self.interval,
      total == 0 || done < total
    {
      return
    }
    lastWrite = now
    lastPhase = phase
    var text = phase
    if total > 0 {
      let percent = Int((Double(min(done, total)) / Double(total) * 100).rounded(.down))
      text += " \(percent)% (\(Counts.grouped(done)) of \(Counts.grouped(total)))"
    } else if done > 0 {
      text += ": \(Counts.grouped(done))"
    }
    io.writeError("\r" + text + "\u{1B}[K")
    isVisible = true
  }

  /// Erases the line, if it was shown.
  mutating func finish() {
    guard isVisible else { return }
    io.writeError("\r\u{1B}[K")
    isVisible = false
  }

}
