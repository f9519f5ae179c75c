// Figure 10, notes-views: one commit delivered to all six View State Controllers.
//
// A `Model<NotesState>` in memory (no storage) with all six View State
// Controllers observing: sidebar, note list (all notes, pinned first then newest),
// window title showing the note being edited, status bar, editor open on a note that is
// never edited, and a command menu with two `ActionController` availabilities. Each
// operation is one dispatched `EditNoteBody` (even steps) or `RenameNote` (odd steps) of
// a random note, timed from before `dispatch` to its return; delivery is synchronous, so
// every controller has rendered the commit by then, and the figure checks it after
// every write. Beside it, the same dispatches to a model nobody observes. Then a note
// deleted and restored, with Recently Deleted observing too
// (NotesViewsFigure+RecentlyDeleted.swift).

import Airframe
import AirframeBinding
import AirframeTesting
import CSQLite
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesStorage

/// Figure 10: one edit reaching all six View State Controllers of the Notes app.
@MainActor
func notesViewsFigure(number: Int, scale: Scale, sink: Sink) -> Figure {
  let library = GeneratedLibrary(noteCount: scale.notesCount)
  let writes = scale.notesViewWrites
  let warmUp = max(20, writes / 10)
  let noteIDs = library.notes.map(\.id)
  let shownInEditor = noteIDs[0]

  let model = Model(library.state)
  let dispatcher = ActionDispatcher(model: model)
  // Commit observers registered between the controllers (delivery is in registration
  // order) time each controller's share of the delivery.
  let stamps = DeliveryStamps(model: model)
  stamps.mark()
  let sidebar = SidebarController(model: model)
  stamps.mark()
  let noteList = NoteListController(model: model)
  stamps.mark()
  let windowTitle = WindowTitleController(model: model)
  stamps.mark()
  let statusBar = StatusBarController(model: model)
  stamps.mark()
  let editor = EditorController(dispatcher: dispatcher)
  editor.open(shownInEditor)
  stamps.mark()
  var selected = noteIDs[1]
  // As in the Notes app: the title is typed after the command starts, so availability is
  // the requirement alone (the action validates the title when triggered).
  let newNote = ActionController<NotesState, String>(
    dispatcher: dispatcher,
    requires: { $0.notebooks.count > 0 ? .met(()) : .unmet("Create a notebook first.") },
    makeAction: { _, title in
      CreateNote(notebookID: NotebookID(rawValue: 1), title: title, now: Date())
    })
  // Availability: DeleteNote's own validation of the selected note.
  let deleteNote = ActionController<NotesState, Void>(dispatcher: dispatcher) {
    DeleteNote(id: selected)
  }
  let commandMenu = CommandMenuController()
  commandMenu.add("New Note", shortcut: "⌘N", availability: newNote.availability)
  commandMenu.add("Delete Note", shortcut: "⌘⌫", availability: deleteNote.availability)
  stamps.mark()
  let controllerNames = [
    "sidebar", "note list", "window title", "status bar", "editor", "command menu",
  ]
  var shares = Array(repeating: [Double](), count: controllerNames.count)

  let bareModel = Model(library.state)
  let bareDispatcher = ActionDispatcher(model: bareModel)

  /// The `step`th write: a body edit on even steps, a rename on odd ones.
  func action(_ id: NoteID, step: Int) -> any Action<NotesState> {
    step.isMultiple(of: 2)
      ? EditNoteBody(id: id, body: "body \(step) " + library.vocabulary[step % 5_000], now: Date())
      : RenameNote(id: id, title: "title \(step) " + library.vocabulary[step % 5_000], now: Date())
  }

  var random = SeededRandomNumberGenerator(seed: 31)
  var samples: [Double] = []
  var bareSamples: [Double] = []
  var stale = 0
  var notCommitted = 0
  samples.reserveCapacity(writes)
  bareSamples.reserveCapacity(writes)
  for step in 0..<(warmUp + writes) {
    let id = noteIDs[Int.random(in: 1..<noteIDs.count, using: &random)]
    // Selecting the note (view state, not timed): the window title shows it.
    windowTitle.note = id
    selected = id
    let next = action(id, step: step)
    var outcome = ActionOutcome.unchanged
    let nanoseconds = timeNanoseconds { outcome = dispatcher.dispatch(next) }
    if !outcome.isCommitted { notCommitted += 1 }
    let revision = model.revision
    let note = model.state.notes[id]
    let rendered = [
      sidebar.renderedRevision, noteList.lens.revision, windowTitle.renderedRevision,
      statusBar.renderedRevision, editor.renderedRevision,
    ]
    let menuShowsCommands =
      commandMenu.rows.value.map(\.availability) == [
        newNote.availability.value, deleteNote.availability.value,
      ]
    // The title isolates each part it shows (BidiIsolation), so it ends with the note's
    // title in isolation marks.
    let titleShowsNote =
      note.map { windowTitle.title.value.hasSuffix(BidiIsolation.isolate($0.title)) } ?? false
    if rendered.contains(where: { $0 != revision }) || !menuShowsCommands || !titleShowsNote
      || editor.state.value.noteID != shownInEditor || editor.state.value.conflict != nil
    {
      stale += 1
    }
    let bareNanoseconds = timeNanoseconds { outcome = bareDispatcher.dispatch(next) }
    if !outcome.isCommitted { notCommitted += 1 }
    if step >= warmUp {
      samples.append(nanoseconds)
      bareSamples.append(bareNanoseconds)
      for index in shares.indices {
        shares[index].append(stamps.nanoseconds(from: index))
      }
    }
  }

  let target = 50_000.0
  let stats = Stats(samples: samples)
  let p99 = nearestRank(samples, 0.99)
  let bare = Stats(samples: bareSamples)
  let bareP99 = nearestRank(bareSamples, 0.99)
  let shareMedians = shares.map { Stats(samples: $0).median }
  var figure = Figure(
    number: number,
    title: "notes views: \(grouped(noteIDs.count)) notes in memory, 6 View State Controllers"
      + " observing, one EditNoteBody or RenameNote per write (ns from write to all 6 updated)",
    kind: .time(unit: "ns/write"))
  figure.rows.append(
    Row(
      benchmark: "notes-views", subject: "6 controllers observing", operations: 1,
      repetitions: writes, time: stats,
      extras: [
        ("p99_ns_per_op", .double(p99)), ("notes", .int(noteIDs.count)), ("controllers", .int(6)),
        ("stale_checks", .int(stale)), ("target_ns_per_op", .double(target)),
        ("target_met", .bool(stats.median <= target)),
      ]
        + zip(controllerNames, shareMedians).map {
          ("share_ns_" + $0.0.replacing(" ", with: "_"), JSONValue.double($0.1))
        },
      comment: "p99 \(formatted(p99, digits: 0)) ns"))
  figure.rows.append(
    Row(
      benchmark: "notes-views", subject: "same dispatches, nobody observing", operations: 1,
      repetitions: writes, time: bare,
      extras: [("p99_ns_per_op", .double(bareP99)), ("notes", .int(noteIDs.count))],
      comment: "p99 \(formatted(bareP99, digits: 0)) ns"))
  figure.notes.append(
    "target: median ≤ \(formatted(target / 1_000, digits: 0)) µs: "
      + (stats.median <= target ? "met" : "MISSED")
      + " (\(formatted(stats.median / 1_000, digits: 2)) µs, p99"
      + " \(formatted(p99 / 1_000, digits: 2)) µs)")
  figure.notes.append(
    "each sample is one write (\(grouped(writes)) after \(warmUp) warm-up); after every write"
      + " each controller was checked to show the model's revision: "
      + (stale == 0 ? "all did" : "WARNING: \(stale) write(s) left a controller behind"))
  figure.notes.append(
    "of which, median per controller (commit observers between them): "
      + zip(controllerNames, shareMedians).map {
        "\($0.0) \(formatted($0.1 / 1_000, digits: 2)) µs"
      }.joined(separator: ", "))
  if notCommitted > 0 {
    figure.notes.append("WARNING: \(notCommitted) dispatched write(s) did not commit")
  }
  stamps.cancel()
  let (deleteRows, deleteNotes) = recentlyDeletedRows(
    model: model, dispatcher: dispatcher, noteIDs: noteIDs, keepOpen: shownInEditor,
    writes: writes / 2, warmUp: warmUp, target: target,
    controllers: ObservingControllers(
      renderedRevisions: {
        [
          sidebar.renderedRevision, noteList.lens.revision, windowTitle.renderedRevision,
          statusBar.renderedRevision, editor.renderedRevision,
        ]
      },
      noteList: noteList.lens,
      select: { id in
        windowTitle.note = id
        selected = id
      }))
  figure.rows += deleteRows
  figure.notes += deleteNotes
  sink.count += writes
  sink.total &+= noteList.lens.count &+ sidebar.rows.value.count
  newNote.cancel()
  deleteNote.cancel()
  return figure
}

/// When each of a row of commit observers last ran: splits a delivery into shares.
@MainActor
final class DeliveryStamps {
  private let model: Model<NotesState>
  private let clock = ContinuousClock()
  private var instants: [ContinuousClock.Instant] = []
  private var lifetimes: [Lifetime] = []

  init(model: Model<NotesState>) { self.model = model }

  /// Registers the next commit observer, after every observer registered so far.
  func mark() {
    let index = instants.count
    instants.append(clock.now)
    lifetimes.append(
      model.observeCommits { [weak self] _ in
        guard let self else { return }
        instants[index] = clock.now
      })
  }

  /// Nanoseconds between mark `index` and the next one in the last delivery.
  func nanoseconds(from index: Int) -> Double {
    let parts = (instants[index + 1] - instants[index]).components
    return Double(parts.seconds) * 1e9 + Double(parts.attoseconds) / 1e9
  }

  func cancel() {
    for lifetime in lifetimes { lifetime.cancel() }
  }
}
