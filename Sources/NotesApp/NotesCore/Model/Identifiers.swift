/// The stable id of a notebook.
public struct NotebookID: RawRepresentable, Hashable, Comparable, Sendable, Codable,
  CustomStringConvertible
{
  /// The number stored in the database.
  public let rawValue: Int64

  /// Creates an id from its stored number.
  ///
  /// - Parameter rawValue: A positive number.
  public init(rawValue: Int64) { self.rawValue = rawValue }

  /// Orders ids by their numbers.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The number, as shown by the command line.
  public var description: String { "\(rawValue)" }
}

/// The stable id of a note.
public struct NoteID: RawRepresentable, Hashable, Comparable, Sendable, Codable,
  CustomStringConvertible
{
  /// The number stored in the database.
  public let rawValue: Int64

  /// Creates an id from its stored number.
  ///
  /// - Parameter rawValue: A positive number.
  public init(rawValue: Int64) { self.rawValue = rawValue }

  /// Orders ids by their numbers.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The number, as shown by the command line.
  public var description: String { "\(rawValue)" }
}
