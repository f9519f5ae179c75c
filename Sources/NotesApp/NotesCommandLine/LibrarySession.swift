import Airframe
import Foundation
import NotesCore
import NotesHost
import NotesStorage

/// A library opened for reading: its database and, once asked for, its whole state.
///
/// One command's use of the notes database, from open to close.
///
/// ## Guarantees
///
/// - A missing database file is created, empty: unlike the full-screen app, a command adds
///   no sample notes (a script wants exactly what it put there).
/// - Reads work on a library this user may read but not write (a read-only file or
///   folder, another user's library): it is then opened read-only and nothing on disk
///   changes (see `NotesDatabase.Access`).
/// - A database that cannot be opened fails with the storage error's sentence and the
///   exit status its cause calls for (`CommandFailure.init(_:)`).
/// - Reads only: commands that change the library open it with `openLibrary`, the one way
///   every program opens a library (NotesHost), and change it through its session; a
///   library they may not write is refused before anything changes (exit status 73).
@MainActor
final class LibrarySession {
  /// The database file.
  let database: NotesDatabase
  /// The library as loaded, once a command asked for all of it (see ``state``).
  private var loadedState: NotesState?

  /// Opens (creating if needed) the library at `path`, or the default location.
  ///
  /// - Parameters:
  ///   - databasePath: The library file; `nil` for the default location.
  ///   - access: By default read-write where this user may write the library, else
  ///     read-only; `.readWrite` to refuse a library that cannot be written.
  /// - Throws: ``CommandFailure`` with the storage error's sentence and its status.
  init(
    databasePath: String?, access: NotesDatabase.Access = .readWriteIfAllowed
  ) throws(CommandFailure) {
    let location = DatabaseLocation.resolve(explicitPath: databasePath)
    do {
      database = try NotesDatabase(location: location, access: access)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// The whole library as this command loaded it, before any change the command makes.
  ///
  /// Loaded on first use, so a command that reads only a few rows through `database`
  /// (`show`, `search`) never loads it. Read-only commands need nothing more; commands
  /// that change the library open it with ``openLibrary(_:)`` instead.
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
        throw CommandFailure(error)
      }
    }
  }

  /// Closes the database.
  func close() { database.close() }

  /// Opens the library at `path` (or the default location) the one way every program does,
  /// for a command that changes it: no samples, nothing started.
  ///
  /// - Throws: ``CommandFailure`` with the storage error's sentence (73 for a library this
  ///   user may not write).
  static func openLibrary(_ path: String?) throws(CommandFailure) -> NotesLibrary {
    do {
      return try NotesLibrary.open(path: path, samples: .never)
    } catch let error as NotesStorageError {
      throw CommandFailure(error)
    } catch {
      throw CommandFailure(.failure, "\(error)")
    }
  }

  /// The notebook titled `name`, ignoring case and surrounding white space.
  func notebook(named name: String) throws(CommandFailure) -> Notebook? {
    let key = Self.titleKey(name)
    return try state.notebooks.elements.first { Self.titleKey($0.title) == key }
  }

  /// The key under which notebook titles are unique, as in `NotesRules`.
  nonisolated static func titleKey(_ title: String) -> String {
    NotesRules.notebookTitleKey(title)
  }
}
