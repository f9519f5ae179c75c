// Figure 8, notes-edits: one edit through the funnel against the same statements raw.
//
// Single-note edits, each its own commit through the funnel:
// `ActionDispatcher.dispatch(EditNoteBody)` on a `Model` whose storage is a
// `NotesDatabase`. Beside it, the same statements issued through raw sqlite3 calls on a
// connection with the same pragmas: BEGIN IMMEDIATE, the same note-history statements (a
// version kept when the title or text changed: the newest version read, the text before
// the first change kept, the new text inserted or, within a minute, written over the
// newest), the same UPDATE of every column
// (on a copy of the same file, so the same full-text triggers fire: they record the
// note's old title and body for the next index update instead of re-tokenizing it), a
// changed-row check, COMMIT. The index update itself happens at
// the next search, on neither side here (notes-search measures a search after edits).
// Pin toggles (`SetNotePinned`; the triggers' WHEN clause records nothing) both ways as
// well. Every subject edits its own copy of the library file, the same notes in the
// same order.

import Airframe
import AirframeBinding
import AirframeTesting
import CSQLite
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesStorage

/// Figure 8: single-note edits, each its own commit, against raw sqlite3 calls.
@MainActor
func notesEditsFigure(number: Int, fixture: NotesFixture, scale: Scale, sink: Sink) throws
  -> Figure
{
  let edits = scale.notesEdits
  let noteIDs = fixture.library.notes.map(\.id)
  let failures = FailureLog()
  var notCommitted = 0
  /// The body of the `step`th edit of run `run`: different from every earlier body.
  func editedBody(run: Int, step: Int) -> String {
    "edited \(run)-\(step) " + fixture.library.notes[step % noteIDs.count].title
  }

  /// An edit subject through the funnel: its own copy of the file, model and dispatcher.
  func funnelSubject(
    _ name: String, file: String,
    action: @escaping @MainActor (Note, _ run: Int, _ step: Int) -> any Action<NotesState>
  ) throws -> (Subject, NotesDatabase) {
    let database = try NotesDatabase(path: try fixture.folder.copy(fixture.path, to: file))
    let dispatcher = ActionDispatcher(model: Model(try database.loadState(), storage: database))
    var random = SeededRandomNumberGenerator(seed: 11)
    var run = 0
    let subject = Subject(name: name, operations: edits) {
      run += 1
      for step in 0..<edits {
        let id = noteIDs[Int.random(in: 0..<noteIDs.count, using: &random)]
        guard let note = dispatcher.model.state.notes[id] else { continue }
        let outcome = dispatcher.dispatch(action(note, run, step))
        if !outcome.isCommitted { notCommitted += 1 }
      }
      sink.total &+= dispatcher.model.revision
    }
    return (subject, database)
  }

  /// The same commits through raw sqlite3 calls; the notes kept in a plain dictionary.
  func rawSubject(
    _ name: String, file: String, edit: @escaping (inout Note, _ run: Int, _ step: Int) -> Void
  ) throws -> (Subject, RawNotesConnection) {
    let connection = try RawNotesConnection(path: try fixture.folder.copy(fixture.path, to: file))
    var notes = Dictionary(uniqueKeysWithValues: fixture.library.notes.map { ($0.id, $0) })
    var random = SeededRandomNumberGenerator(seed: 11)
    var run = 0
    let subject = Subject(name: name, operations: edits) {
      run += 1
      for step in 0..<edits {
        let id = noteIDs[Int.random(in: 0..<noteIDs.count, using: &random)]
        guard var note = notes[id] else { continue }
        edit(&note, run, step)
        failures.attempt { try connection.write(note) }
        notes[id] = note
      }
      sink.total &+= run
    }
    return (subject, connection)
  }

  let (body, bodyDatabase) = try funnelSubject(
    "EditNoteBody via dispatcher + NotesDatabase", file: "edit-body.sqlite"
  ) { note, run, step in
    EditNoteBody(id: note.id, body: editedBody(run: run, step: step), now: Date())
  }
  let (rawBody, rawBodyConnection) = try rawSubject(
    "same UPDATE via raw sqlite3", file: "raw-body.sqlite"
  ) { note, run, step in
    note.body = editedBody(run: run, step: step)
    note.modified = Date()
  }
  let (pin, pinDatabase) = try funnelSubject(
    "SetNotePinned via dispatcher (no index)", file: "pin.sqlite"
  ) { note, _, _ in
    SetNotePinned(id: note.id, isPinned: !note.isPinned)
  }
  let (rawPin, rawPinConnection) = try rawSubject(
    "pin toggle via raw sqlite3 (no index)", file: "raw-pin.sqlite"
  ) { note, _, _ in
    note.isPinned.toggle()
  }
  let measured = measureInterleaved(
    [body, rawBody, pin, rawPin], repetitions: scale.repetitions,
    budgetSeconds: scale.budgetSeconds)
  bodyDatabase.close()
  pinDatabase.close()
  withExtendedLifetime((rawBodyConnection, rawPinConnection)) {}
  try failures.check()

  // The target is the ratio to the same statements through raw sqlite3: a rate would judge
  // the disk and SQLite's own commit as much as the funnel.
  let targetRatio = 1.35
  let stats = measured.stats
  let bodyRatio = stats[0].median / stats[1].median
  let pinRatio = stats[2].median / stats[3].median
  var figure = Figure(
    number: number,
    title: "notes edits: \(grouped(edits)) single-note edits per run on \(grouped(noteIDs.count))"
      + " notes, each its own commit (ns per commit)",
    kind: .time(unit: "ns/commit"))
  for (index, subject) in [body, rawBody, pin, rawPin].enumerated() {
    let rate = 1e9 / stats[index].median
    var extras: [(key: String, value: JSONValue)] = [
      ("commits_per_second", .double(rate)), ("notes", .int(noteIDs.count)),
    ]
    var comment = "\(grouped(Int(rate.rounded()))) commits/s"
    var ratio: Double?
    switch index {
    case 0:
      ratio = bodyRatio
      extras += [
        ("target_ratio_to_baseline", .double(targetRatio)),
        ("target_met", .bool(bodyRatio <= targetRatio)),
      ]
      comment += ", \(ratioText(bodyRatio)) raw"
    case 2:
      ratio = pinRatio
      comment += ", \(ratioText(pinRatio)) raw"
    default:
      break
    }
    figure.rows.append(
      Row(
        benchmark: "notes-edits", subject: subject.name, operations: edits,
        repetitions: measured.repetitions, time: stats[index], ratioToBaseline: ratio,
        extras: extras, comment: comment))
  }
  figure.notes.append(
    "target: within \(formatted(targetRatio, digits: 2))× raw sqlite3: "
      + (bodyRatio <= targetRatio ? "met" : "MISSED") + " (\(ratioText(bodyRatio)))")
  figure.notes.append(
    "each subject edits its own copy of the file; synchronous = NORMAL, WAL, both ways")
  if let note = measured.note { figure.notes.append(note) }
  if notCommitted > 0 {
    figure.notes.append("WARNING: \(notCommitted) dispatched edit(s) did not commit")
  }
  sink.count += edits * 4 * (measured.repetitions + 1)
  return figure
}
