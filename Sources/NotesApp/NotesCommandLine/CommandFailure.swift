import Foundation
import NotesFiles
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

  /// A failure of the library's files, with the exit status its kind calls for: 65 for
  /// input that is not what it must be, 66 for a file or folder that cannot be read, 73
  /// for one that cannot be created, 74 for a failed read or write, 1 otherwise.
  init(_ failure: FileFailure) {
    let code: ExitCode =
      switch failure.kind {
      case .invalidData: .invalidData
      case .notFound: .notFound
      case .cannotCreate: .cannotCreate
      case .ioError: .ioError
      case .failure: .failure
      }
    self.init(code, lines: failure.lines)
  }

  /// The value of `body`, whose failure of the library's files becomes the command's
  /// (see ``init(_:)-(FileFailure)``).
  static func files<Value>(_ body: () throws(FileFailure) -> Value) throws(CommandFailure)
    -> Value
  {
    do {
      return try body()
    } catch {
      throw CommandFailure(error)
    }
  }

  /// The library's refusal, with the exit status its cause calls for: 66 for a library
  /// this user may not read (or that is missing where it is only read), 73 for one it may
  /// not write, 74 for a full disk or an I/O error, 1 otherwise.
  init(_ error: NotesStorageError) {
    self.init(Self.code(for: error), error.description)
  }

  /// The exit status for a refusal of the library (see ``init(_:)-(NotesStorageError)``).
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
    Self(.notFound, "no notebook named \(DisplayText.quoted(name))\(hint)")
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
}
