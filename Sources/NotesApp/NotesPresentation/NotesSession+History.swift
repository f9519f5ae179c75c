public import Airframe
internal import Foundation
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

  /// The user brought back an earlier version of a note: its title and text are the note's
  /// again, as a new edit.
  ///
  /// - Parameter version: The version, of a note in the library.
  /// - Returns: The outcome; when committed the status bar says which version came back.
  @discardableResult
  public func noteVersionRestored(_ version: NoteVersion) -> ActionOutcome {
    editor.endTypingRun()
    let outcome = dispatcher.dispatch(RestoreNoteVersion(version: version, now: now()))
    let dates = DateFormatter()
    dates.dateStyle = .medium
    dates.timeStyle = .short
    report(
      outcome,
      done: "Restored the version of \(dates.string(from: version.saved))"
        + hint(.undo, "to undo"))
    return outcome
  }
}
