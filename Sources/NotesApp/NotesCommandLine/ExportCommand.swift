import Foundation
import NotesCore
import NotesFiles

/// `notes export --markdown DIR`: the library written as a folder of Markdown files.
///
/// ## Guarantees
///
/// - DIR is checked before the library is opened: one that exists and is not an empty
///   folder, or whose parent is missing or may not be written, is refused with exit code
///   73, and nothing is touched (see `MarkdownExport` for what is written and how).
/// - A failed write ends with 73 (a folder or file this user may not write) or 74 (a full
///   disk, another error the system gives), and DIR holds nothing of the export.
@MainActor
enum ExportCommand {
  /// Exports the library at `databasePath` into the folder `path`, and prints a summary.
  ///
  /// - Throws: ``CommandFailure``: 73 or 74 as above; the library's own refusal if it
  ///   cannot be read.
  static func markdown(
    to path: String, databasePath: String?, io: CommandIO
  ) throws(CommandFailure) {
    try CommandFailure.files { () throws(FileFailure) in try MarkdownExport.checkTarget(path) }
    let session = try LibrarySession(databasePath: databasePath)
    let state: NotesState
    do {
      defer { session.close() }
      state = try session.state
    }
    let written = try CommandFailure.files { () throws(FileFailure) in
      try MarkdownExport.write(state, to: path)
    }
    let folder = DisplayText.quoted(path, limit: .max)
    var summary =
      "exported \(Counts.phrase(written.notes, "note")) in "
      + "\(Counts.phrase(written.notebooks, "notebook")) to \(folder)"
    if written.notesWithoutNotebook > 0 {
      summary += " (\(written.notesWithoutNotebook) without a notebook left out)"
    }
    io.write(summary + "\n")
  }
}
