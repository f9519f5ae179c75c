public import Foundation

/// A named collection of notes.
public struct Notebook: Identifiable, Equatable, Sendable, Codable {
  /// The notebook's stable id.
  public let id: NotebookID
  /// The title shown in the sidebar; unique among notebooks, ignoring case.
  public var title: String
  /// When the notebook was created.
  public let created: Date

  /// Creates a notebook.
  ///
  /// - Parameters:
  ///   - id: The stable id.
  ///   - title: The title.
  ///   - created: When it was created.
  public init(id: NotebookID, title: String, created: Date) {
    self.id = id
    self.title = title
    self.created = created
  }
}
