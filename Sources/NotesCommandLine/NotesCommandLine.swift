// NotesCommandLine: the `notes` command's arguments and subcommands. (Skeleton: the API
// main.swift uses; being implemented.)

public import Foundation

/// What the command line asks for.
public enum NotesCommand: Equatable, Sendable {
  /// The full-screen app, on the database at `databasePath` (the default one when `nil`).
  case interactive(databasePath: String?)
  /// Print usage.
  case help
  /// Print the version.
  case version
}

/// A command line that cannot be run, with the message to print.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, such as "unknown option '--foo'".
  public let message: String
  /// The message.
  public var description: String { message }
}

/// Where a command reads and writes.
public struct CommandIO: Sendable {
  /// Reads all of standard input.
  public var readInput: @Sendable () -> Data
  /// Writes to standard output.
  public var write: @Sendable (String) -> Void
  /// Writes to standard error.
  public var writeError: @Sendable (String) -> Void

  /// The process's standard input, output and error.
  public static let standard = CommandIO(
    readInput: { FileHandle.standardInput.readDataToEndOfFile() },
    write: { FileHandle.standardOutput.write(Data($0.utf8)) },
    writeError: { FileHandle.standardError.write(Data($0.utf8)) })
}

/// The `notes` command line.
public enum NotesCommandLine {
  /// The version `--version` prints.
  public static let version = "0.1.0"

  /// Parses the arguments after the program name.
  ///
  /// - Parameter arguments: The arguments, without the program name.
  /// - Returns: The command.
  /// - Throws: A ``UsageError`` saying what is wrong.
  public static func parse(_ arguments: [String]) throws(UsageError) -> NotesCommand {
    if arguments == ["--help"] { return .help }
    if arguments == ["--version"] { return .version }
    if arguments.isEmpty { return .interactive(databasePath: nil) }
    if arguments.count == 2, arguments[0] == "--database" {
      return .interactive(databasePath: arguments[1])
    }
    throw UsageError(message: "unknown arguments: \(arguments.joined(separator: " "))")
  }

  /// Runs a command other than `.interactive`.
  ///
  /// - Parameters:
  ///   - command: The command.
  ///   - io: Where it reads and writes.
  /// - Returns: The exit status: 0 on success.
  public static func execute(_ command: NotesCommand, io: CommandIO) -> Int32 {
    switch command {
    case .help: io.write("usage: notes [--database PATH]\n")
    case .version: io.write("notes \(version)\n")
    case .interactive: return 64
    }
    return 0
  }
}
