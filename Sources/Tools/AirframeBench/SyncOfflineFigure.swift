// Figure 16, sync-offline: edits made offline, pushed and pulled by the next syncs.
//
// On device A (no sync running), `Scale.syncOfflineEdits` notes, each
// edited once through the model (`EditNoteBody`, one commit each), then
// `SyncEngine.sync()` on A pushes them (timed), and B's `SyncEngine.sync()` pulls them
// (timed, second row). One warm-up run, then up to `Scale.repetitions` runs, each on
// other notes.

import Airframe
import AirframeTesting
import Dispatch
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesFixtures
@_spi(Instrumentation) import NotesHost
import NotesPresentation
import NotesServer
import NotesStorage
import NotesSync
import NotesTerminalUI

#if canImport(Glibc)
  import Glibc
#endif

/// Figure 16: edits made offline on one device, pushed back by its next sync.
@MainActor
func syncOfflineFigure(
  number: Int, devices: SyncedDevices, scale: Scale, sink: Sink
) throws -> Figure {
  let database = try NotesDatabase(path: devices.a)
  defer { database.close() }
  let model = Model(try database.loadState(), storage: database)
  let dispatcher = ActionDispatcher(model: model)
  let noteIDs = model.state.notes.elements.map(\.id).sorted { $0.rawValue < $1.rawValue }
  let edits = min(scale.syncOfflineEdits, noteIDs.count)
  let target = 1e9
  var figure = Figure(
    number: number,
    title: "\(grouped(edits)) offline edits back to the server: \(grouped(edits)) notes of"
      + " \(grouped(noteIDs.count)) each edited once through the model with no sync running,"
      + " then SyncEngine.sync() (ms)",
    kind: .scaledTime(unit: "ms", nanosecondsPerUnit: 1e6))
  let pusher = try SyncEngine(libraryPath: devices.a)
  defer { pusher.close() }
  let puller = try SyncEngine(libraryPath: devices.b)
  defer { puller.close() }

  var random = SeededRandomNumberGenerator(seed: 0x5EED_0016)
  var order = noteIDs
  order.shuffle(using: &random)
  var next = 0
  var editSamples: [Double] = []
  var catchUps: [Double] = []
  var pushCPUs: [Double] = []
  var pullCPUs: [Double] = []
  var wrongCounts = 0
  /// One run: the edits, then the timed push and pull.
  func run(_ index: Int) throws -> (push: Double, pull: Double) {
    for step in 0..<edits {
      let id = order[next % order.count]
      next += 1
      let action = EditNoteBody(
        id: id, body: "edited offline, run \(index), edit \(step)", now: Date())
      let start = monotonicNanoseconds()
      let outcome = dispatcher.dispatch(action)
      editSamples.append(Double(monotonicNanoseconds() - start))
      guard outcome.isCommitted else {
        throw SyncBenchError(description: "an offline edit did not commit: \(outcome)")
      }
    }
    let pushCPU = processCPUNanoseconds()
    let pushStart = monotonicNanoseconds()
    let pushed = try pusher.sync()
    let pushEnd = monotonicNanoseconds()
    pushCPUs.append(processCPUNanoseconds() - pushCPU)
    if try database.hasExternalChanges() { _ = try model.catchUpWithStorage() }
    catchUps.append(Double(monotonicNanoseconds() - pushEnd))
    let pullCPU = processCPUNanoseconds()
    let pullStart = monotonicNanoseconds()
    let pulled = try puller.sync()
    let pullEnd = monotonicNanoseconds()
    pullCPUs.append(processCPUNanoseconds() - pullCPU)
    if pushed.pushed != edits || pulled.pulled != edits || pushed.pending != 0 {
      wrongCounts += 1
    }
    sink.count += pushed.pushed
    sink.total &+= pulled.applied
    return (Double(pushEnd - pushStart), Double(pullEnd - pullStart))
  }

  let warm = try run(0)
  var rounds = scale.repetitions
  var budgetNote: String?
  if let budget = scale.budgetSeconds, (warm.push + warm.pull) * Double(rounds) > budget * 1e9 {
    rounds = min(rounds, max(3, Int(budget * 1e9 / (warm.push + warm.pull))))
    if rounds < scale.repetitions {
      budgetNote =
        "time budget: \(rounds) timed runs instead of \(scale.repetitions) (a run took"
        + " \(formatted((warm.push + warm.pull) / 1e9, digits: 1)) s)"
    }
  }
  var pushes: [Double] = []
  var pulls: [Double] = []
  for index in 1...rounds {
    let timed = try run(index)
    pushes.append(timed.push)
    pulls.append(timed.pull)
  }
  let push = Stats(samples: pushes)
  let pull = Stats(samples: pulls)
  let met = push.median <= target && wrongCounts == 0
  figure.rows.append(
    Row(
      benchmark: "sync-offline", subject: "A's sync pushes \(grouped(edits)) edits",
      operations: 1, repetitions: rounds, time: push,
      extras: [
        ("edits", .int(edits)), ("notes", .int(noteIDs.count)),
        ("ns_per_edit", .double(push.median / Double(edits))),
        ("target_ns_per_op", .double(target)), ("target_met", .bool(met)),
      ],
      comment: "\(formatted(push.median / Double(edits) / 1e3, digits: 0)) µs per edit"))
  figure.rows.append(
    Row(
      benchmark: "sync-offline", subject: "B's next sync pulls them", operations: 1,
      repetitions: rounds, time: pull,
      extras: [
        ("edits", .int(edits)), ("notes", .int(noteIDs.count)),
        ("ns_per_edit", .double(pull.median / Double(edits))),
      ],
      comment: "\(formatted(pull.median / Double(edits) / 1e3, digits: 0)) µs per edit"))
  figure.notes.append(
    "target: push ≤ \(formatted(target / 1e9, digits: 0)) s: " + (met ? "met" : "MISSED")
      + " (\(formatted(push.median / 1e9, digits: 3)) s)")
  let editStats = Stats(samples: editSamples)
  figure.notes.append(
    "each run: \(grouped(edits)) EditNoteBody commits on notes not edited before (median"
      + " \(formatted(editStats.median / 1e3, digits: 0)) µs each, not timed above), then A's"
      + " sync; A's model then catches up with what the sync wrote in"
      + " \(formatted(Stats(samples: catchUps).median / 1e6, digits: 1)) ms (not timed); 1"
      + " warm-up run")
  figure.notes.append(
    "CPU time of this process (not the server's), medians over all runs:"
      + " \(formatted(Stats(samples: pushCPUs).median / 1e6, digits: 0)) ms during A's sync,"
      + " \(formatted(Stats(samples: pullCPUs).median / 1e6, digits: 0)) ms during B's")
  if let budgetNote { figure.notes.append(budgetNote) }
  if wrongCounts > 0 {
    figure.notes.append(
      "WARNING: \(wrongCounts) run(s) pushed or pulled another number of changes than"
        + " \(grouped(edits)), or left changes pending")
  }
  return figure
}
