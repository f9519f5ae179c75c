// Figure 12: the terminal app and the script commands as people use them, on the figures'
// library of 100,000 notes, through the real code paths:
// - first screen: open the SQLite file, load the library, build `TerminalApplication`, render
//   every pane to a 120 × 40 buffer (what `notes` does before its first draw; closing is
//   not timed);
// - search key: one character typed in the search prompt → the list filtered → every pane
//   rendered (each key of a 3- to 5-letter word, and backspaces, timed one by one; each run
//   types a different word, so the first keys never reuse rows kept from an earlier run,
//   and the target must hold for every key);
// - sort toggle: `o` → the list re-sorted → rendered; and the same on the library in memory
//   with every note modified at one moment (notes imported together), where only the ids
//   order the notes by date;
// - paste: a 5,000-character bracketed paste into the editor, as the terminal's bytes →
//   `InputDecoder` → one batch → one edit and one save to SQLite → rendered;
// - `notes search` and `notes show` run in-process (`NotesCommandLine.execute`), from
//   opening the database to the printed text.
// Every sample checks what it did (the list's count, the saved body, the printed text), so
// a figure never times a shortcut.

import Airframe
import Foundation
import NotesCommandLine
@_spi(Instrumentation) import NotesCore
import NotesFixtures
import NotesPresentation
import NotesStorage
import NotesTerminalUI

/// Figure 12, with a target for each subject.
@MainActor
func terminalAppFigure(number: Int, fixture: NotesFixture, scale: Scale, sink: Sink) throws
  -> Figure
{
  let notes = fixture.library.notes.count
  var figure = Figure(
    number: number,
    title: "terminal app and commands at \(grouped(notes)) notes, real code paths,"
      + " rendered to 120 × 40 (ms per operation)",
    kind: .scaledTime(unit: "ms/op", nanosecondsPerUnit: 1e6))
  let runs = max(3, scale.repetitions)
  let copy = try fixture.folder.copy(fixture.path, to: "terminal-app.sqlite")

  // The last field says whether the target holds for every sample (each key of a search
  // must keep up) or for the median.
  var subjects: [(String, String, [Double], Double, Bool)] = []
  subjects.append(
    (
      "first-screen", "first screen: open + load + app + render", try firstScreen(copy, runs),
      0.5e9, false
    ))
  let (database, app) = try openApp(copy)
  defer {
    app.shutdown()
    database.close()
  }
  // The search signatures of the loaded notes are written on another core once the app is
  // built; the first search waits for them if they are not done.
  let searchable = timeNanoseconds { app.session.waitUntilSearchable() }
  figure.notes.append(
    "search signatures of the loaded notes written on another core, ready "
      + "\(formatted(searchable / 1e6, digits: 0)) ms after the app was built")
  subjects.append(("search-key", "search, per key typed", try searchKeys(app, runs), 16e6, true))
  subjects.append(("sort-toggle", "sort toggle (o)", try sortToggles(app, runs), 50e6, false))
  let oneDate = oneDateApp(fixture)
  subjects.append(
    (
      "sort-toggle-one-date", "sort toggle, every note modified at one moment",
      try sortToggles(oneDate, runs), 50e6, false
    ))
  oneDate.shutdown()
  subjects.append(
    ("paste-5000", "paste 5,000 characters into the editor", try pastes(app, runs), 16e6, false))
  let id = fixture.library.notes[notes / 2].id
  let word = fixture.library.vocabulary[17]
  subjects.append(
    (
      "notes-search", "notes search (one word)", try command(.search(word), copy, runs), 50e6,
      false
    ))
  subjects.append(
    ("notes-show", "notes show", try command(.show(id), copy, runs), 50e6, false))

  for (benchmark, subject, samples, target, everySample) in subjects {
    let stats = Stats(samples: samples)
    let worst = samples.max() ?? .nan
    let judged = everySample ? worst : stats.median
    let isMet = judged <= target
    figure.rows.append(
      Row(
        benchmark: benchmark, subject: subject, operations: 1, repetitions: samples.count,
        time: stats,
        extras: [
          ("notes", .int(notes)), ("max_ns_per_op", .double(worst)),
          ("target_ns_per_op", .double(target)), ("target_met", .bool(isMet)),
        ],
        comment: "max \(formatted(worst / 1e6, digits: 1)) ms"))
    figure.notes.append(
      "\(subject): target ≤ \(formatted(target / 1e6, digits: 0)) ms"
        + (everySample ? " for every sample: " : ": ") + (isMet ? "met" : "MISSED")
        + " (median \(formatted(stats.median / 1e6, digits: 2)) ms"
        + (everySample ? ", max \(formatted(worst / 1e6, digits: 1)) ms)" : ")"))
    sink.count += samples.count
  }
  return figure
}

/// An app over the library at `path`, as `notes` opens it.
@MainActor
private func openApp(_ path: String) throws -> (NotesDatabase, TerminalApplication) {
  let database = try NotesDatabase(path: path)
  let model = Model(try database.loadState(), storage: database)
  let app = TerminalApplication(
    model: model, syncService: SimulatedSyncService(stepDelay: .zero), now: { Date() })
  return (database, app)
}

/// An app over the figures' library in memory, with every note modified at the same
/// moment, as notes imported together are: the date decides no pair of notes.
@MainActor
private func oneDateApp(_ fixture: NotesFixture) -> TerminalApplication {
  var state = fixture.library.state
  let moment = Date(timeIntervalSince1970: GeneratedLibrary.epoch)
  state.notes = EntityTable(
    state.notes.elements.map { note in
      var note = note
      note.modified = moment
      return note
    })
  return TerminalApplication(
    model: Model(state), syncService: SimulatedSyncService(stepDelay: .zero), now: { Date() })
}

/// Nanoseconds from opening the file to the first rendered screen, per run.
@MainActor
private func firstScreen(_ path: String, _ runs: Int) throws -> [Double] {
  var samples: [Double] = []
  var failure: (any Error)?
  for run in 0...runs {
    var rows = 0
    var opened: (NotesDatabase, TerminalApplication)?
    let time = timeNanoseconds {
      do {
        let (database, app) = try openApp(path)
        rows = app.render(width: 120, height: 40).lines.count
        opened = (database, app)
      } catch { failure = error }
    }
    // Closing is not part of the first screen; the search signatures the app writes on
    // another core are waited for, so they do not overlap the next run.
    if let (database, app) = opened {
      app.session.waitUntilSearchable()
      app.shutdown()
      database.close()
    }
    if let failure { throw failure }
    guard rows == 40 else { throw BenchmarkCheck("the first screen has \(rows) rows") }
    if run > 0 { samples.append(time) }
  }
  return samples
}

/// Nanoseconds per search key: typing a word letter by letter, then deleting it.
@MainActor
private func searchKeys(_ app: TerminalApplication, _ runs: Int) throws -> [Double] {
  var samples: [Double] = []
  let all = app.session.list.count
  for run in 0...runs {
    app.handle(.character("/"))
    let words = ["tion", "ab", "mar", "kel", "zo", "qu", "pl", "fr", "wi", "sh", "gr", "dy"]
    let word = words[run % words.count] + "e"
    var keys = word.map { Key.character($0) }
    keys += Array(repeating: .backspace, count: word.count)
    for key in keys {
      let time = timeNanoseconds {
        app.handle(key)
        _ = app.render(width: 120, height: 40)
      }
      if run > 0 { samples.append(time) }
    }
    guard app.session.list.count == all else {
      throw BenchmarkCheck("the search did not list every note again")
    }
    app.handle(.escape)
  }
  return samples
}

/// Nanoseconds per sort toggle, rendered.
@MainActor
private func sortToggles(_ app: TerminalApplication, _ runs: Int) throws -> [Double] {
  var samples: [Double] = []
  for run in 0...(runs * 2) {
    let before = app.session.sort
    let time = timeNanoseconds {
      app.handle(.character("o"))
      _ = app.render(width: 120, height: 40)
    }
    guard app.session.sort != before else { throw BenchmarkCheck("o did not toggle the sort") }
    if run > 0 { samples.append(time) }
  }
  return samples
}

/// Nanoseconds per 5,000-character paste into the editor: bytes in → saved and drawn.
@MainActor
private func pastes(_ app: TerminalApplication, _ runs: Int) throws -> [Double] {
  app.handle(.enter)  // the selected note opens in the editor
  guard app.focus == .editor, let id = app.session.selectedNote.value else {
    throw BenchmarkCheck("no note opened in the editor")
  }
  let line = String(repeating: "pasted text ", count: 8) + "\n"  // 97 characters
  let text = String(repeating: line, count: 51).prefix(5_000)
  let bytes = Array(("\u{1B}[200~" + text + "\u{1B}[201~").utf8)
  var samples: [Double] = []
  for run in 0...runs {
    let before = app.session.list.row(for: id)?.body ?? ""
    var decoder = InputDecoder()
    let time = timeNanoseconds {
      decoder.feed(bytes: bytes)
      app.handle(decoder.finishRead())
      _ = app.render(width: 120, height: 40)
    }
    guard app.session.list.row(for: id)?.body == before + text else {
      throw BenchmarkCheck("the paste was not saved exactly")
    }
    if run > 0 { samples.append(time) }
  }
  app.handle(.escape)
  return samples
}

/// Nanoseconds per run of a script command, from opening the library to its output.
@MainActor
private func command(_ command: Reading, _ path: String, _ runs: Int) throws
  -> [Double]
{
  let output = OutputBuffer()
  let io = CommandIO(
    readInput: { Data() }, write: { output.append($0) }, writeError: { output.append($0) })
  var samples: [Double] = []
  for run in 0...runs {
    output.clear()
    var status: Int32 = 0
    let time = timeNanoseconds {
      status = NotesCommandLine.execute(command.command(database: path), io: io)
    }
    guard status == 0, !output.text.isEmpty else {
      throw BenchmarkCheck("the command failed (\(status)): \(output.text.prefix(200))")
    }
    if run > 0 { samples.append(time) }
  }
  return samples
}

/// The read commands figure 12 times.
private enum Reading {
  case search(String)
  case show(NoteID)

  func command(database: String) -> NotesCommand {
    switch self {
    case .search(let query): .library(.search(query: query, json: false), databasePath: database)
    case .show(let id): .library(.show(id, json: false), databasePath: database)
    }
  }
}

/// What a command printed, collected from its output closures.
final class OutputBuffer: @unchecked Sendable {
  private let lock = NSLock()
  private var buffer = ""

  var text: String { lock.withLock { buffer } }
  func append(_ text: String) { lock.withLock { buffer += text } }
  func clear() { lock.withLock { buffer = "" } }
}

/// A benchmark that did not do what it measures.
struct BenchmarkCheck: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
