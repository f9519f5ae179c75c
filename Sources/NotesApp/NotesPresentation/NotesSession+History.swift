public import Airframe
public import Foundation
@_spi(Instrumentation) public import NotesCore

/// Note history, as a presentation sees it: a note's kept versions, and the gesture that
/// brings one back.
///
/// ## Guarantees
/// - The history is read from the library's storage when asked for, never kept in the
///   session: a presentation asks again when it shows it (the note's versions change with
///   every save).
/// - Bringing a version back is a new edit through the dispatcher (``RestoreNoteVersion``):
///   validated by today's rules, one undo step of its own (the typing before it is a step
///   apart), reported to the status bar; a refusal changes nothing and says why.
extension NotesSession {
  /// The kept versions of note `id`, newest first: the first is its current text once it has
  /// changed since history was kept; empty before, or when the library keeps none.
  ///
  /// - Parameter id: A note.
  /// - Returns: Its versions.
  /// - Throws: The storage's error if the history cannot be read.
  public func history(of id: NoteID) throws -> [NoteVersion] {
    try library.historyReader?.history(of: id) ?? []
  }

  /// The selected note's versions, newest first, for a presentation to list; `nil` when no
  /// note is selected, when none is kept yet, or when they cannot be read — the status bar
  /// then says which.
  ///
  /// - Returns: The note and its versions (at least one).
  public func selectedNoteHistory() -> (note: NoteID, versions: [NoteVersion])? {
    guard let id = selectedNote.value else { return nil }
    do {
      let versions = try history(of: id)
      guard !versions.isEmpty else {
        inform("No earlier version of this note is kept yet.")
        return nil
      }
      return (id, versions)
    } catch {
      inform("The note's history cannot be read: \(error)")
      return nil
    }
  }

  /// A version as one line of a list: "7 Dec 2026 at 2:41 PM — this device — Groceries".
  ///
  /// - Parameter version: A kept version.
  /// - Returns: When it was saved, where it was made and its title.
  nonisolated public static func label(of version: NoteVersion) -> String {
    "\(ShownDate.text(version.saved)) — \(version.origin.phrase) — \(version.title)"
  }

  /// The user brought back an earlier version of a note: its title and text are the note's
  /// again, as a new edit.
  ///
  /// - Parameter version: The version, of a note in the library.
  /// - Returns: The outcome; when committed the status bar says which version came back.
  @discardableResult
  public func noteVersionRestored(_ version: NoteVersion) -> ActionOutcome {
    editor.endTypingRun()
    let outcome = dispatcher.dispatch(RestoreNoteVersion(version: version, now: now()))
    report(
      outcome,
      done: "Restored the version of \(ShownDate.text(version.saved))"
        + hint(.undo, "to undo"))
    return outcome
  }
}

/// How every presentation shows a moment to the user.
public enum ShownDate {
  /// `date` in the user's locale, medium date and short time: "7 Dec 2026 at 2:41 PM".
  ///
  /// - Parameter date: A moment.
  /// - Returns: Its text.
  public static func text(_ date: Date) -> String {
    let dates = DateFormatter()
    dates.dateStyle = .medium
    dates.timeStyle = .short
    return dates.string(from: date)
  }
}
