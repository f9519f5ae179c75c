import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesFiles
import NotesTestSupport
import Testing

@_spi(Instrumentation) @testable import NotesPresentation

/// Importing and exporting from a session: their re-entrancy policies, what reaches the
/// model and what the status bar says.
@Suite(.noLiveBindings)
@MainActor
struct FileCommandTests {
  /// Writes a JSON export of one notebook titled `notebook` with `count` notes into `path`.
  func writeExport(notebook: String, notes count: Int, to path: String) throws {
    var document = LibraryDocument(NotesState())
    document.notebooks = [LibraryDocument.NotebookEntry(id: 1, title: notebook, created: fixedDate)]
    document.notes = (0..<count).map { index in
      LibraryDocument.NoteEntry(
        id: nil, notebookID: 1, title: "\(notebook) \(index)", body: "text \(index)",
        created: fixedDate, modified: fixedDate, pinned: false)
    }
    let text = try JSONCoding.text(document)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  @Test func anImportAskedForWhileOneRunsRunsAfterItInTheOrderAsked() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    // The first import is much larger, so were both read at once, the second would
    // finish reading first and commit first.
    try writeExport(notebook: "Large", notes: 3_000, to: folder.file("large.json"))
    try writeExport(notebook: "Small", notes: 1, to: folder.file("small.json"))
    let session = makeSession(state: NotesState())
    #expect(session.files.importer.policy == .queue)

    let first = session.importRequested(from: folder.file("large.json"))
    let second = session.importRequested(from: folder.file("small.json"))
    // Asked for during the first run, the second is neither refused nor disabled.
    #expect(session.availability(of: .importNotes).value.isEnabled)
    let firstOutcome = await first.value
    let secondOutcome = await second.value

    guard case .committed(let firstRevision, _) = firstOutcome,
      case .committed(let secondRevision, _) = secondOutcome
    else {
      Issue.record("both imports commit: \(firstOutcome), \(secondOutcome)")
      return session.close()
    }
    #expect(firstRevision < secondRevision)
    let notes = session.model.state.notes.elements
    let largest = notes.filter { $0.title.hasPrefix("Large") }.map(\.id).max()
    let small = notes.first { $0.title == "Small 0" }?.id
    #expect(notes.count == 3_001)
    #expect(largest != nil && small != nil && largest! < small!)
    #expect(session.status.value.message == "Imported 1 note from \"\(folder.file("small.json"))\"")
    // Each import is one step of its own, undone last first.
    #expect(session.dispatcher.log.entries.map(\.name) == ["Import", "Import"])
    session.undoRequested()
    #expect(session.model.state.notes.count == 3_000)
    session.close()
  }

  @Test func anExportAskedForWhileOneRunsIsRefusedAndWritesNothing() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let session = makeSession()
    let notes = session.model.state.notes.count
    let notebooks = session.model.state.notebooks.count
    #expect(session.files.exporter.policy == .rejectWhileRunning)

    let first = session.exportRequested(to: folder.file("first"))
    #expect(session.availability(of: .exportNotes).value.reason == "Already running.")
    #expect(session.status.value.message == "Exporting to \"\(folder.file("first"))\"…")
    let second = session.exportRequested(to: folder.file("second"))
    #expect(await second.value == .rejected("Already running."))
    #expect(
      session.status.value.message == "An export is running; this one was not started.")
    #expect(await first.value == .unchanged)
    #expect(
      session.status.value.message
        == "Exported \(notes) notes in \(notebooks) notebooks to \"\(folder.file("first"))\"")
    #expect(FileManager.default.fileExists(atPath: folder.file("first")))
    #expect(!FileManager.default.fileExists(atPath: folder.file("second")))
    // The refusal is in the log; the export itself changed nothing in the library.
    #expect(session.dispatcher.log.entries.map(\.outcome) == [.rejected("Already running.")])
    #expect(session.model.revision == 0)

    // Once the first has finished, exporting is available again.
    #expect(session.availability(of: .exportNotes).value.isEnabled)
    #expect(await session.exportRequested(to: folder.file("second")).value == .unchanged)
    #expect(FileManager.default.fileExists(atPath: folder.file("second")))
    session.close()
  }

  @Test func anExportWritesTheLibraryAsItWasWhenAskedFor() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let session = makeSession()
    let before = session.model.state
    let run = session.exportRequested(to: folder.file("export"))
    // An edit while the files are written is not in them.
    #expect(session.noteRenamed(to: "Renamed meanwhile").isCommitted)
    #expect(await run.value == .unchanged)
    let read = try LibraryDocument.read(contentsOf: folder.file("export")).document
    #expect(Set(read.notes.map(\.title)) == Set(before.notes.elements.map(\.title)))
    session.close()
  }

  @Test func closingAndReleasingTheSessionDuringAnImportCommitsNothingAndReportsNothing()
    async throws
  {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try writeExport(notebook: "Large", notes: 3_000, to: folder.file("large.json"))
    var session: NotesSession? = makeSession(state: NotesState())
    let model = session!.model
    let run = session!.importRequested(from: folder.file("large.json"))
    // The app quits while the file is read: the session closes and goes away.
    session?.close()
    session = nil
    #expect(await run.value == .cancelled)
    #expect(model.state.notes.count == 0)
  }

  @Test func aFailedImportSaysWhyAndChangesNothing() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try Data("not json".utf8).write(to: URL(fileURLWithPath: folder.file("bad.json")))
    let session = makeSession()
    let before = session.model.state
    let outcome = await session.importRequested(from: folder.file("bad.json")).value
    guard case .failed = outcome else {
      Issue.record("a file that is not JSON fails: \(outcome)")
      return session.close()
    }
    #expect(session.model.state == before)
    let message = session.status.value.message ?? ""
    #expect(message.hasPrefix("Import failed: \"\(folder.file("bad.json"))\""))
    #expect(message.contains("JSON"))

    let missing = await session.importRequested(from: folder.file("missing")).value
    #expect(missing == .failed("no such file: \"\(folder.file("missing"))\""))
    #expect(session.model.state == before)
    session.close()
  }

  @Test func aMarkdownFolderImportSaysWhatItSkipped() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let notes = folder.file("notes")
    try FileManager.default.createDirectory(atPath: notes, withIntermediateDirectories: true)
    try Data("# Groceries\n- milk\n".utf8).write(to: URL(fileURLWithPath: notes + "/a.md"))
    try Data([0x89, 0x50]).write(to: URL(fileURLWithPath: notes + "/photo.png"))
    let session = makeSession(state: NotesState())
    let outcome = await session.importRequested(from: notes).value
    #expect(outcome.isCommitted)
    #expect(session.model.state.notes.elements.map(\.title) == ["Groceries"])
    #expect(
      session.status.value.message
        == "Imported 1 note from \"\(notes)\"; skipped 1 item that is not a note")
    session.close()
  }
}
