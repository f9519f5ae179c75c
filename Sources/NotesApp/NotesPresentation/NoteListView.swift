public import Airframe
@_spi(Instrumentation) public import NotesCore

/// The note list as a presentation reads it: rows, count, positions and updates, with no
/// way to change the filter, the order or the selection (those are session gestures).
///
/// A view over the session's list: reading it always shows the list's current rows.
@MainActor
public struct NoteListView {
  let controller: NoteListController

  /// The number of notes listed.
  public var count: Int { controller.lens.count }

  /// The note at `index`.
  ///
  /// - Parameter index: A position in `0..<count`.
  /// - Returns: Its row.
  /// - Complexity: O(log *n*).
  public func row(at index: Int) -> NoteRow { controller.lens.row(at: index) }

  /// The position of the note with `id`, or `nil` if it is not listed.
  ///
  /// - Parameter id: A note's id.
  /// - Returns: Its index, or `nil`.
  public func index(of id: NoteID) -> Int? { controller.lens.index(of: id) }

  /// The listed row of the note with `id`, or `nil` if it is not listed.
  ///
  /// - Parameter id: A note's id.
  /// - Returns: Its row, or `nil`.
  public func row(for id: NoteID) -> NoteRow? { controller.lens.row(for: id) }

  /// Every listed row, in order, as a new array.
  ///
  /// - Complexity: O(*n*); prefer ``row(at:)`` for large lists.
  public var rows: [NoteRow] { controller.lens.rows }

  /// What changed in the list after each commit and reload.
  public var updates: some StateProjection<ListUpdate<NoteID>> { controller.lens.updates }

  /// The model revision the rows reflect.
  public var renderedRevision: Int { controller.renderedRevision }
}
