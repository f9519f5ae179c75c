// NotesDatabase+NoteHistory: reading a note's kept versions, and thinning them.

public import Foundation
public import NotesCore

extension NotesDatabase {
  /// How many notes' versions one thinning transaction covers, so another process's commit
  /// never waits for a whole library's thinning.
  static let notesPerThinning: Int64 = 2_000

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

  /// Thins every note's history by `NoteHistory`'s rule, unless it was thinned less than a
  /// day before `now`; returns how many versions went.
  ///
  /// ## Guarantees
  ///
  /// - Each run of ``notesPerThinning`` notes is its own transaction: a kill leaves every
  ///   note's history thinned or not, never half of one, and a writer waits for one run at
  ///   most.
  /// - A file opened read-only, or without history, is left alone (0).
  ///
  /// - Parameter now: The time the rule counts from.
  /// - Returns: How many versions were deleted.
  /// - Throws: A ``NotesStorageError``; the runs before the failing one stay thinned.
  @discardableResult
  public func thinHistory(now: Date) throws(NotesStorageError) -> Int {
    guard hasNoteHistory, !isReadOnly else { return 0 }
    let connection = try openConnection()
    let time = now.timeIntervalSinceReferenceDate
    let last = try connection.withStatement(SQL.getMeta) {
      statement throws(NotesStorageError) -> Double? in
      try statement.bind(MetaKey.historyThinned, at: 1)
      return try statement.step() && !statement.isNull(at: 0) ? statement.double(at: 0) : nil
    }
    if let last, time - last < NoteHistory.keepsEveryVersionFor, time >= last { return 0 }
    let highest = try connection.int64("SELECT max(note_id) FROM note_versions") ?? 0
    var removed = 0
    var lowest: Int64 = 0
    while lowest <= highest {
      let upper = lowest + Self.notesPerThinning - 1
      removed += try connection.transaction { () throws(NotesStorageError) -> Int in
        try NoteVersionTable.thin(notes: lowest, through: upper, now: now, on: connection)
      }
      lowest = upper + 1
    }
    try connection.withStatement(SQL.setMeta) { statement throws(NotesStorageError) in
      try statement.bind(MetaKey.historyThinned, at: 1)
      try statement.bind(time, at: 2)
      try statement.step()
    }
    return removed
  }
}

extension NotesDatabase: NoteHistoryReader {}
