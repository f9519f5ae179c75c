// Figure 17: the library as plain files and back — `notes export --markdown DIR`, then
// `notes import DIR` into a new library, run in-process through `NotesCommandLine.execute`
// exactly as the program runs them, on the 100,000-note library of figures 7–9.
//
// Every run checks the round trip before its times count: the imported library holds the
// same notebooks (title, date) and the same notes (notebook, title, body, both dates,
// pin) as the original, compared exactly. The README's command-line section has the same
// round trip timed as whole processes with `farm-bench`.

import Airframe
import Foundation
import NotesCommandLine
import NotesCore
import NotesStorage

/// Figure 17: a Markdown export and its import, per run.
@MainActor
func markdownRoundTripFigure(number: Int, fixture: NotesFixture, scale: Scale) throws -> Figure {
  let original = try LibraryContent(path: fixture.path)
  // Each run writes 100,000 files and reads them back; three timed runs
  // after a warm-up are enough for a median of whole-library work.
  let runs = min(scale.repetitions, 3)
  var exports: [Double] = []
  var imports: [Double] = []
  // The exported trees are removed only after the last run: on ext4, creating 100,000 files
  // right after unlinking 100,000 others spends seconds of kernel time in each `openat`
  // (an export then takes several times as long), which would time the file system's clean-up,
  // not the export.
  var written: [String] = []
  defer {
    for path in written { try? FileManager.default.removeItem(atPath: path) }
  }
  for run in 0...runs {
    let folder = fixture.folder.file("markdown-\(run)")
    let library = fixture.folder.file("imported-\(run).sqlite")
    written += [folder, library, library + "-wal", library + "-shm"]
    let exported = try timedCommand(
      .library(.exportMarkdown(folder: folder), databasePath: fixture.path))
    let imported = try timedCommand(.library(.importLibrary(path: folder), databasePath: library))
    let copy = try LibraryContent(path: library)
    guard copy.notes.count == fixture.library.notes.count, copy == original else {
      throw BenchmarkCheck(
        "the Markdown round trip changed the library: \(copy.difference(from: original))")
    }
    if run > 0 {
      exports.append(exported)
      imports.append(imported)
    }
  }

  let notes = fixture.library.notes.count
  var figure = Figure(
    number: number,
    title: "notes files: \(grouped(notes)) notes to Markdown files and back, in-process"
      + " (s per command)",
    kind: .scaledTime(unit: "s/command", nanosecondsPerUnit: 1e9))
  func row(_ subject: String, _ samples: [Double]) -> Row {
    let stats = Stats(samples: samples)
    return Row(
      benchmark: "notes-files", subject: subject, operations: 1,
      repetitions: stats.samples.count, time: stats,
      extras: [
        ("notes", .int(notes)), ("seconds", .double(stats.median / 1e9)),
        ("ns_per_note", .double(stats.median / Double(notes))),
      ],
      comment: "\(formatted(stats.median / Double(notes) / 1e3, digits: 1)) µs per note")
  }
  figure.rows.append(row("notes export --markdown DIR", exports))
  figure.rows.append(row("notes import DIR (a new library)", imports))
  figure.notes.append(
    "every run's imported library was compared with the original and was equal: notebooks"
      + " (title, date), notes (notebook, title, body, both dates, pin)")
  return figure
}

/// Runs one command in-process and returns how long it took, in nanoseconds.
///
/// - Parameter command: The command.
/// - Returns: Its wall time.
/// - Throws: ``BenchmarkCheck`` when it does not exit with status 0.
@MainActor
private func timedCommand(_ command: NotesCommand) throws -> Double {
  let errors = OutputBuffer()
  let io = CommandIO(
    readInput: { Data() }, write: { _ in }, writeError: { errors.append($0) })
  var status: Int32 = 0
  let time = timeNanoseconds { status = NotesCommandLine.execute(command, io: io) }
  guard status == 0 else {
    throw BenchmarkCheck("\(command) failed (\(status)): \(errors.text.prefix(300))")
  }
  return time
}

/// What a library holds, without its ids: the part a round trip through files keeps.
private struct LibraryContent: Equatable {
  struct NotebookEntry: Hashable, Comparable {
    var title: String
    var created: Double
    static func < (a: Self, b: Self) -> Bool { (a.title, a.created) < (b.title, b.created) }
  }
  struct NoteEntry: Hashable, Comparable {
    var notebook: String
    var title: String
    var body: String
    var created: Double
    var modified: Double
    var isPinned: Bool
    static func < (a: Self, b: Self) -> Bool {
      (a.notebook, a.title, a.created, a.body) < (b.notebook, b.title, b.created, b.body)
    }
  }

  var notebooks: [NotebookEntry]
  var notes: [NoteEntry]

  @MainActor init(path: String) throws {
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    let state = try database.loadState()
    var titles: [NotebookID: String] = [:]
    for notebook in state.notebooks.elements { titles[notebook.id] = notebook.title }
    notebooks = state.notebooks.elements.map {
      NotebookEntry(title: $0.title, created: $0.created.timeIntervalSinceReferenceDate)
    }.sorted()
    notes = state.notes.elements.map {
      NoteEntry(
        notebook: titles[$0.notebookID] ?? "", title: $0.title, body: $0.body,
        created: $0.created.timeIntervalSinceReferenceDate,
        modified: $0.modified.timeIntervalSinceReferenceDate, isPinned: $0.isPinned)
    }.sorted()
  }

  /// The first thing that differs, for the check's message.
  func difference(from other: LibraryContent) -> String {
    if notebooks != other.notebooks {
      return "notebooks \(notebooks.count) against \(other.notebooks.count), first differing:"
        + " \(zip(notebooks, other.notebooks).first { $0 != $1 }.map { "\($0)" } ?? "-")"
    }
    if notes.count != other.notes.count {
      return "\(notes.count) notes against \(other.notes.count)"
    }
    let differing = zip(notes, other.notes).first { $0 != $1 }
    return "first differing note: \(differing.map { "\($0.0.title) / \($0.1.title)" } ?? "-")"
  }
}
