public import Airframe
@_spi(Instrumentation) public import NotesCore

/// Recently Deleted, as a presentation sees it: its notes, and the gestures that restore
/// them or delete them for good.
///
/// ## Guarantees
/// - Every gesture goes through the dispatcher: validated, one undo step, in the action
///   log, reported to the status bar; a refusal changes nothing and says why.
/// - A restored note keeps its id, and goes back to its notebook, or one with that
///   notebook's title, recreated if it is gone (see `RestoreDeletedNote`).
extension NotesSession {
  /// The notes in Recently Deleted, most recently deleted first (then by id).
  ///
  /// Kept in that order by a list lens the library's sessions share, updated from each
  /// commit's changes; reading it copies the rows, never sorts them.
  public var recentlyDeleted: [DeletedNote] { library.recentlyDeleted.rows }

  /// How ``recentlyDeleted`` changed at each commit that changed it, by position, for a
  /// presentation that changes its rows by the positions named (a list view's model).
  public var recentlyDeletedUpdates: some StateProjection<ListUpdate<NoteID>> {
    library.recentlyDeleted.updates
  }

  /// How many notes are in Recently Deleted.
  public var recentlyDeletedCount: Int { library.recentlyDeleted.count }

  /// The note at `index` in ``recentlyDeleted``, read without copying the list.
  ///
  /// - Parameter index: A position below ``recentlyDeletedCount``.
  /// - Returns: The entry.
  /// - Complexity: O(log *n*).
  public func recentlyDeletedEntry(at index: Int) -> DeletedNote {
    library.recentlyDeleted.row(at: index)
  }

  /// Where note `id` is in ``recentlyDeleted``, if it is there.
  ///
  /// - Parameter id: A note.
  /// - Returns: Its index.
  /// - Complexity: O(log *n*).
  public func recentlyDeletedIndex(of id: NoteID) -> Int? {
    library.recentlyDeleted.index(of: id)
  }

  /// Note `id` as Recently Deleted holds it, if it is there.
  ///
  /// - Parameter id: A note.
  /// - Returns: Its entry.
  public func recentlyDeletedEntry(_ id: NoteID) -> DeletedNote? {
    model.state.recentlyDeleted[id]
  }

  /// The title of the notebook note `id` is in, if the note exists.
  ///
  /// - Parameter id: A note.
  /// - Returns: Its notebook's title.
  public func notebookTitle(ofNote id: NoteID) -> String? {
    model.state.notes[id].flatMap { model.state.notebooks[$0.notebookID]?.title }
  }

  /// The user restored a note from Recently Deleted: it is back in its notebook.
  ///
  /// Restored from the sidebar's Recently Deleted, the note leaves that list and the
  /// sidebar stays there, so several notes can be restored one after another; restored
  /// from anywhere else (a command, a dialog), the note is selected and opened.
  ///
  /// - Parameter id: The note.
  /// - Returns: The outcome; when committed the status bar says where it went.
  @discardableResult
  public func deletedNoteRestored(_ id: NoteID) -> ActionOutcome {
    let outcome = movingOn {
      let outcome = dispatcher.dispatch(RestoreDeletedNote(id: id, now: now()))
      if outcome.isCommitted, sidebar.selection.value != .recentlyDeleted { reveal(id) }
      return outcome
    }
    let title = BidiIsolation.isolate(model.state.notes[id]?.title ?? "")
    let notebook = BidiIsolation.isolate(notebookTitle(ofNote: id) ?? "")
    report(outcome, done: "Restored “\(title)” to “\(notebook)”" + hint(.undo, "to undo"))
    return outcome
  }

  /// The user deleted a note in Recently Deleted for good.
  ///
  /// - Parameter id: The note.
  /// - Returns: The outcome.
  @discardableResult
  public func deletedNoteDeletedForGood(_ id: NoteID) -> ActionOutcome {
    let title = BidiIsolation.isolate(model.state.recentlyDeleted[id]?.note.title ?? "")
    let outcome = dispatcher.dispatch(DeleteForGood(.note(id)))
    report(outcome, done: "Deleted “\(title)” for good")
    return outcome
  }

  /// The user emptied Recently Deleted.
  ///
  /// - Returns: The outcome; `.unchanged` when it was empty.
  @discardableResult
  public func recentlyDeletedEmptied() -> ActionOutcome {
    let count = model.state.recentlyDeleted.count
    guard count > 0 else { return .unchanged }
    let outcome = dispatcher.dispatch(DeleteForGood(.all))
    let notes = count == 1 ? "1 note" : "\(count) notes"
    report(outcome, done: "Deleted \(notes) for good")
    return outcome
  }

  /// How many days the library keeps a deleted note before it goes for good.
  public var recentlyDeletedDays: Int { model.state.recentlyDeletedDays }

  /// The user set how many days the library keeps deleted notes.
  ///
  /// - Parameter days: A number of days, within `RecentlyDeleted.allowedDays`.
  /// - Returns: The outcome; a number out of range is refused with the range.
  @discardableResult
  public func deletedNotesKept(forDays days: Int) -> ActionOutcome {
    let outcome = dispatcher.dispatch(KeepDeletedNotes(days: days))
    report(
      outcome,
      done: "Recently Deleted keeps notes \(days == 1 ? "1 day" : "\(days) days")"
        + hint(.undo, "to undo"))
    return outcome
  }
}
