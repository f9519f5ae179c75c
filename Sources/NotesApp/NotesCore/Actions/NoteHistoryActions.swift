public import Airframe
public import Foundation

/// Brings back an earlier version of a note: its title and text become the note's again.
///
/// A restore is a new edit, not a rewind: the versions since stay in the history, the
/// restore keeps a version of its own (``NoteVersion/Origin/restoredVersion``), it is undone
/// like any other edit and synced and merged like any other.
public struct RestoreNoteVersion: Action {
  /// The name of the action, which the library's history also reads to tell a restore
  /// from other edits: "Restore Version".
  public static let actionName = "Restore Version"

  /// The version to bring back.
  public let version: NoteVersion
  /// The modification time.
  public let now: Date

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - version: The version to bring back; its note must exist.
  ///   - now: The modification time.
  public init(version: NoteVersion, now: Date) {
    self.version = version
    self.now = now
  }

  /// "Restore Version".
  public var name: String { Self.actionName }

  /// The note must exist and the version's title and text obey today's rules (a version
  /// pulled from an older program might not).
  public func validate(in state: NotesState) -> ValidationResult {
    ValidationResult(
      NotesRules.noteExists(version.noteID, in: state)
        + NotesRules.titleIssues(version.title, field: "note title")
        + NotesRules.bodyIssues(version.body))
  }

  /// Sets the title and text; the inverse restores every field.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    let title = NotesRules.normalizedTitle(version.title)
    return try RestoreNoteFields.change(version.noteID, named: name, in: &transaction) {
      $0.title = title
      $0.body = version.body
      $0.modified = now
    }
  }
}
