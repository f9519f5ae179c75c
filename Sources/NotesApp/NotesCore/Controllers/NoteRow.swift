public import Foundation

/// One note in the list.
///
/// Its texts live in a chunk shared with other rows (see `NoteTextChunk`), so a row holds
/// one reference to a chunk that many rows share: copying the rows (which a search key or a
/// sort does) touches one chunk per many rows rather than a separate box per row.
public struct NoteRow: Identifiable, Equatable, Sendable {
  /// The note.
  public let id: NoteID
  /// Its notebook.
  public let notebookID: NotebookID
  /// When it last changed.
  public let modified: Date
  /// Whether it is pinned.
  public let isPinned: Bool
  /// Whether the title and the body are all ASCII, computed once per row and kept in the
  /// row itself, so finding the rows a narrowing search reconsiders reads no other memory.
  let isASCII: Bool
  /// The slot of `chunk` that holds this row's texts.
  private let slot: UInt32
  /// The chunk that holds the title, the body, the sort key and the gram signature.
  let chunk: NoteTextChunk

  /// Its title.
  public var title: String { chunk.entry(Int(slot)).title }
  /// Its text (shared with the model's copy, not duplicated).
  public var body: String { chunk.entry(Int(slot)).body }
  /// The title folded for sorting (lowercased, in canonical composition), computed once
  /// per row; the title order compares its UTF-8 bytes.
  var sortTitle: TitleOrder { TitleOrder(text: chunk.entry(Int(slot)).sortTitle) }
  /// The first sixteen bytes of `sortTitle`'s UTF-8, most significant first, zero-padded:
  /// the title order's first keys (see `sortPrefix(of:)`).
  ///
  /// Ordering by these integers first and by `sortTitle` on a tie is exactly ordering by
  /// `sortTitle`'s bytes, with integer comparisons instead of a string comparison for most
  /// pairs. Kept in the row itself, not with the texts, so sorting reads no other memory.
  let sortPrefix: (high: UInt64, low: UInt64)

  /// Whether the row's gram signature has every bit of `grams` (see `GramSignature`).
  func has(_ grams: GramSignature.Requirement) -> Bool { chunk.has(grams, in: Int(slot)) }

  /// The row for `note`, with its texts in a chunk of its own.
  ///
  /// - Parameter note: A note.
  public init(_ note: Note) {
    let chunk = NoteTextChunk(capacity: 1)
    self.init(note, chunk: chunk, slot: chunk.append(note))
  }

  /// The row for `note`, whose texts were just written to `slot` of `chunk`.
  init(_ note: Note, chunk: NoteTextChunk, slot: Int) {
    id = note.id
    notebookID = note.notebookID
    modified = note.modified
    isPinned = note.isPinned
    self.chunk = chunk
    self.slot = UInt32(slot)
    let entry = chunk.entry(slot)
    isASCII = entry.isASCII
    sortPrefix = Self.sortPrefix(of: entry.sortTitle)
  }

  /// Whether two rows show the same note the same way.
  public static func == (lhs: NoteRow, rhs: NoteRow) -> Bool {
    lhs.id == rhs.id && lhs.notebookID == rhs.notebookID && lhs.modified == rhs.modified
      && lhs.isPinned == rhs.isPinned
      && ((lhs.chunk === rhs.chunk && lhs.slot == rhs.slot)
        || (lhs.title == rhs.title && lhs.body == rhs.body))
  }

  /// The first line of the body, at most 80 characters, for a second line in the list.
  public var snippet: String {
    // Looks for the line break in the first 320 bytes only (80 characters take at most
    // that many), so a long body is never walked to its end.
    let head = body.utf8.prefix(320)
    let lineEnd = head.firstIndex(of: UInt8(ascii: "\n")) ?? head.endIndex
    return String(body[..<lineEnd].prefix(80))
  }
}
