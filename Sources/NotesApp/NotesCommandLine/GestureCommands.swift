import Airframe
import Foundation
public import NotesCore
import NotesFiles
import NotesHost
import NotesPresentation
import NotesStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The commands that change one notebook or note, through a session's gestures.
///
/// Each runs as the same gesture the full-screen app makes, on a `NotesSession`.
///
/// ## Guarantees
///
/// - Each command opens a session on the library, selects what it acts on, and makes one
///   gesture (`notebookRenamed`, `noteMoved`, `pinToggled`, …): the action is validated by
///   `NotesRules`, goes through the dispatcher (so it is in the action log) and is saved in
///   one commit, or refused with its reasons (exit 65) and nothing is saved.
/// - A note is named by its id, a notebook by its title (ignoring case); an unknown one
///   exits 66.
/// - `notebook delete` of a notebook with notes deletes it and its notes only with
///   `--yes`; without, it exits 65 saying how many notes would go.
/// - `edit` saves the text `$VISUAL` (else `$EDITOR`) leaves in a private temporary file
///   (see `EditorFile`), or the body read from standard input with `--body -`; an unchanged
///   body saves nothing.
@MainActor
enum GestureCommands {
  /// Runs `command` on the library at `databasePath`.
  static func run(
    _ command: GestureCommand, databasePath: String?, io: CommandIO,
    environment: [String: String]
  ) throws(CommandFailure) {
    // Input is read before the library is opened: bad input changes nothing.
    var body: String?
    if case .edit(_, let fromStandardInput) = command, fromStandardInput {
      body = try CommandInput.text(io.readInput(), from: "standard input")
    }
    // Opened the one way every program opens a library; not started: a command neither
    // follows other writers nor syncs.
    let library = try LibrarySession.openLibrary(databasePath)
    defer { library.close() }
    let session = library.session
    do throws(CommandFailure) {
      switch command {
      case .addNotebook(let name):
        let outcome = session.notebookCreated(titled: name)
        try check(outcome)
        if let id = outcome.createdID(in: \NotesState.notebooks) { io.write("\(id)\n") }
      case .renameNotebook(let name, let title):
        try select(notebook: name, in: session)
        try check(session.notebookRenamed(to: title))
      case .deleteNotebook(let name, let confirmed):
        let notebook = try select(notebook: name, in: session)
        let outcome = session.notebookDeletionRequested()
        guard let pending = session.confirmations.pending.first else { return try check(outcome) }
        guard confirmed else {
          let notes = notebook.noteCount == 1 ? "1 note" : "\(notebook.noteCount) notes"
          throw CommandFailure(
            .invalidData,
            "the notebook \(DisplayText.quoted(notebook.title)) has \(notes); --yes deletes it"
              + " with its notes")
        }
        try check(session.deletionAnswered(pending.id, confirmed: true))
      case .rename(let id, let title):
        _ = try select(note: id, in: session)
        session.noteRenameBegan()
        try check(session.noteRenamed(to: title))
      case .move(let id, let name):
        let note = try select(note: id, in: session)
        guard let notebook = session.notebooks.value.first(where: { Self.matches($0.title, name) })
        else { throw .noNotebook(name) }
        guard notebook.id != note.notebookID else { return }
        try check(session.noteMoved(to: notebook.id))
      case .pin(let id, let isPinned):
        let note = try select(note: id, in: session)
        guard note.isPinned != isPinned else { return }
        try check(session.pinToggled())
      case .delete(let id):
        let note = try select(note: id, in: session)
        try check(session.noteDeleted())
        io.write(
          "moved \(id) \(DisplayText.quoted(note.title)) to Recently Deleted;"
            + " `notes restore \(id)` brings it back\n")
      case .restore(let id):
        guard let entry = session.recentlyDeleted.first(where: { $0.id == id }) else {
          throw CommandFailure(.notFound, "no note with id \(id) in Recently Deleted")
        }
        try check(session.deletedNoteRestored(id))
        io.write(
          "restored \(id) \(DisplayText.quoted(entry.note.title)) to"
            + " \(DisplayText.quoted(session.notebookTitle(ofNote: id) ?? ""))\n")
      case .emptyTrash(let confirmed):
        let count = session.recentlyDeletedCount
        guard count > 0 else { return }
        let notes = count == 1 ? "1 note" : "\(count) notes"
        guard confirmed else {
          throw CommandFailure(
            .invalidData,
            "Recently Deleted holds \(notes); --yes deletes \(count == 1 ? "it" : "them") for good")
        }
        try check(session.recentlyDeletedEmptied())
        io.write("deleted \(notes) for good\n")
      case .keepDeletedNotes(let days):
        if let days {
          try check(session.deletedNotesKept(forDays: days))
        }
        let kept = session.recentlyDeletedDays
        io.write("Recently Deleted keeps notes \(kept == 1 ? "1 day" : "\(kept) days")\n")
      case .restoreVersion(let id, let number):
        _ = try select(note: id, in: session)
        let versions: [NoteVersion]
        do {
          versions = try session.history(of: id)
        } catch let error as NotesStorageError {
          throw CommandFailure(error)
        } catch {
          throw CommandFailure(.failure, "\(error)")
        }
        let version = try HistoryCommands.version(number, among: versions, of: id)
        try check(session.noteVersionRestored(version))
        io.write(
          "restored version \(number) of \(id) \(DisplayText.quoted(version.title))\n")
      case .edit(let id, _):
        let note = try select(note: id, in: session)
        let edited: String
        if let body {
          edited = body
        } else {
          edited = try EditorFile.edit(note.body, environment: environment)
        }
        guard edited != note.body else { return }
        try check(session.bodyTyped(edited))
      }
    } catch {
      // A failed save is reported as text: its cause gives the exit status.
      throw error.caused(by: library.lastSaveFailure)
    }
  }

  /// Shows every note and selects the note with `id`; returns its row.
  @discardableResult
  private static func select(note id: NoteID, in session: NotesSession) throws(CommandFailure)
    -> NoteRow
  {
    session.notebookSelected(nil)
    session.searchTyped("")
    guard let row = session.list.row(for: id), session.noteSelected(id) else {
      throw CommandFailure(.notFound, "no note with id \(id)")
    }
    return row
  }

  /// Selects the notebook titled `name`, ignoring case; returns its row.
  @discardableResult
  private static func select(notebook name: String, in session: NotesSession)
    throws(CommandFailure) -> SidebarRow
  {
    guard let notebook = session.notebooks.value.first(where: { matches($0.title, name) }) else {
      throw .noNotebook(name)
    }
    session.notebookSelected(notebook.id)
    return notebook
  }

  private static func matches(_ title: String, _ name: String) -> Bool {
    LibrarySession.titleKey(title) == LibrarySession.titleKey(name)
  }

  /// Throws for an outcome that saved nothing because it was refused or failed.
  private static func check(_ outcome: ActionOutcome) throws(CommandFailure) {
    switch outcome {
    case .committed, .unchanged: return
    case .invalid(let result):
      throw CommandFailure(.invalidData, lines: result.issues.map(\.message))
    case .rejected(let reason): throw CommandFailure(.invalidData, reason)
    case .failed, .cancelled, .superseded: throw CommandFailure(.failure, outcome.description)
    }
  }
}

/// A command that changes one notebook or note.
public enum GestureCommand: Equatable, Sendable {
  /// `notebook add NAME`: a new notebook; prints its id.
  case addNotebook(String)
  /// `notebook rename NAME TITLE`.
  case renameNotebook(String, to: String)
  /// `notebook delete NAME [--yes]`: `--yes` also deletes its notes.
  case deleteNotebook(String, confirmed: Bool)
  /// `rename ID TITLE`.
  case rename(NoteID, to: String)
  /// `move ID NOTEBOOK`.
  case move(NoteID, to: String)
  /// `pin ID` (`true`) and `unpin ID` (`false`).
  case pin(NoteID, Bool)
  /// `delete ID`: into Recently Deleted.
  case delete(NoteID)
  /// `restore ID`: out of Recently Deleted, back where it was.
  case restore(NoteID)
  /// `trash empty [--yes]`: every note in Recently Deleted, for good; only with `--yes`.
  case emptyTrash(confirmed: Bool)
  /// `trash keep [DAYS]`: how many days Recently Deleted keeps notes; with DAYS, sets it.
  case keepDeletedNotes(days: Int?)
  /// `history ID --restore VERSION`: a kept version becomes the note's text again.
  case restoreVersion(NoteID, version: Int64)
  /// `edit ID [--body -]`: in `$VISUAL`/`$EDITOR`, or from standard input (`true`).
  case edit(NoteID, fromStandardInput: Bool)
}

/// A sync service that never syncs, for sessions over a model of their own (the fuzz
/// targets).
struct NoSyncService: SyncService {
  func sync(progress: @escaping @Sendable (Double) async -> Void) async throws -> Date {
    throw CancellationError()
  }
}
