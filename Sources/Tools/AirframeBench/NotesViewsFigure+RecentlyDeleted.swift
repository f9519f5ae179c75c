// Figure 10's Recently Deleted rows: a note deleted, then restored, with the six View State
// Controllers and the library's Recently Deleted list observing.
//
// On the figure's model, after its edits: 1,000 random notes are deleted first (not timed),
// so Recently Deleted lists 1,000 entries throughout. Then each operation is one dispatched
// `DeleteNote` of a random note (even steps) or `RestoreDeletedNote` of the note just
// deleted (odd steps), timed from before `dispatch` to its return. The Recently Deleted list
// is the `ListLens` every session of a library shares (`LibrarySession.recentlyDeleted`:
// newest deletion first). After every write each controller and the list must show the
// model's revision, the note must be gone from the note list and first in Recently Deleted
// after a delete, and back after a restore.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore

/// What the delete and restore rows observe: the figure's controllers, read after each write.
struct ObservingControllers {
  /// The revisions the six controllers rendered last.
  var renderedRevisions: () -> [Int]
  /// The note list.
  var noteList: ListLens<NotesState, Note, NoteRow>
  /// Points the window title (and the command menu's Delete Note) at a note, as selecting
  /// it would.
  var select: (NoteID) -> Void
}

/// The delete and restore rows of figure 10, and their notes.
@MainActor
func recentlyDeletedRows(
  model: Model<NotesState>, dispatcher: ActionDispatcher<NotesState>, noteIDs: [NoteID],
  keepOpen: NoteID, writes: Int, warmUp: Int, target: Double,
  controllers: ObservingControllers
) -> (rows: [Row], notes: [String]) {
  let recentlyDeleted = ListLens(
    model: model, table: \.recentlyDeleted,
    order: ListOrder<DeletedNote> {
      ($0.deleted, $0.id.rawValue) > ($1.deleted, $1.id.rawValue)
    })
  defer { recentlyDeleted.cancel() }
  var random = SeededRandomNumberGenerator(seed: 47)
  var live = noteIDs.filter { $0 != keepOpen }
  var notCommitted = 0
  for _ in 0..<1_000 {
    let id = live.remove(at: Int.random(in: 0..<live.count, using: &random))
    if !dispatcher.dispatch(DeleteNote(id: id, now: Date())).isCommitted { notCommitted += 1 }
  }

  var deletes: [Double] = []
  var restores: [Double] = []
  var stale = 0
  for step in 0..<(warmUp + writes) {
    let index = Int.random(in: 0..<live.count, using: &random)
    let id = live[index]
    controllers.select(id)
    var outcome = ActionOutcome.unchanged
    let deleting = timeNanoseconds {
      outcome = dispatcher.dispatch(DeleteNote(id: id, now: Date()))
    }
    if !outcome.isCommitted { notCommitted += 1 }
    if !agree(model, controllers, recentlyDeleted)
      || controllers.noteList.index(of: id) != nil
      || recentlyDeleted.count == 0 || recentlyDeleted.row(at: 0).id != id
    {
      stale += 1
    }
    let restoring = timeNanoseconds {
      outcome = dispatcher.dispatch(RestoreDeletedNote(id: id, now: Date()))
    }
    if !outcome.isCommitted { notCommitted += 1 }
    if !agree(model, controllers, recentlyDeleted) || controllers.noteList.index(of: id) == nil
      || recentlyDeleted.index(of: id) != nil
    {
      stale += 1
    }
    if step >= warmUp {
      deletes.append(deleting)
      restores.append(restoring)
    }
  }

  var rows: [Row] = []
  var notes: [String] = []
  for (name, samples) in [("delete", deletes), ("restore", restores)] {
    let stats = Stats(samples: samples)
    let p99 = nearestRank(samples, 0.99)
    rows.append(
      Row(
        benchmark: "notes-views",
        subject: "\(name), 6 controllers and Recently Deleted observing", operations: 1,
        repetitions: samples.count, time: stats,
        extras: [
          ("p99_ns_per_op", .double(p99)), ("notes", .int(noteIDs.count)),
          ("recently_deleted", .int(recentlyDeleted.count)), ("stale_checks", .int(stale)),
          ("target_ns_per_op", .double(target)), ("target_met", .bool(stats.median <= target)),
        ],
        comment: "p99 \(formatted(p99, digits: 0)) ns"))
    notes.append(
      "\(name) → every controller and Recently Deleted: median ≤ "
        + "\(formatted(target / 1_000, digits: 0)) µs: "
        + (stats.median <= target ? "met" : "MISSED")
        + " (\(formatted(stats.median / 1_000, digits: 2)) µs, p99"
        + " \(formatted(p99 / 1_000, digits: 2)) µs)")
  }
  notes.append(
    "delete and restore: \(grouped(writes)) of each after \(warmUp) warm-up, with"
      + " \(grouped(recentlyDeleted.count)) notes in Recently Deleted; after each, every"
      + " controller and Recently Deleted were checked: "
      + (stale == 0 ? "all agreed" : "WARNING: \(stale) write(s) left one behind"))
  if notCommitted > 0 {
    notes.append("WARNING: \(notCommitted) delete or restore write(s) did not commit")
  }
  return (rows, notes)
}

/// Whether every controller and the Recently Deleted list show the model's revision.
@MainActor
private func agree(
  _ model: Model<NotesState>, _ controllers: ObservingControllers,
  _ recentlyDeleted: ListLens<NotesState, DeletedNote, DeletedNote>
) -> Bool {
  let revision = model.revision
  return controllers.renderedRevisions().allSatisfy { $0 == revision }
    && recentlyDeleted.revision == revision
}
