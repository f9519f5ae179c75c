// Terminal: the ncursesw screen. (Skeleton: the API main.swift uses; being implemented.)

import NotesApp

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
@MainActor
final class Terminal {
  /// The screen's size in columns and rows.
  private(set) var size: (width: Int, height: Int) = (80, 24)

  private init() {}

  /// Switches the terminal to full-screen mode.
  static func start() throws(TerminalError) -> Terminal {
    throw .notATerminal
  }

  /// Starts reporting key presses and size changes on the main queue.
  func run(
    onKey: @escaping @MainActor (Key) -> Void,
    onResize: @escaping @MainActor (_ width: Int, _ height: Int) -> Void
  ) {}

  /// Shows `buffer`.
  func draw(_ buffer: ScreenBuffer) {}

  /// Restores the terminal; calling it again does nothing.
  func stop() {}
}
