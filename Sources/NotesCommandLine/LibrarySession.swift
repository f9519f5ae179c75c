// LibrarySession: one command's use of the notes database, from open to close.
//
// Guarantees
// - A missing database file is created, empty: unlike the full-screen app, a command adds
//   no sample notes (a script wants exactly what it put there).
// - A database that cannot be opened fails with exit code 1 and the storage error's
//   sentence.
// - `commit` runs Notes actions in ONE model write, each validated (NotesRules) against
//   the state as the write has changed it so far. If any action is invalid, every reason
//   is reported (labelled with the item it belongs to) and the write is discarded, so the
//   database is exactly as before; the same holds if saving fails.

import Airframe
import Foundation
import NotesCore
import NotesStorage

/// An open library: its database, the model that persists to it, and its notebooks.
@MainActor
final class LibrarySession {
  /// The database file.
  let database: NotesDatabase
  /// The library as loaded, once a command asked for all of it (see ``state``).
  private var loadedState: NotesState?
  /// The model, once a command asked for it (see ``model``).
  private var loadedModel: Model<NotesState>?

  /// Opens (creating if needed) the library at `path`, or the default location.
  init(databasePath: String?) throws(CommandFailure) {
    let location = DatabaseLocation.resolve(explicitPath: databasePath)
    do {
      database = try NotesDatabase(location: location)
    } catch {
      throw CommandFailure(.failure, error.description)
    }
  }

  /// The whole library as this command loaded it, before any change the command makes.
  ///
  /// Loaded on first use, so a command that reads only a few rows through `database`
  /// (`show`, `search`) never loads it. Read-only commands need nothing more; commands
  /// that change the library do it through ``model``, which starts from this state.
  ///
  /// - Throws: ``CommandFailure`` with exit code 1 if the library cannot be read.
  var state: NotesState {
    get throws(CommandFailure) {
      if let loadedState { return loadedState }
      do {
        let state = try database.loadState()
        loadedState = state
        return state
      } catch {
        throw CommandFailure(.failure, error.description)
      }
    }
  }

  /// The model whose commits the database persists, starting from ``state``.
  ///
  /// - Throws: ``CommandFailure`` with exit code 1 if the library cannot be read.
  var model: Model<NotesState> {
    get throws(CommandFailure) {
      if let loadedModel { return loadedModel }
      let model = Model(try state, storage: database)
      loadedModel = model
      return model
    }
  }

  /// Closes the database.
  func close() { database.close() }

  /// The notebook titled `name`, ignoring case and surrounding white space.
  func notebook(named name: String) throws(CommandFailure) -> Notebook? {
    let key = Self.titleKey(name)
    return try state.notebooks.elements.first { Self.titleKey($0.title) == key }
  }

  /// The key under which notebook titles are unique, as in ``NotesRules``.
  nonisolated static func titleKey(_ title: String) -> String {
    NotesRules.normalizedTitle(title).lowercased()
  }

  /// Runs `body` in one model write; see ``ActionRun``.
  ///
  /// - Returns: What `body` returns.
  /// - Throws: ``CommandFailure`` with exit code 65 and every reason if an action was
  ///   invalid, or 1 if saving failed; the database is then unchanged.
  func commit<Result>(
    _ body: (inout Transaction<NotesState>, inout ActionRun) throws -> Result
  ) throws(CommandFailure) -> Result {
    try ActionRun.commit(on: model, body)
  }
}

/// Ends a write that ran an invalid action; never escapes ``LibrarySession/commit(_:)``.
private struct InvalidActions: Error {}

/// The actions one write runs, and the reasons any of them could not run.
struct ActionRun {
  /// The most reasons reported; the rest are counted.
  static let reportLimit = 20

  /// Every reason so far, each prefixed with the item it belongs to.
  private(set) var issues: [String] = []

  /// Validates `action` against the write's state and performs it if it is valid;
  /// otherwise records every reason, prefixed with `item` (such as `notes[3]`).
  ///
  /// - Returns: What the action created, or `nil` if it did not run.
  /// - Throws: What `perform` throws; the write is then discarded.
  @discardableResult
  mutating func run(
    _ action: some Action<NotesState>, item: String?,
    in transaction: inout Transaction<NotesState>
  ) throws -> CreatedEntities? {
    let result = action.validate(in: transaction.state)
    guard result.isValid else {
      for issue in result.issues { record(issue.message, item: item) }
      return nil
    }
    // Only what this action inserted: reading `transaction.created` before and after
    // costs the whole write each time, quadratic for a 100,000-note import.
    return try transaction.creating { _ = try action.perform(in: &$0) }
  }

  /// Records a reason an item cannot be saved.
  mutating func record(_ message: String, item: String?) {
    issues.append(item.map { "\($0): \(message)" } ?? message)
  }

  /// Runs `body` in one write of `model`, with a fresh run for its actions.
  ///
  /// - Returns: What `body` returns.
  /// - Throws: ``CommandFailure`` with exit code 65 and every reason if an action was
  ///   invalid, or 1 if saving failed; the model (and its storage) is then unchanged.
  @MainActor static func commit<Result>(
    on model: Model<NotesState>,
    _ body: (inout Transaction<NotesState>, inout ActionRun) throws -> Result
  ) throws(CommandFailure) -> Result {
    var run = ActionRun()
    do {
      // The user typed the command: their own change, made by this process.
      return try model.write(origin: .user("notes command")) { transaction in
        let result = try body(&transaction, &run)
        if !run.issues.isEmpty { throw InvalidActions() }
        return result
      }
    } catch is InvalidActions {
      throw CommandFailure(.invalidData, lines: run.reportedIssues)
    } catch {
      throw CommandFailure(.failure, "\(error)")
    }
  }

  /// The reasons to print: at most ``reportLimit``, then how many more there are.
  var reportedIssues: [String] {
    guard issues.count > Self.reportLimit else { return issues }
    return issues.prefix(Self.reportLimit) + ["… and \(issues.count - Self.reportLimit) more"]
  }
}
