/// One key press.
///
/// It is what the app sees once the terminal layer decoded the input.
///
/// ## Guarantees
///
/// - Terminal-independent: the ncurses layer produces these, tests construct them.
/// - `character` carries printable text only; control keys arrive as `control`, and the
///   keys with names (Enter, Tab, arrows, …) as their own cases.
/// - `paste` carries text the terminal marked as pasted (bracketed paste): it is inserted
///   as text wherever text goes and never runs a command.
public enum Key: Hashable, Sendable {
  /// A printable character.
  case character(Character)
  /// A control chord, such as Ctrl-R as `control("r")`.
  case control(Character)
  /// Enter or Return.
  case enter
  /// Tab.
  case tab
  /// Shift-Tab.
  case backTab
  /// Backspace.
  case backspace
  /// Forward delete.
  case delete
  /// Escape on its own.
  case escape
  /// Arrow up.
  case up
  /// Arrow down.
  case down
  /// Arrow left.
  case left
  /// Arrow right.
  case right
  /// Home.
  case home
  /// End.
  case end
  /// Page up.
  case pageUp
  /// Page down.
  case pageDown
  /// A function key, such as F1 as `function(1)`.
  case function(Int)
  /// Text the terminal marked as pasted, with line breaks as `"\n"` and no other control
  /// characters than tabs (see ``InputDecoder``).
  case paste(String)

  /// The key a character decoded from the terminal's bytes stands for.
  ///
  /// A control character (below U+0020, or DEL) is its control key, as
  /// ``control(byte:)`` maps it; every other character is typed text.
  ///
  /// - Parameter scalar: A character from the terminal.
  /// - Returns: The key, or `nil` for a control character the app has no use for (NUL,
  ///   and 28–31).
  public static func typed(_ scalar: Unicode.Scalar) -> Key? {
    let value = scalar.value
    if value < 32 || value == 127 { return control(byte: value) }
    return .character(Character(scalar))
  }

  /// The key a control byte (1–31, 127) stands for, such as 9 → Tab or 18 → Ctrl-R.
  ///
  /// - Parameter byte: A byte below 32, or 127.
  /// - Returns: The key, or `nil` for a byte that is not a control byte.
  public static func control(byte: UInt32) -> Key? {
    switch byte {
    case 9: .tab
    case 10, 13: .enter
    case 27: .escape
    case 8, 127: .backspace
    case 1...26: .control(Character(Unicode.Scalar(byte + 96)!))
    default: nil
    }
  }
}
