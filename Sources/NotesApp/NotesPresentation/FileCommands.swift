import Airframe
import Foundation
import NotesCore
import NotesFiles

/// Importing and exporting files: the session's two commands whose work is asynchronous,
/// each with its declared re-entrancy policy.
///
/// ## Guarantees
///
/// - Both are `AsyncActionController`s. Reading the import and writing the export run off
///   the main actor, so a large library never freezes a presentation; only the import's
///   resulting `ImportNotes` action runs on it, through the dispatcher (validated, one
///   undo step, logged, all or nothing).
/// - **Import: `.queue`.** Importing while an import runs imports both, one after the
///   other, in the order asked: each is the user's own request for different files, and
///   running them in order keeps the ids they assign in that order.
/// - **Export: `.rejectWhileRunning`.** Exporting while an export runs is refused and the
///   status bar says why: a second export of the same library is a repeated click, not a
///   request, and two writers into one folder could only collide. The command is disabled
///   meanwhile, with that reason, so a menu shows it.
/// - An export writes the library as it was when asked for (a copy of the model's state,
///   taken then), whatever is edited while the files are written.
/// - Every outcome reaches the status bar when its run ends: what was imported (and how
///   many files a folder's import skipped) or exported, else why nothing was — a file that
///   cannot be read, a refused note (the first reasons, then how many more), a folder
///   that is not new or empty.
/// - A run's report is tied to its own request by number, so two imports in a row each
///   report their own files.
@MainActor
final class FileCommands {
  /// Reads a file or folder, and imports it.
  let importer: AsyncActionController<NotesState, ImportRequest, ImportRead>
  /// Writes the library as Markdown into a folder.
  let exporter: AsyncActionController<NotesState, ExportRequest, ExportWritten>
  /// What each finished run found beyond its outcome, until its report.
  private let results = RunResults()
  /// The number of the latest request, which ties a run's result to its report.
  private var latestRequest = 0
  private unowned let session: NotesSession

  init(session: NotesSession) {
    self.session = session
    let now = session.now
    importer = AsyncActionController(
      dispatcher: session.dispatcher, name: "Import", policy: .queue
    ) { request in
      try ImportRead(request)
    } makeAction: { [results] read in
      results.skipped[read.number] = read.skipped
      return read.document.importAction(now: now())
    }
    exporter = AsyncActionController(
      dispatcher: session.dispatcher, name: "Export", policy: .rejectWhileRunning
    ) { request in
      ExportWritten(
        number: request.number, summary: try MarkdownExport.write(request.state, to: request.path))
    } makeAction: { [results] written in
      // Writing files changes nothing in the library: no action, outcome `.unchanged`.
      results.exported[written.number] = written.summary
      return nil
    }
  }

  /// Imports the file or folder at `path`, after any import still running.
  ///
  /// - Returns: The run, which ends once its outcome is reported.
  func importFiles(at path: String) -> Task<ActionOutcome, Never> {
    let number = nextRequest()
    let run = importer.trigger(ImportRequest(number: number, path: path))
    session.inform("Importing \(Self.shown(path))…")
    return Task { [results, weak session] in
      let outcome = await run.value
      let skipped = results.skipped.removeValue(forKey: number) ?? 0
      // A session closed and released meanwhile (the app quit during an import) has no
      // status bar to tell.
      guard let session else { return outcome }
      switch outcome {
      case .committed(_, let created):
        var text =
          "Imported \(Counts.phrase(created.ids(in: \NotesState.notes).count, "note")) from "
          + Self.shown(path)
        if skipped > 0 {
          text +=
            skipped == 1
            ? "; skipped 1 item that is not a note"
            : "; skipped \(Counts.grouped(skipped)) items that are not notes"
        }
        session.inform(text)
      case .unchanged:
        session.inform("\(Self.shown(path)) has no notes to import.")
      case .failed(let reason):
        session.report(.failed("Import failed: \(reason)"))
      default:
        session.report(outcome)
      }
      return outcome
    }
  }

  /// Exports the library as it is now into the folder `path`, unless an export is running.
  ///
  /// - Returns: The run, which ends once its outcome is reported.
  func exportFiles(to path: String) -> Task<ActionOutcome, Never> {
    let number = nextRequest()
    let starts = !exporter.isExecuting.value
    let run = exporter.trigger(
      ExportRequest(number: number, state: session.model.state, path: path))
    if starts { session.inform("Exporting to \(Self.shown(path))…") }
    return Task { [results, weak session] in
      let outcome = await run.value
      guard let session else { return outcome }
      switch outcome {
      case .unchanged:
        guard let written = results.exported.removeValue(forKey: number) else { break }
        var text =
          "Exported \(Counts.phrase(written.notes, "note")) in "
          + "\(Counts.phrase(written.notebooks, "notebook")) to \(Self.shown(path))"
        if written.notesWithoutNotebook > 0 {
          text += " (\(written.notesWithoutNotebook) without a notebook left out)"
        }
        session.inform(text)
      case .rejected:
        // The only refusal: the policy's, while another export runs.
        session.report(.rejected("An export is running; this one was not started."))
      default:
        session.report(outcome)
      }
      return outcome
    }
  }

  /// Stops both; a run in flight commits nothing.
  func cancel() {
    importer.invalidate()
    exporter.invalidate()
  }

  private func nextRequest() -> Int {
    latestRequest += 1
    return latestRequest
  }

  private static func shown(_ path: String) -> String { DisplayText.quoted(path, limit: .max) }
}

/// What finished runs found beyond their outcomes, kept from the moment their results
/// reach the main actor until their reports read them.
@MainActor
private final class RunResults {
  /// How many files and folders each import did not read, by request.
  var skipped: [Int: Int] = [:]
  /// What each export wrote, by request.
  var exported: [Int: ExportSummary] = [:]
}

/// What an import is asked to read.
struct ImportRequest: Sendable {
  /// The number that ties the run to its report.
  var number: Int
  /// The file or folder, as the user gave it.
  var path: String
}

/// What an import read.
struct ImportRead: Sendable {
  /// The number of its request.
  var number: Int
  /// The notebooks and notes.
  var document: LibraryDocument
  /// How many files and folders a Markdown import did not read.
  var skipped: Int

  /// Reads the file or folder `request` names.
  init(_ request: ImportRequest) throws(FileFailure) {
    number = request.number
    let read = try LibraryDocument.read(contentsOf: request.path)
    document = read.document
    skipped = read.skipped.count
  }
}

/// What an export is asked to write.
struct ExportRequest: Sendable {
  /// The number that ties the run to its report.
  var number: Int
  /// The library as it was when the export was asked for.
  var state: NotesState
  /// The folder, as the user gave it.
  var path: String
}

/// What an export wrote.
struct ExportWritten: Sendable {
  /// The number of its request.
  var number: Int
  /// How many notes and notebooks.
  var summary: ExportSummary
}
