public import Airframe

/// Why the notes database could not be opened, read or written.
///
/// Every way the notes database can refuse to open or to save.
///
/// ## Guarantees
///
/// - Every failure of NotesStorage surfaces as one of these cases; no SQLite result code
///   escapes unwrapped.
/// - When opening fails with any case, the file at the path was not created or modified.
/// - A write that fails with any case has been rolled back: the database holds exactly
///   what it held before the write.
/// - `description` is a sentence a person can read, naming the path where there is one.
public enum NotesStorageError: Error, Equatable, CustomStringConvertible {
  /// The file could not be opened; `reason` says why.
  case cannotOpen(path: String, reason: String)
  /// The file exists but is not an SQLite database (or is damaged).
  case notADatabase(path: String)
  /// The file was written by a newer version of the app and is left untouched.
  case newerSchema(found: Int32, supported: Int32)
  /// The database (or its folder) cannot be written; `reason` says why.
  case unwritableLocation(path: String, reason: String)
  /// This user may not read the database: its mode, or a folder on its path, forbids it.
  case permissionDenied(path: String)
  /// There is no database at the path, and none may be created there (a library opened
  /// only to be read).
  case missing(path: String)
  /// The disk (or this user's quota on it) is full: SQLite reported `SQLITE_FULL`, or an
  /// I/O error whose cause is `ENOSPC` or `EDQUOT`.
  case diskFull(path: String)
  /// Reading or writing the database failed for another reason the system gave (an I/O
  /// error); `reason` says what SQLite reported.
  case ioFailure(path: String, reason: String)
  /// The database was opened read-only while nothing else had it open, and it changed
  /// while it was being read (another user wrote to it): what was read may not be whole.
  case changedWhileRead(path: String)
  /// The database was closed with ``NotesDatabase/close()`` before this call.
  case closed
  /// A row that the model says exists (or does not) disagrees with the database.
  ///
  /// The database was changed outside this storage; the write was rolled back.
  case outOfSync(table: String, id: Int64, reason: String)
  /// SQLite reported an error; `code` is its extended result code.
  case sqlite(code: Int32, message: String)
  /// Another process committed to the library since this one last read its change log;
  /// the write was rolled back. The model catches up and runs the write again.
  case changedElsewhere

  /// A sentence for a status bar, a log or a command-line error.
  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      "Cannot open the notes database at \(path): \(reason)."
    case .notADatabase(let path):
      "The file at \(path) is not a notes database (it is not SQLite, or it is damaged); "
        + "it was left unchanged."
    case .newerSchema(let found, let supported):
      "The notes database was written by a newer version of the app (schema version "
        + "\(found); this version reads up to \(supported)); it was left unchanged."
    case .unwritableLocation(let path, let reason):
      "Cannot save notes at \(path): \(reason)."
    case .permissionDenied(let path):
      "Cannot read the notes database at \(path): permission denied (this user may not "
        + "read it, or may not enter a folder on its path)."
    case .missing(let path):
      "There is no notes database at \(path)."
    case .diskFull(let path):
      "The disk is full: the notes database at \(path) cannot be written, so nothing was "
        + "saved."
    case .ioFailure(let path, let reason):
      "The disk failed reading or writing the notes database at \(path) (\(reason)); "
        + "nothing was saved."
    case .changedWhileRead(let path):
      "The notes database at \(path) changed while it was being read; run the command "
        + "again."
    case .closed:
      "The notes database is closed."
    case .outOfSync(let table, let id, let reason):
      "The notes database disagrees with the app about \(table) row \(id): \(reason); "
        + "nothing was saved."
    case .changedElsewhere:
      "Another program changed the library since this one last read it."
    case .sqlite(let code, let message):
      "The notes database reported an error (SQLite code \(code)): \(message)."
    }
  }
}

extension NotesStorageError: StorageBehindError {
  /// Whether this is ``changedElsewhere``: the model catches up and writes again.
  public var isBehind: Bool { self == .changedElsewhere }
}
