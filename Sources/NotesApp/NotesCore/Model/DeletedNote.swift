public import Foundation

/// A note in Recently Deleted: the note as it was when it was deleted, where it was, and
/// when it went.
///
/// Deleting a note (alone, or with its notebook) moves it here; restoring it puts it back
/// with the same id, in its notebook, or in a notebook with that notebook's title (recreated
/// if it is gone too). It goes for good when the user empties Recently Deleted or deletes
/// it from there, or on its own once it has been here longer than the library keeps
/// deleted notes (``NotesState/recentlyDeletedDays``).
public struct DeletedNote: Identifiable, Equatable, Sendable, Codable {
  /// The note as it was; its id is the entry's.
  public var note: Note
  /// The title of the notebook it was in, to find or recreate that notebook on restore.
  public var notebookTitle: String
  /// When it was deleted.
  public var deleted: Date

  /// The note's id.
  public var id: NoteID { note.id }

  /// Creates an entry.
  ///
  /// - Parameters:
  ///   - note: The note as it was.
  ///   - notebookTitle: The title of the notebook it was in.
  ///   - deleted: When it was deleted.
  public init(note: Note, notebookTitle: String, deleted: Date) {
    self.note = note
    self.notebookTitle = notebookTitle
    self.deleted = deleted
  }
}

/// Rules of Recently Deleted.
public enum RecentlyDeleted {
  /// How many days a library keeps deleted notes unless it is told otherwise: 30.
  public static let defaultDays = 30
  /// The numbers of days a library may keep deleted notes: 1 to 365.
  public static let allowedDays = 1...365

  /// How long a library that keeps deleted notes `days` days keeps them.
  ///
  /// - Parameter days: A number of days.
  /// - Returns: That many days of 24 hours.
  public static func keptFor(days: Int) -> TimeInterval { TimeInterval(days) * 24 * 60 * 60 }

  /// What every presentation says of how long deleted notes are kept.
  ///
  /// For 30 days: "Notes here go for good after 30 days."
  ///
  /// - Parameter days: How many days the library keeps them.
  /// - Returns: The sentence.
  public static func keptSentence(days: Int) -> String {
    "Notes here go for good after \(days == 1 ? "1 day" : "\(days) days")."
  }
}
