public import Foundation

/// One kept version of a note's title and text: what it said, when, and where it was made.
///
/// The library keeps a note's versions from its first change on (see ``NoteHistory``):
/// the text it had before that change, then each text saved since, the newest being the
/// note's current text. Versions are read from the library on demand, never held in the
/// model's state, so a library of many versions costs nothing until one note's history is
/// asked for.
public struct NoteVersion: Identifiable, Equatable, Sendable, Codable {
  /// Where a version was made.
  public enum Origin: String, Equatable, Sendable, Codable, CaseIterable {
    /// Saved by this library's programs: typed, renamed, an undo, an edit on the command line.
    case thisDevice = "this-device"
    /// Pulled from the sync server: another device's version, taken whole.
    case anotherDevice = "another-device"
    /// Pulled from the sync server and merged with what this device had changed meanwhile.
    case merge
    /// An earlier version brought back by the user (a new edit, undoable like any other).
    case restoredVersion = "restored-version"
    /// The text a note had before its first kept change: when it was last modified, as the
    /// library had it then; where it was made is not known.
    case beforeHistory = "before-history"

    /// A phrase for lists, such as "this device".
    public var phrase: String {
      switch self {
      case .thisDevice: "this device"
      case .anotherDevice: "another device"
      case .merge: "a merge with another device"
      case .restoredVersion: "a restored version"
      case .beforeHistory: "before history was kept"
      }
    }
  }

  /// The version's number, unique in the library; larger is newer.
  public let id: Int64
  /// The note.
  public let noteID: NoteID
  /// Its title in this version.
  public let title: String
  /// Its text in this version.
  public let body: String
  /// When this version was last saved.
  public let saved: Date
  /// Where it was made.
  public let origin: Origin

  /// Creates a version.
  ///
  /// - Parameters:
  ///   - id: Its number.
  ///   - noteID: The note.
  ///   - title: The title.
  ///   - body: The text.
  ///   - saved: When it was last saved.
  ///   - origin: Where it was made.
  public init(
    id: Int64, noteID: NoteID, title: String, body: String, saved: Date, origin: Origin
  ) {
    self.id = id
    self.noteID = noteID
    self.title = title
    self.body = body
    self.saved = saved
    self.origin = origin
  }
}

/// The rules by which a library keeps its notes' versions.
///
/// ## Guarantees
///
/// - **What is kept.** The first change to a note's title or text keeps the text it had
///   before (``NoteVersion/Origin/beforeHistory``), then every save keeps the text saved. A
///   change of anything else (pinned, notebook) keeps no version.
/// - **Saves close together are one version.** A save from the same origin as the newest
///   version, within ``sameVersionWithin`` of that version's first save, replaces its text
///   instead of adding one: typing a paragraph is one version, not one per key. A version
///   from another origin (a pull, a restore) always starts a new one, and so does a save
///   after the window.
/// - **Storage stays bounded** by thinning, run off the main actor once a day, when a
///   library that can be written is opened: of the versions saved in the last day every
///   one is kept; of those in the last week, the newest of each hour; of those in the last
///   30 days, the newest of each day; of older ones, the newest of each week (hours, days
///   and weeks counted from 1 January 2001, UTC). A note's newest version is always kept.
/// - **A note's history goes with it**: restoring a note from Recently Deleted keeps its
///   history; deleting it for good deletes its history.
public enum NoteHistory {
  /// How long after a version's first save a save from the same origin still replaces it:
  /// one minute.
  public static let sameVersionWithin: TimeInterval = 60
  /// Every version younger than this is kept: one day.
  public static let keepsEveryVersionFor: TimeInterval = 24 * 60 * 60
  /// Versions younger than this are kept one an hour: one week.
  public static let keepsHourlyFor: TimeInterval = 7 * 24 * 60 * 60
  /// Versions younger than this are kept one a day, older ones one a week: 30 days.
  public static let keepsDailyFor: TimeInterval = 30 * 24 * 60 * 60
}

/// Where a library's note history is read from: the library's storage.
///
/// Presentations read a note's history through their session, which reads it here on
/// demand; `NotesDatabase` is the one implementation outside tests.
@MainActor
public protocol NoteHistoryReader: AnyObject {
  /// The kept versions of note `id`, newest first.
  ///
  /// - Parameter id: A note.
  /// - Returns: Its versions, empty if none are kept.
  /// - Throws: The storage's error if it cannot be read.
  func history(of id: NoteID) throws -> [NoteVersion]
}
