// TestLibrary: a notes database in a fresh temporary folder, and commands run against it
// in-process with captured standard input, output and error.

import Airframe
import Foundation
import NotesCommandLine
@_spi(Instrumentation) import NotesCore
import NotesStorage
import NotesTestSupport
import Synchronization

/// What a command returned: its exit status and what it printed.
///
/// The shared test support's type, so in-process runs and runs of the built program
/// compare alike.
typealias CommandResult = ProgramResult

extension CommandResult {
  /// What a command that read invalid UTF-8 on standard input returns.
  static let standardInputNotUTF8 = CommandResult(
    status: 65, output: "", errors: "notes: standard input is not valid UTF-8; nothing was saved\n")
}

/// Streams for one command: fixed input, output and error collected in memory.
final class CapturedIO: Sendable {
  private let input: Data
  private let isTerminal: Bool
  private let isErrorTerminal: Bool
  private let output = Mutex("")
  private let errors = Mutex("")
  private let reads = Mutex(0)

  init(input: Data, isTerminal: Bool, isErrorTerminal: Bool = false) {
    self.input = input
    self.isTerminal = isTerminal
    self.isErrorTerminal = isErrorTerminal
  }

  /// The streams, as a command sees them.
  var io: CommandIO {
    CommandIO(
      readInput: {
        self.reads.withLock { $0 += 1 }
        return self.input
      },
      isInputTerminal: { self.isTerminal },
      write: { text in self.output.withLock { $0 += text } },
      writeError: { text in self.errors.withLock { $0 += text } },
      isErrorTerminal: { self.isErrorTerminal })
  }

  /// How many times the command read standard input.
  var inputReads: Int { reads.withLock { $0 } }

  func result(status: Int32) -> CommandResult {
    CommandResult(
      status: status, output: output.withLock { $0 }, errors: errors.withLock { $0 })
  }
}

/// A library file in a temporary folder; `remove()` deletes the folder.
@MainActor
struct TestLibrary {
  /// The date every sample note is based on: 2023-11-14T22:13:20Z.
  static let sampleDate = Date(timeIntervalSince1970: 1_700_000_000)

  let folder: String
  /// The database file's path (created by the first command or by `samples: true`).
  let path: String

  /// A new folder; with `samples`, a library holding `SampleLibrary` at `sampleDate`.
  init(samples: Bool = true) throws {
    folder = try TemporaryFolder(prefix: "notes-cli").path
    path = folder + "/notes.sqlite"
    if samples { try store(SampleLibrary.state(now: Self.sampleDate)) }
  }

  /// Writes every notebook and note of `state` into the library.
  func store(_ state: NotesState) throws {
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    let model = Model(try database.loadState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      for notebook in state.notebooks.elements {
        try transaction.insert(notebook, into: \.notebooks)
      }
      for note in state.notes.elements { try transaction.insert(note, into: \.notes) }
      transaction.set(\.lastAssignedID, to: state.lastAssignedID)
    }
  }

  /// The path of `name` in the folder.
  func file(_ name: String) -> String { folder + "/" + name }

  /// Whether the database file exists.
  var exists: Bool { FileManager.default.fileExists(atPath: path) }

  /// The stored library, read through a fresh connection.
  func state() throws -> NotesState {
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    return try database.loadState()
  }

  /// Runs `notes --database <path> <arguments>` in-process, as the program would.
  func run(
    _ arguments: [String], input: Data = Data(), isTerminal: Bool = false,
    captured: CapturedIO? = nil
  ) -> CommandResult {
    let streams = captured ?? CapturedIO(input: input, isTerminal: isTerminal)
    do {
      let command = try NotesCommandLine.parse(["--database", path] + arguments)
      return streams.result(status: NotesCommandLine.execute(command, io: streams.io))
    } catch {
      streams.io.writeError("notes: \(error)\n")
      return streams.result(status: ExitCode.usage.rawValue)
    }
  }

  /// Runs `arguments` and returns standard output, expecting success.
  func output(_ arguments: String...) -> String {
    run(arguments).output
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: folder)
  }
}
