public import Foundation
public import NotesCore

#if canImport(Glibc)
  import Glibc
#endif

/// What the command line asks for.
///
/// ## Guarantees
///
/// - A parsed command holds everything it needs except the input it reads: the database
///   path (`nil` for the default location) and every option value, verbatim.
public enum NotesCommand: Equatable, Sendable {
  /// The full-screen app, on the database at `databasePath` (the default one when `nil`).
  case interactive(databasePath: String?)
  /// Print usage.
  case help
  /// Print the version.
  case version
  /// A script-friendly command on the library at `databasePath` (the default when `nil`).
  case library(LibraryCommand, databasePath: String?)
}

/// What `notes sync` is asked to do.
public enum SyncCommand: Equatable, Sendable {
  /// `sync setup URL`: sync this library with the server at `url` (its tables created if
  /// missing).
  case setup(url: String)
  /// `sync`: one sync now.
  case now
  /// `sync status [--json]`: the server, pending changes, last sync and unread notices.
  case status(json: Bool)
  /// `sync acknowledge`: mark every notice read.
  case acknowledge
}

/// What `notes server` is asked to do: the operator's commands on a sync server.
public enum ServerCommand: Equatable, Sendable {
  /// `server init URL [--account NAME]`: create or upgrade the server's tables; the rows of
  /// a server from before accounts go to account `legacyAccount`.
  case initialize(url: String, legacyAccount: String?)
  /// `server add-account NAME URL`: a new account, its password read from the terminal or
  /// standard input.
  case addAccount(name: String, url: String)
  /// `server remove-account NAME URL [--yes]`: an account, its role and its rows on the
  /// server; one that holds notes only with `--yes`.
  case removeAccount(name: String, url: String, confirmed: Bool)
  /// `server list-accounts URL`: every account and what it holds.
  case listAccounts(url: String)
}

/// A subcommand that reads or changes the notes library.
public enum LibraryCommand: Equatable, Sendable {
  /// `list`: the notes of one notebook (`nil`: all), as lines or as JSON.
  case list(notebook: String?, json: Bool)
  /// `add`: a new note; a `nil` body is read from standard input unless it is a terminal.
  case add(notebook: String, title: String, body: String?, createNotebook: Bool)
  /// `show`: one note's fields and body, as text or as JSON.
  case show(NoteID, json: Bool)
  /// `search`: the notes containing every word of `query`, most relevant first.
  case search(query: String, json: Bool)
  /// `trash`: the notes in Recently Deleted, most recently deleted first.
  case trash(json: Bool)
  /// `history ID`: a note's kept versions, newest first.
  case history(NoteID, json: Bool)
  /// `history ID --show VERSION`: one kept version of a note.
  case showVersion(NoteID, version: Int64)
  /// `export`: the whole library as one JSON document.
  case export
  /// `export --markdown DIR`: the whole library as a new folder of Markdown files.
  case exportMarkdown(folder: String)
  /// `import`: the notebooks and notes of an exported document (`"-"` is standard input),
  /// or of a folder of Markdown and text files.
  case importLibrary(path: String)
  /// A change to one notebook or note, made as the full-screen app's gesture.
  case gesture(GestureCommand)
  /// `server …`: the operator's work on a sync server (tables and accounts).
  case server(ServerCommand)
  /// `sync …`: set up, run or inspect sync with a server.
  case sync(SyncCommand)
}

/// A command line that cannot be run, with the message to print.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, such as "unknown option '--foo'".
  public let message: String

  /// Creates an error.
  ///
  /// - Parameter message: What is wrong, without a trailing period.
  public init(message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}

/// The exit status of a `notes` command.
///
/// The values are those of BSD's `sysexits.h`, so scripts can tell a mistake in the
/// command line from bad input and from a missing note.
public enum ExitCode: Int32, Sendable {
  /// The command did what it was asked.
  case success = 0
  /// The library could not be opened, read or saved.
  case failure = 1
  /// The command line is wrong: an unknown command or option, or a missing value.
  case usage = 64
  /// The input is invalid (not UTF-8, not the expected JSON, or refused by validation);
  /// nothing was saved.
  case invalidData = 65
  /// No note, notebook or file has the name or id given, or a file (the library
  /// included) may not be read by this user.
  case notFound = 66
  /// The sync server cannot be reached, or the connection to it was lost; nothing that
  /// was pending is lost, and the same command may succeed later.
  case unavailable = 69
  /// The output cannot be created: the folder an export writes to exists and is not
  /// empty, or a file in it cannot be written; or the library cannot be written (its file
  /// or folder is read-only) by a command that changes it. Nothing was changed.
  case cannotCreate = 73
  /// Reading or writing a file failed: the disk is full, or it reported an I/O error.
  /// Nothing was changed.
  case ioError = 74
}

/// Where a command reads and writes.
///
/// ## Guarantees
///
/// - It is the only way commands touch standard input, output and error, so tests run them
///   in-process with captured streams.
public struct CommandIO: Sendable {
  /// Reads all of standard input.
  public var readInput: @Sendable () -> Data
  /// Whether standard input is a terminal (a person typing rather than a pipe or file).
  public var isInputTerminal: @Sendable () -> Bool
  /// Asks for a secret on the terminal without showing what is typed: writes the prompt,
  /// reads one line; `nil` when the user cancels (Ctrl-C, Ctrl-D) or there is no terminal.
  public var readSecret: @Sendable (_ prompt: String) -> String?
  /// Writes to standard output.
  public var write: @Sendable (String) -> Void
  /// Writes to standard error.
  public var writeError: @Sendable (String) -> Void
  /// Whether standard error is a terminal: long commands then show how far they are there.
  public var isErrorTerminal: @Sendable () -> Bool

  /// Creates streams from closures, such as buffers in a test.
  ///
  /// - Parameters:
  ///   - readInput: Reads all of standard input.
  ///   - isInputTerminal: Whether standard input is a terminal; `false` by default.
  ///   - readSecret: Asks for a secret on the terminal; by default there is none (`nil`).
  ///   - write: Writes to standard output.
  ///   - writeError: Writes to standard error.
  ///   - isErrorTerminal: Whether standard error is a terminal; `false` by default, so a
  ///     test's buffers see no progress lines.
  public init(
    readInput: @escaping @Sendable () -> Data,
    isInputTerminal: @escaping @Sendable () -> Bool = { false },
    readSecret: @escaping @Sendable (_ prompt: String) -> String? = { _ in nil },
    write: @escaping @Sendable (String) -> Void,
    writeError: @escaping @Sendable (String) -> Void,
    isErrorTerminal: @escaping @Sendable () -> Bool = { false }
  ) {
    self.readInput = readInput
    self.isInputTerminal = isInputTerminal
    self.readSecret = readSecret
    self.write = write
    self.writeError = writeError
    self.isErrorTerminal = isErrorTerminal
  }

  /// The process's standard input, output and error.
  public static let standard = CommandIO(
    readInput: { FileHandle.standardInput.readDataToEndOfFile() },
    isInputTerminal: { isatty(STDIN_FILENO) == 1 },
    readSecret: { SecretPrompt.read(prompt: $0) },
    write: { FileHandle.standardOutput.write(Data($0.utf8)) },
    writeError: { FileHandle.standardError.write(Data($0.utf8)) },
    isErrorTerminal: { isatty(STDERR_FILENO) == 1 })
}
