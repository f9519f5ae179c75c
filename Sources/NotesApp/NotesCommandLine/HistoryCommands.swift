import Foundation
import NotesCore
import NotesFiles
import NotesStorage

/// A kept version as `history --json` prints it.
struct VersionListing: Encodable {
  /// The version's number, for `--show` and `--restore`.
  var version: Int64
  /// The note's id.
  var note: Int64
  /// The title in this version.
  var title: String
  /// The text in this version.
  var body: String
  /// When it was last saved.
  var saved: Date
  /// Where it was made: this-device, another-device, merge, restored-version or
  /// before-history.
  var origin: String

  init(_ version: NoteVersion) {
    self.version = version.id
    note = version.noteID.rawValue
    title = version.title
    body = version.body
    saved = version.saved
    origin = version.origin.rawValue
  }
}

/// `history ID [--json]` and `history ID --show VERSION`, which read a note's kept versions.
///
/// ## Guarantees
///
/// - Versions are listed newest first, one line each: version number, when it was saved
///   (ISO 8601, UTC), where it was made and the title, tab-separated (control characters
///   as U+FFFD, as the other lists); `--json` prints an array of `VersionListing` objects.
/// - A note in Recently Deleted has its history too. An id that is neither a note nor in
///   Recently Deleted exits 66, and so does a version that is not one of the note's.
/// - A note not changed since its library began keeping history lists no version; standard
///   error says so.
@MainActor
enum HistoryCommands {
  /// Prints note `id`'s kept versions, newest first.
  static func history(
    of id: NoteID, json: Bool, in session: LibrarySession, io: CommandIO
  ) throws(CommandFailure) {
    let versions = try versions(of: id, in: session.database)
    if json {
      let listings = versions.map(VersionListing.init)
      io.write(
        try CommandFailure.files { () throws(FileFailure) in try JSONCoding.text(listings) })
      return
    }
    if versions.isEmpty {
      io.writeError("note \(id) has not changed since its history began: no version kept\n")
    }
    let dates = ISO8601DateFormatter()
    var text = ""
    for version in versions {
      text.append(
        "\(version.id)\t\(dates.string(from: version.saved))\t\(version.origin.phrase)\t"
          + "\(DisplayText.line(version.title))\n")
    }
    io.write(text)
  }

  /// Prints version `number` of note `id`: its fields, a blank line, then its text.
  static func showVersion(
    _ number: Int64, of id: NoteID, in session: LibrarySession, io: CommandIO
  ) throws(CommandFailure) {
    let version = try version(number, among: try versions(of: id, in: session.database), of: id)
    var text = """
      Version: \(version.id)
      Note: \(id)
      Title: \(DisplayText.line(version.title))
      Saved: \(JSONCoding.format(version.saved))
      Origin: \(version.origin.phrase)


      """
    text += DisplayText.body(version.body)
    if !version.body.isEmpty, !version.body.hasSuffix("\n") { text += "\n" }
    io.write(text)
  }

  /// Version `number` among note `id`'s `versions`.
  ///
  /// - Throws: ``CommandFailure`` with exit code 66 if it is not one of them.
  static func version(
    _ number: Int64, among versions: [NoteVersion], of id: NoteID
  ) throws(CommandFailure) -> NoteVersion {
    guard let version = versions.first(where: { $0.id == number }) else {
      throw CommandFailure(.notFound, "note \(id) has no version \(number)")
    }
    return version
  }

  /// Note `id`'s versions, read from `database`.
  ///
  /// - Throws: ``CommandFailure`` with exit code 66 if `id` is neither a note nor in
  ///   Recently Deleted.
  private static func versions(
    of id: NoteID, in database: NotesDatabase
  ) throws(CommandFailure) -> [NoteVersion] {
    do {
      let versions = try database.history(of: id)
      if versions.isEmpty, try database.notes(withIDs: [id]).notes.isEmpty,
        try !database.recentlyDeletedNotes().contains(where: { $0.id == id })
      {
        throw CommandFailure(.notFound, "no note with id \(id)")
      }
      return versions
    } catch let failure as CommandFailure {
      throw failure
    } catch let error as NotesStorageError {
      throw CommandFailure(error)
    } catch {
      throw CommandFailure(.failure, "\(error)")
    }
  }
}
