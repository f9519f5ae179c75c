import Foundation
import NotesStorage

/// Why a command stopped, and the exit code it ends with.
///
/// The input checks that produce most failures are in `CommandInput`.
///
/// ## Guarantees
///
/// - Every failure carries the exit code it ends with and lines a person can read; the
///   command line prints each line as "notes: <line>" on standard error.
/// - Input is checked before the database is opened, so bad input never creates or
///   changes a library file.
/// - A refusal of the library ends with the status its cause calls for (see
///   `CommandFailure.init(_:)`), with the storage's sentence, which names the path.
struct CommandFailure: Error, Equatable {
  /// The exit code.
  let code: ExitCode
  /// What went wrong, one line each.
  let lines: [String]

  /// A failure with one or more lines.
  init(_ code: ExitCode, _ lines: String...) {
    self.init(code, lines: lines)
  }

  /// A failure with a list of lines.
  init(_ code: ExitCode, lines: [String]) {
    self.code = code
    self.lines = lines
  }

  /// The library's refusal, with the exit status its cause calls for: 66 for a library
  /// this user may not read (or that is missing where it is only read), 73 for one it may
  /// not write, 74 for a full disk or an I/O error, 1 otherwise.
  init(_ error: NotesStorageError) {
    self.init(Self.code(for: error), error.description)
  }

  /// The exit status for a refusal of the library (see ``init(_:)``).
  static func code(for error: NotesStorageError) -> ExitCode {
    switch error {
    case .permissionDenied, .missing: .notFound
    case .unwritableLocation: .cannotCreate
    case .diskFull, .ioFailure: .ioError
    default: .failure
    }
  }

  /// This failure with the exit status of the library's refusal `cause`, if it has one:
  /// for a change the session reports as text.
  func caused(by cause: NotesStorageError?) -> Self {
    guard code == .failure, let cause else { return self }
    return Self(Self.code(for: cause), lines: lines)
  }

  /// No notebook is titled `name`, ignoring case; `hint` follows the message.
  static func noNotebook(_ name: String, hint: String = "") -> Self {
    Self(.notFound, "no notebook named \(TerminalText.quoted(name))\(hint)")
  }

  /// Bytes that are not UTF-8, from `source` ("standard input", "the file x").
  static func notUTF8(_ source: String) -> Self {
    Self(.invalidData, "\(source) is not valid UTF-8; nothing was saved")
  }
}

/// Reading command input as text.
enum CommandInput {
  /// The text of `data`, or ``CommandFailure/notUTF8(_:)`` if it is not UTF-8.
  static func text(_ data: Data, from source: String) throws(CommandFailure) -> String {
    guard let text = String(validating: data, as: UTF8.self) else { throw .notUTF8(source) }
    return text
  }

  /// The bytes of the file at `path`, or of standard input when `path` is `-`.
  static func bytes(of path: String, io: CommandIO) throws(CommandFailure) -> Data {
    if path == "-" { return io.readInput() }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CommandFailure(.notFound, "no such file: \(TerminalText.quoted(path, limit: .max))")
    }
    if isDirectory.boolValue {
      throw CommandFailure(
        .notFound, "\(TerminalText.quoted(path, limit: .max)) is a folder, not a file")
    }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw CommandFailure(
        .notFound, "cannot read \(TerminalText.quoted(path, limit: .max)): \(error)")
    }
  }
}

/// Text from the library or the user made safe to print on a terminal.
enum TerminalText {
  /// `text` on one line: every control character (tab and line break included), which
  /// could break a tab-separated line or drive the terminal, becomes U+FFFD.
  static func line(_ text: String) -> String {
    replacingControls(in: text, keeping: [])
  }

  /// `text` with control characters other than tab and line breaks replaced by U+FFFD.
  static func body(_ text: String) -> String {
    replacingControls(in: text, keeping: ["\n", "\t", "\r"])
  }

  /// `text` on one line (see ``line(_:)``), shortened to `limit` characters.
  static func short(_ text: String, limit: Int = 80) -> String {
    line(text.count > limit ? String(text.prefix(limit - 1)) + "…" : text)
  }

  /// `text` in double quotes, on one line, shortened to `limit` characters (a path is
  /// shown whole).
  static func quoted(_ text: String, limit: Int = 80) -> String {
    "\"" + short(text, limit: limit) + "\""
  }

  private static func replacingControls(
    in text: String, keeping allowed: Set<Unicode.Scalar>
  ) -> String {
    // Printable ASCII, most titles, needs no look at its scalars.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    // The control characters (general category Cc) are exactly U+0000–U+001F and
    // U+007F–U+009F.
    let isUnsafe = { (scalar: Unicode.Scalar) in
      (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) && !allowed.contains(scalar)
    }
    guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      scalars.append(isUnsafe(scalar) ? "\u{FFFD}" : scalar)
    }
    return String(scalars)
  }
}
