public import Foundation

/// The path of the notes database and the setting it came from.
///
/// Where the notes database lives, and why there.
///
/// ```swift
/// let location = DatabaseLocation.resolve(
///   explicitPath: nil,
///   environment: ["XDG_DATA_HOME": "/data"],
///   homeDirectory: "/home/ada")
/// // location.path == "/data/airframe-notes/notes.sqlite", location.source == .xdgDataHome
/// ```
///
/// ## Guarantees
///
/// - Resolution order, first match wins: an explicit path (the command-line flag) > the
///   `AIRFRAME_NOTES_DATABASE` environment variable > `$XDG_DATA_HOME/airframe-notes/
///   notes.sqlite` > `<home>/.local/share/airframe-notes/notes.sqlite`.
/// - An empty explicit path or empty variable counts as unset; a relative `XDG_DATA_HOME`
///   is ignored, as the XDG Base Directory specification requires.
/// - A leading `~/` in an explicit path or the variable is expanded with the given home
///   directory. Nothing else is rewritten.
/// - Resolving is pure: it reads only its arguments (the process environment and home
///   directory are only defaults) and touches no file.
public struct DatabaseLocation: Equatable, Sendable, CustomStringConvertible {
  /// The setting a location came from.
  public enum Source: Equatable, Sendable {
    /// A path given explicitly, such as by a command-line flag.
    case explicit
    /// The `AIRFRAME_NOTES_DATABASE` environment variable.
    case environment
    /// The XDG data directory, `$XDG_DATA_HOME`.
    case xdgDataHome
    /// The default data directory under the home directory, `~/.local/share`.
    case homeDirectory
  }

  /// The environment variable that overrides the default location.
  public static let environmentVariable = "AIRFRAME_NOTES_DATABASE"
  /// The folder under the data directory that holds the database.
  public static let folderName = "airframe-notes"
  /// The database file's name inside that folder.
  public static let fileName = "notes.sqlite"

  /// The database file's path.
  public let path: String
  /// Which setting chose the path.
  public let source: Source

  /// Creates a location.
  ///
  /// - Parameters:
  ///   - path: The database file's path.
  ///   - source: The setting it came from.
  public init(path: String, source: Source) {
    self.path = path
    self.source = source
  }

  /// The path and where it came from, such as `/data/notes.sqlite (from XDG_DATA_HOME)`.
  public var description: String {
    let origin =
      switch source {
      case .explicit: "given explicitly"
      case .environment: "from \(Self.environmentVariable)"
      case .xdgDataHome: "from XDG_DATA_HOME"
      case .homeDirectory: "the default location"
      }
    return "\(path) (\(origin))"
  }

  /// Chooses the database path: explicit path, then environment variable, then XDG, then
  /// the home directory.
  ///
  /// - Parameters:
  ///   - explicitPath: A path given on the command line, if any.
  ///   - environment: The environment to read; the process's by default.
  ///   - homeDirectory: The user's home directory; ``processHomeDirectory`` by default.
  /// - Returns: The chosen path and its source.
  public static func resolve(
    explicitPath: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    homeDirectory: String = Self.processHomeDirectory
  ) -> Self {
    if let explicitPath, !explicitPath.isEmpty {
      return Self(path: expandingTilde(explicitPath, home: homeDirectory), source: .explicit)
    }
    if let variable = environment[environmentVariable], !variable.isEmpty {
      return Self(path: expandingTilde(variable, home: homeDirectory), source: .environment)
    }
    if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
      return Self(path: join(dataHome, folderName, fileName), source: .xdgDataHome)
    }
    return Self(
      path: join(homeDirectory, ".local/share", folderName, fileName), source: .homeDirectory)
  }

  /// The process's home directory: `$HOME` when it is an absolute path (as the XDG base
  /// directory rules use it), else the account's home from the system.
  public static var processHomeDirectory: String {
    if let home = ProcessInfo.processInfo.environment["HOME"], home.hasPrefix("/") { return home }
    return NSHomeDirectory()
  }

  private static func expandingTilde(_ path: String, home: String) -> String {
    path.hasPrefix("~/") ? join(home, String(path.dropFirst(2))) : path
  }

  /// Joins path components with single slashes.
  private static func join(_ first: String, _ rest: String...) -> String {
    var path = first
    for component in rest {
      if !path.hasSuffix("/") { path += "/" }
      path += component
    }
    return path
  }
}
