import Airframe
public import Foundation
public import NotesCore

/// The whole library as `export` writes it and `import` reads it.
///
/// The JSON that `export` writes, `import` reads and `list --json` prints.
///
/// ## Guarantees
///
/// - Export format, version 1:
///
///   ```
///   {"version": 1,
///    "notebooks": [{"id", "title", "created"}],
///    "notes": [{"id", "notebookID", "title", "body", "created", "modified", "pinned"}]}
///   ```
///
///   A note's `notebookID` is the `id` of one of the document's notebooks.
/// - Dates are ISO 8601 in UTC with milliseconds ("2024-05-01T09:30:00.250Z"); reading also
///   accepts whole seconds and any time-zone offset.
/// - Reading is lenient where nothing is lost: note ids (new ones are assigned), bodies
///   (empty), dates (now; `modified` defaults to `created`) and `pinned` (false) may be
///   left out, and unknown keys are ignored. Everything else is checked, and a problem is
///   reported with its place in the document, such as `notes[3].title`.
/// - Output is pretty-printed with sorted keys, so the same library prints the same text.
/// - An entry may carry a `source` (never read from or written to JSON): the file a
///   Markdown import read it from, which messages then name instead of `notes[3]`.
public struct LibraryDocument: Codable, Sendable {
  /// The format version this code writes and reads.
  public static let currentVersion = 1

  /// A notebook in the document.
  public struct NotebookEntry: Codable, Sendable {
    /// The notebook's id in the exported library; notes refer to it.
    public var id: Int64
    /// The title.
    public var title: String
    /// When it was created.
    public var created: Date?
    /// Where the entry came from, for messages, when not from this JSON document.
    public var source: String? = nil

    /// An entry; `source` names where it came from when that is not a JSON document.
    public init(id: Int64, title: String, created: Date?, source: String? = nil) {
      self.id = id
      self.title = title
      self.created = created
      self.source = source
    }

    private enum CodingKeys: String, CodingKey { case id, title, created }
  }

  /// A note in the document.
  public struct NoteEntry: Codable, Sendable {
    /// The note's id in the exported library (not used when importing).
    public var id: Int64?
    /// The `id` of the note's notebook in this document.
    public var notebookID: Int64
    /// The title.
    public var title: String
    /// The text.
    public var body: String?
    /// When it was created.
    public var created: Date?
    /// When it last changed.
    public var modified: Date?
    /// Whether it is pinned.
    public var pinned: Bool?
    /// Where the entry came from, for messages, when not from this JSON document.
    public var source: String? = nil

    /// An entry; `source` names where it came from when that is not a JSON document.
    public init(
      id: Int64?, notebookID: Int64, title: String, body: String?, created: Date?,
      modified: Date?, pinned: Bool?, source: String? = nil
    ) {
      self.id = id
      self.notebookID = notebookID
      self.title = title
      self.body = body
      self.created = created
      self.modified = modified
      self.pinned = pinned
      self.source = source
    }

    private enum CodingKeys: String, CodingKey {
      case id, notebookID, title, body, created, modified, pinned
    }
  }

  /// The format version.
  public var version: Int
  /// Every notebook.
  public var notebooks: [NotebookEntry]
  /// Every note.
  public var notes: [NoteEntry]

  /// The document of a whole library, in id order.
  public init(_ state: NotesState) {
    version = Self.currentVersion
    notebooks = state.notebooks.elements.sorted { $0.id < $1.id }.map {
      NotebookEntry(id: $0.id.rawValue, title: $0.title, created: $0.created)
    }
    notes = state.notes.elements.sorted { $0.id < $1.id }.map {
      NoteEntry(
        id: $0.id.rawValue, notebookID: $0.notebookID.rawValue, title: $0.title, body: $0.body,
        created: $0.created, modified: $0.modified, pinned: $0.isPinned)
    }
  }

  /// Reads a document, checking the version before anything else.
  ///
  /// - Parameters:
  ///   - text: The JSON text.
  ///   - source: What the text came from, for messages ("standard input").
  /// - Throws: ``FileFailure`` of kind ``FileFailure/Kind/invalidData`` saying what is wrong
  ///   and where.
  public init(json text: String, from source: String) throws(FileFailure) {
    struct Header: Decodable { var version: Int? }
    let data = Data(text.utf8)
    let decoder = JSONCoding.decoder()
    do {
      let header = try decoder.decode(Header.self, from: data)
      guard let version = header.version else {
        throw FileFailure(
          .invalidData, "\(source) is not a notes export: it has no \"version\"")
      }
      guard version == Self.currentVersion else {
        throw FileFailure(
          .invalidData,
          "\(source) is export version \(version); this notes reads version \(Self.currentVersion)"
        )
      }
      self = try decoder.decode(Self.self, from: data)
    } catch let failure as FileFailure {
      throw failure
    } catch let error as DecodingError {
      throw FileFailure(.invalidData, "\(source): \(JSONCoding.describe(error))")
    } catch {
      throw FileFailure(.invalidData, "\(source) is not valid JSON: \(error)")
    }
  }
}

/// The JSON settings of the export and of every command that prints JSON.
public enum JSONCoding {
  /// ISO 8601 with milliseconds, for reading.
  private static let millisecondsStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
  /// ISO 8601 in whole seconds.
  private static let wholeSecondsStyle = Date.ISO8601FormatStyle()

  /// `date` in ISO 8601, in UTC, rounded to the nearest millisecond (the format style
  /// truncates, which would make `0.947` seconds print as `.946`).
  public static func format(_ date: Date) -> String {
    var (seconds, millis) = Int64((date.timeIntervalSince1970 * 1000).rounded())
      .quotientAndRemainder(dividingBy: 1000)
    if millis < 0 {
      seconds -= 1
      millis += 1000
    }
    let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(wholeSecondsStyle)
    let digits = String(millis)
    return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
  }

  /// `value` as pretty-printed JSON with sorted keys and a final line break.
  public static func text(_ value: some Encodable) throws(FileFailure) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(format(date))
    }
    do {
      return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    } catch {
      throw FileFailure(.failure, "cannot write JSON: \(error)")
    }
  }

  /// A decoder that reads ISO 8601 dates with or without fractional seconds.
  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      if let date = (try? millisecondsStyle.parse(text)) ?? (try? wholeSecondsStyle.parse(text)) {
        return date
      }
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "\(DisplayText.quoted(text)) is not an ISO 8601 date and time")
    }
    return decoder
  }

  /// Where in the document `error` happened and what is wrong, in one line.
  public static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      "\(path(context.codingPath + [key])) is missing"
    case .valueNotFound(let type, let context):
      "\(path(context.codingPath)) must be \(typeName(type)), not null"
    case .typeMismatch(let type, let context):
      "\(path(context.codingPath)) must be \(typeName(type))"
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      "not valid JSON (\(context.debugDescription))"
    case .dataCorrupted(let context):
      "\(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      "\(error)"
    }
  }

  /// A coding path as `notes[3].title`.
  private static func path(_ keys: [any CodingKey]) -> String {
    var text = ""
    for key in keys {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text.isEmpty ? "the document" : text
  }

  private static func typeName(_ type: Any.Type) -> String {
    let name = String(describing: type)
    switch name {
    case "String", "Date": return "a string"
    case "Int", "Int64": return "a whole number"
    case "Bool": return "true or false"
    default: return name.hasPrefix("Array") ? "an array" : "an object"
    }
  }
}
