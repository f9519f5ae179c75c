// NotesDatabase+NoteHistory: reading a note's kept versions, and thinning them.

public import Foundation
public import NotesCore

extension NotesDatabase {
  /// The kept versions of note `id`, newest first (empty for a note never changed since
  /// history was kept, or a file whose schema keeps none).
  ///
  /// - Parameter id: A note, in the library or in Recently Deleted.
  /// - Returns: Its versions; the first is the note's current text when the note has one.
  /// - Throws: A ``NotesStorageError`` if the file cannot be read.
  /// - Complexity: O(*k* log *n*) for the note's *k* versions among *n*.
  public func history(of id: NoteID) throws(NotesStorageError) -> [NoteVersion] {
    guard hasNoteHistory else { return [] }
    let connection = try openConnection()
    return try connection.read { () throws(NotesStorageError) in
      try NoteVersionTable.versions(of: id.rawValue, on: connection)
    }
  }

  /// The kept version numbered `id`, of whichever note, or `nil`.
  ///
  /// - Throws: A ``NotesStorageError`` if the file cannot be read.
  public func noteVersion(_ id: Int64) throws(NotesStorageError) -> NoteVersion? {
    guard hasNoteHistory else { return nil }
    let connection = try openConnection()
    return try connection.read { () throws(NotesStorageError) in
      try NoteVersionTable.version(id, on: connection)
    }
  }

  /// Thins every note's history by `NoteHistory`'s rule as of `now`, off the main actor,
  /// unless it was thinned less than a day before (see `HistoryThinner`).
  ///
  /// A file opened read-only, or without history, is left alone. ``close()`` stops the
  /// thinning between two of its transactions.
  ///
  /// - Parameters:
  ///   - now: The time the rule counts from.
  ///   - completion: What the thinning did, or why it stopped; called on the thinner's
  ///     queue.
  public func thinHistory(
    now: Date,
    completion: @escaping @Sendable (Result<HistoryThinning, NotesStorageError>) -> Void = { _ in }
  ) {
    guard hasNoteHistory, !isReadOnly, historyThinner == nil else { return }
    historyThinner = HistoryThinner(path: path, now: now, completion: completion)
  }

  /// Thins as ``thinHistory(now:completion:)`` does and waits for the end (tests).
  func thinHistoryAndWait(now: Date) throws(NotesStorageError) -> Int {
    guard hasNoteHistory, !isReadOnly else { return 0 }
    let result = LockedResult()
    let thinner = HistoryThinner(path: path, now: now) { result.value = $0 }
    thinner.waitUntilDone()
    return try result.value?.get().removed ?? 0
  }
}

/// A thinning's result, handed from the thinner's queue to a waiting test.
private final class LockedResult: @unchecked Sendable {
  // @unchecked: written on the thinner's queue before `waitUntilDone()` returns, read after.
  var value: Result<HistoryThinning, NotesStorageError>?
}

extension NotesDatabase: NoteHistoryReader {}
