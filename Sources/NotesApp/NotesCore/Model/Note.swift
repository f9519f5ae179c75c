public import Foundation

/// A note: a title and a body, in one notebook.
public struct Note: Identifiable, Equatable, Sendable, Codable {
  /// The note's stable id.
  public let id: NoteID
  /// The notebook the note belongs to.
  public var notebookID: NotebookID
  /// The title shown in lists and the window title.
  public var title: String
  /// The text of the note.
  public var body: String
  /// When the note was created.
  public let created: Date
  /// When the note's title, body, notebook or pin last changed.
  public var modified: Date
  /// Whether the note is listed before unpinned notes.
  public var isPinned: Bool

  /// Creates a note.
  ///
  /// - Parameters:
  ///   - id: The stable id.
  ///   - notebookID: The notebook it belongs to.
  ///   - title: The title.
  ///   - body: The text.
  ///   - created: When it was created.
  ///   - modified: When it last changed; `created` by default.
  ///   - isPinned: Whether it is pinned.
  public init(
    id: NoteID,
    notebookID: NotebookID,
    title: String,
    body: String = "",
    created: Date,
    modified: Date? = nil,
    isPinned: Bool = false
  ) {
    self.id = id
    self.notebookID = notebookID
    self.title = title
    self.body = body
    self.created = created
    self.modified = modified ?? created
    self.isPinned = isPinned
  }
}
