/// Why reading or writing the library's files failed, in lines a person can read.
///
/// ## Guarantees
///
/// - Every failure says what went wrong and which path it concerns, and, when something was
///   to be saved or written, that nothing was.
/// - ``kind`` names the cause, so the command line ends with the exit status it calls for
///   and a window can say the same sentence in its status bar.
public struct FileFailure: Error, Equatable, CustomStringConvertible {
  /// What kind of failure it is.
  public enum Kind: Sendable, Equatable {
    /// The input is not what it must be: not UTF-8, not a notes export, a front matter that
    /// does not parse.
    case invalidData
    /// The file or folder to read is missing or may not be read.
    case notFound
    /// The file or folder to write may not be created there.
    case cannotCreate
    /// A read or write failed: a full disk, an I/O error.
    case ioError
    /// Anything else.
    case failure
  }

  /// What kind of failure it is.
  public let kind: Kind
  /// What went wrong, one line each.
  public let lines: [String]

  /// A failure with one or more lines.
  public init(_ kind: Kind, _ lines: String...) {
    self.init(kind, lines: lines)
  }

  /// A failure with a list of lines.
  public init(_ kind: Kind, lines: [String]) {
    self.kind = kind
    self.lines = lines
  }

  /// The lines on one line, joined by semicolons, for a status bar.
  public var description: String { lines.joined(separator: "; ") }
}

/// How many reasons a refusal reports.
///
/// A refused import can have a reason for each of 100,000 notes; a message lists the first
/// ``limit`` and counts the rest.
public enum Reasons {
  /// The most reasons reported; the rest are counted.
  public static let limit = 20

  /// At most ``limit`` of `issues`, then how many more there are.
  public static func reported(_ issues: [String]) -> [String] {
    guard issues.count > limit else { return issues }
    return issues.prefix(limit) + ["… and \(issues.count - limit) more"]
  }
}
