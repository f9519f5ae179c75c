import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a secret typed by a person.
///
/// Reading a password on the terminal without showing it, and from standard input when that is not
/// a terminal.
///
/// ## Guarantees
///
/// - On a terminal: the prompt goes to standard error; what is typed is never echoed; the
///   terminal's settings are restored before the call returns, whatever was typed. The
///   line is read key by key (Backspace erases, Enter ends it); Ctrl-C, and Ctrl-D on an
///   empty line, cancel, so no signal can end the program with echo still off.
/// - From standard input: everything up to the end, less one final line break; a password
///   is one line of UTF-8 without NUL.
/// - The password is never printed or written anywhere by this code.
enum SecretPrompt {
  /// Writes `prompt` to standard error and reads one line from the terminal on standard
  /// input without echoing it.
  ///
  /// - Parameter prompt: What to ask, such as "password for alice: ".
  /// - Returns: The line, or `nil` if standard input is not a terminal or the user
  ///   cancelled.
  static func read(prompt: String) -> String? {
    var original = termios()
    guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
    var silent = original
    // Key by key, no echo, no signals from keys (Ctrl-C arrives as a byte and cancels).
    silent.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
    withUnsafeMutableBytes(of: &silent.c_cc) { controls in
      controls[Int(VMIN)] = 1
      controls[Int(VTIME)] = 0
    }
    FileHandle.standardError.write(Data(prompt.utf8))
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent) == 0 else { return nil }
    defer {
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
      FileHandle.standardError.write(Data("\n".utf8))
    }
    var bytes: [UInt8] = []
    while true {
      var byte: UInt8 = 0
      let count = Glibc.read(STDIN_FILENO, &byte, 1)
      if count < 0, errno == EINTR { continue }
      guard count == 1 else { return nil }
      switch byte {
      case 0x0A, 0x0D: return String(validating: bytes, as: UTF8.self)
      case 0x03: return nil
      case 0x04 where bytes.isEmpty: return nil
      case 0x7F, 0x08:
        // Backspace: drop the last character (a UTF-8 sequence's trailing bytes too).
        while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
      default: bytes.append(byte)
      }
    }
  }

  /// The password of `user`: typed on the terminal without echo (twice when `confirmed`,
  /// for a new one), or standard input's when that is not a terminal.
  ///
  /// - Parameters:
  ///   - user: Whose password it is, for the prompt.
  ///   - io: Where to read it.
  ///   - confirmed: Whether a person types it a second time, to catch a typing mistake.
  /// - Returns: The password.
  /// - Throws: ``CommandFailure`` (65) when none is given, the two differ, or it is unusable.
  static func password(for user: String, io: CommandIO, confirmed: Bool) throws(CommandFailure)
    -> String
  {
    guard io.isInputTerminal() else {
      return try password(fromInput: io.readInput())
    }
    guard let first = io.readSecret("password for \(user): ") else {
      throw CommandFailure(.invalidData, "no password was given; nothing was changed")
    }
    let password = try checked(first)
    if confirmed, io.readSecret("the same password again: ") != password {
      throw CommandFailure(.invalidData, "the two passwords differ; nothing was changed")
    }
    return password
  }

  /// The password in standard input's bytes: less one final line break; one line, UTF-8,
  /// not empty, no NUL.
  ///
  /// - Parameter data: Everything standard input held.
  /// - Returns: The password.
  /// - Throws: ``CommandFailure`` (65) saying what is wrong with it.
  static func password(fromInput data: Data) throws(CommandFailure) -> String {
    var text = try CommandInput.text(data, from: "standard input")
    if text.hasSuffix("\r\n") {
      text.removeLast(2)
    } else if text.hasSuffix("\n") {
      text.removeLast()
    }
    return try checked(text)
  }

  /// `password` if it is usable: not empty, one line, no NUL.
  ///
  /// - Throws: ``CommandFailure`` (65) saying why not.
  static func checked(_ password: String) throws(CommandFailure) -> String {
    guard !password.isEmpty else {
      throw CommandFailure(.invalidData, "the password is empty; nothing was changed")
    }
    guard !password.contains(where: \.isNewline), !password.utf8.contains(0) else {
      throw CommandFailure(
        .invalidData, "a password is one line without NUL characters; nothing was changed")
    }
    return password
  }
}
