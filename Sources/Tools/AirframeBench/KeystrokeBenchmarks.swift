// Figure 11: keystroke to screen. One typed character goes through the terminal app's
// whole path — the editor's key handling, the editor controller's save (an action through
// the dispatcher), the model's commit, every View State Controller's update — and then
// every pane is rendered to an off-screen buffer, as the terminal would show it.
//
// Two subjects: the model in memory, and the model persisting every commit to SQLite (as
// `notes` runs). Each sample is one keystroke plus one full render; the figure reports the
// median and the 99th percentile. After every keystroke the benchmark checks that every
// controller shows the model's revision and that the body holds every typed character.

import Airframe
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesFixtures
@_spi(Instrumentation) import NotesPresentation
import NotesStorage
import NotesTerminalUI

/// The keystroke-to-screen figure, for the in-memory model and the SQLite-backed one.
@MainActor
func keystrokeFigure(number: Int, fixture: NotesFixture, scale: Scale, sink: Sink) throws
  -> Figure
{
  let keystrokes = scale.notesViewWrites
  let target = 2_000_000.0
  var figure = Figure(
    number: number,
    title: "keystroke to screen: \(grouped(fixture.library.notes.count)) notes, one typed"
      + " character → editor save (action) → commit → 6 controllers → all panes rendered"
      + " to a 120 × 40 buffer (ns per keystroke)",
    kind: .scaledTime(unit: "µs/key", nanosecondsPerUnit: 1_000))

  let inMemory = KeystrokeRun(model: Model(fixture.library.state), keystrokes: keystrokes)
  let database = try NotesDatabase(
    path: try fixture.folder.copy(fixture.path, to: "keystrokes.sqlite"))
  let stored = KeystrokeRun(
    model: Model(try database.loadState(), storage: database), keystrokes: keystrokes)
  defer { database.close() }

  for (subject, run) in [("model in memory", inMemory), ("model stored in SQLite", stored)] {
    let stats = Stats(samples: run.samples)
    let p99 = nearestRank(run.samples, 0.99)
    figure.rows.append(
      Row(
        benchmark: "keystroke", subject: subject, operations: 1, repetitions: run.samples.count,
        time: stats,
        extras: [
          ("p99_ns_per_op", .double(p99)), ("notes", .int(fixture.library.notes.count)),
          ("stale_checks", .int(run.stale)), ("target_p99_ns", .double(target)),
          ("handle_median_ns", .double(Stats(samples: run.handleSamples).median)),
          ("render_median_ns", .double(Stats(samples: run.renderSamples).median)),
          ("target_met", .bool(p99 <= target)),
        ],
        comment: "p99 \(formatted(p99 / 1_000, digits: 0)) µs"))
    let handling = Stats(samples: run.handleSamples).median
    let rendering = Stats(samples: run.renderSamples).median
    figure.notes.append(
      "\(subject): target p99 ≤ 2 ms: " + (p99 <= target ? "met" : "MISSED")
        + " (median \(formatted(stats.median / 1_000, digits: 0)) µs,"
        + " p99 \(formatted(p99 / 1_000, digits: 0)) µs); medians of the two halves: key → all"
        + " controllers \(formatted(handling / 1_000, digits: 0)) µs, render"
        + " \(formatted(rendering / 1_000, digits: 0)) µs")
    if run.stale > 0 {
      figure.notes.append("WARNING: \(run.stale) keystroke(s) left a pane behind the model")
    }
    sink.count += run.samples.count
    sink.total &+= run.checksum
  }
  return figure
}

/// Types `keystrokes` characters into the first note of a running app, timing each.
@MainActor
private struct KeystrokeRun {
  /// Nanoseconds from the key press to the model's commit reaching every controller.
  var handleSamples: [Double] = []
  /// Nanoseconds to render every pane afterwards.
  var renderSamples: [Double] = []
  /// Both together: key press to screen.
  var samples: [Double] { zip(handleSamples, renderSamples).map { $0 + $1 } }
  var stale = 0
  var checksum = 0

  init(model: Model<NotesState>, keystrokes: Int) {
    let app = TerminalApplication(
      model: model, syncService: SimulatedSyncService(stepDelay: .zero), now: { Date() })
    defer { app.shutdown() }
    app.handle(.enter)  // the first note opens in the editor
    guard app.focus == .editor, let id = app.session.selectedNote.value else {
      stale = keystrokes
      return
    }
    let warmUp = max(20, keystrokes / 10)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    var typed = model.state.notes[id]?.body ?? ""
    handleSamples.reserveCapacity(keystrokes)
    renderSamples.reserveCapacity(keystrokes)
    for step in 0..<(warmUp + keystrokes) {
      // A new line every 60 characters keeps the body like a real note.
      let key: Key = step % 60 == 59 ? .enter : .character(letters[step % 26])
      var screen = ScreenBuffer(width: 0, height: 0)
      let handling = timeNanoseconds { app.handle(key) }
      let rendering = timeNanoseconds { screen = app.render(width: 120, height: 40) }
      if step >= warmUp {
        handleSamples.append(handling)
        renderSamples.append(rendering)
      }
      typed.append(key == .enter ? "\n" : letters[step % 26])
      let revision = model.revision
      let controllers = app.session.viewStateControllers.map(\.controller.renderedRevision)
      if controllers.contains(where: { $0 != revision }) || model.state.notes[id]?.body != typed {
        stale += 1
      }
      checksum &+= screen.width
    }
  }
}
