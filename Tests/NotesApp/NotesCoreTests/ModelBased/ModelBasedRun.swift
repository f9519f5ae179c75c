// ModelBasedRun: runs one sequence against the app and the reference model side by side,
// and after every step compares the model with the reference and every View State
// Controller with a full recomputation.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore

/// The first disagreement of a run.
struct RunFailure: Error, CustomStringConvertible {
  /// The position of the step after which the disagreement was seen.
  let stepIndex: Int
  /// What disagreed, such as "model" or "editor"; the shrinker keeps the area fixed.
  let area: String
  let detail: String

  var description: String { "after step \(stepIndex): \(area): \(detail)" }
}

/// Counts of what the runs did, for the summary line.
struct RunStatistics {
  var sequences = 0
  var steps = 0
  var failures = 0
  var stepKinds: [String: Int] = [:]
  var results: [String: Int] = [:]
  /// How many steps ended in each situation worth reaching, such as an editor conflict.
  var situations: [String: Int] = [:]

  mutating func add(_ other: RunStatistics) {
    sequences += other.sequences
    steps += other.steps
    failures += other.failures
    stepKinds.merge(other.stepKinds, uniquingKeysWith: +)
    results.merge(other.results, uniquingKeysWith: +)
    situations.merge(other.situations, uniquingKeysWith: +)
  }
}

@MainActor
final class ModelBasedRun {
  let harness: NotesHarness
  var reference: ReferenceNotes
  var statistics = RunStatistics()

  /// Creates a run.
  init(initial: NotesState, fault: ReferenceNotes.Fault? = nil) {
    harness = NotesHarness(state: initial)
    reference = ReferenceNotes(initial)
    reference.fault = fault
  }

  /// The initial state a seed starts from: empty, two notebooks, or the sample library.
  static func initialState(seed: UInt64) -> NotesState {
    switch seed % 3 {
    case 0: NotesState()
    case 1: sampleState()
    default: SampleLibrary.state(now: t0)
    }
  }

  /// Runs `steps` from `initial`; returns the first failure, or `nil`.
  static func run(
    _ steps: [GeneratedStep],
    initial: NotesState,
    fault: ReferenceNotes.Fault? = nil,
    statistics: inout RunStatistics
  ) async -> RunFailure? {
    let run = ModelBasedRun(initial: initial, fault: fault)
    let state = run.reference.state
    var failure = run.compare(after: -1, state: state, rows: run.expectedRows(state))
    if failure == nil {
      for (index, step) in steps.enumerated() {
        failure = await run.perform(step, index: index)
        if failure != nil { break }
      }
    }
    await run.harness.shutdown()
    run.statistics.results["typing save joined its run", default: 0] +=
      run.reference.typingSavesJoined
    run.statistics.sequences = 1
    run.statistics.failures = failure == nil ? 0 : 1
    statistics.add(run.statistics)
    return failure
  }

  // MARK: - One step

  /// The note list recomputed from scratch for the reference's state and view state.
  private func expectedRows(_ state: NotesState) -> [NoteRow] {
    NoteListController.recomputedRows(
      for: state, notebook: reference.listNotebook, search: reference.search,
      sort: reference.sort)
  }

  func perform(_ step: GeneratedStep, index: Int) async -> RunFailure? {
    let notebookIDs = reference.notebookIDs
    let noteIDs = reference.noteIDs
    func notebook(_ ref: EntityRef) -> NotebookID {
      NotebookID(rawValue: ref.resolve(in: notebookIDs))
    }
    func note(_ ref: EntityRef) -> NoteID { NoteID(rawValue: ref.resolve(in: noteIDs)) }
    func resolve(_ op: GeneratedOp) -> ResolvedOp {
      ResolvedOp(op, notebooks: notebookIDs, notes: noteIDs, deleted: reference.deletedIDs)
    }
    let app = harness
    var actual: [(result: StepResult, outcome: ActionOutcome?)] = []
    var expected: [StepResult] = []
    func outcome(_ outcome: ActionOutcome) {
      app.status.report(outcome)
      actual.append((StepResult(outcome), outcome))
    }

    switch step {
    case .dispatch(let op):
      let resolved = resolve(op)
      outcome(app.dispatcher.dispatch(resolved.action))
      expected.append(reference.dispatch(resolved))
    case .group(let ops):
      let resolved = ops.map(resolve)
      app.dispatcher.group(named: "Batch") {
        for op in resolved { outcome(app.dispatcher.dispatch(op.action)) }
      }
      expected += reference.group(named: "Batch", resolved)
    case .undo:
      outcome(app.dispatcher.undo())
      expected.append(reference.undo())
    case .redo:
      outcome(app.dispatcher.redo())
      expected.append(reference.redo())
    case .newNoteFromMenu(let title, let tick):
      app.clock.now = tickDate(tick)
      outcome(app.newNote.trigger(title.value))
      if let first = notebookIDs.first {
        expected.append(
          reference.dispatch(
            .createNote(
              NotebookID(rawValue: first), title: title.value, body: "", now: tickDate(tick))))
      } else {
        expected.append(.invalid(fields: ["command"]))
      }
    case .requestNotebookDeletion(let ref):
      let id = notebook(ref)
      outcome(app.deletion.deleteRequested(id))
      expected.append(reference.requestDeletion(id))
    case .answerDeletion(let index, let confirmed):
      let id = reference.confirmationID(index)
      outcome(app.deletion.answer(id, confirmed: confirmed))
      expected.append(reference.answer(id, confirmed: confirmed))
    case .selectNotebook(let ref):
      let id = ref.map(notebook)
      actual.append((.accepted(app.sidebar.select(id)), nil))
      expected.append(reference.selectNotebook(id))
    case .filterNotebook(let ref):
      app.list.notebook = ref.map(notebook)
      reference.listNotebook = ref.map(notebook)
    case .search(let text):
      app.list.search = text.value
      reference.search = text.value
    case .sort(let sort):
      app.list.sort = sort
      reference.sort = sort
    case .selectNote(let ref):
      let id = ref.map(note)
      actual.append((.accepted(app.list.lens.select(id)), nil))
      expected.append(reference.selectNote(id, rows: expectedRows(reference.state)))
    case .showNote(let ref):
      app.title.note = ref.map(note)
      reference.titleNote = ref.map(note)
    case .showNotebook(let ref):
      app.title.notebook = ref.map(notebook)
      reference.titleNotebook = ref.map(notebook)
    case .openEditor(let ref):
      app.editor.open(ref.map(note))
      reference.openEditor(ref.map(note))
    case .typeBody(let text):
      app.editor.userEditedBody(text.value)
      reference.type(body: text.value)
    case .save(let tick):
      app.clock.now = tickDate(tick)
      outcome(app.editor.save())
      expected.append(reference.save(now: tickDate(tick)))
    case .saveTyping(let tick):
      app.clock.now = tickDate(tick)
      outcome(app.editor.save(asTyping: true))
      expected.append(reference.save(now: tickDate(tick), typing: true))
    case .endTypingRun:
      app.editor.endTypingRun()
      reference.endTypingRun()
    case .keepMine:
      app.editor.keepMine()
      reference.keepMine()
    case .takeTheirs:
      app.editor.takeTheirs()
      reference.takeTheirs()
    case .startSync:
      actual.append((.started(app.startSync()), nil))
      expected.append(reference.startSync())
    case .syncProgress(let progress):
      await app.send(.progress(progress))
      reference.syncProgress(progress)
    case .finishSync(let tick):
      let date = tickDate(100_000 + tick)
      await app.send(.finish(date))
      reference.finishSync(at: date)
    case .failSync(let message):
      await app.send(.fail(message))
      reference.failSync(message)
    case .cancelSync:
      app.cancelSync()
      reference.cancelSync()
    case .trigger(let policy, let op):
      let resolved = resolve(op)
      if let refused = await app.trigger(policy, resolved) {
        outcome(refused)
      } else {
        actual.append((.started(true), nil))
      }
      expected.append(reference.trigger(policy, resolved))
    case .release(let policy, let index, let succeeds):
      for finished in await app.release(policy, index, succeeds: succeeds) { outcome(finished) }
      if let position = reference.unreleasedRun(policy, index) {
        expected += reference.release(policy, run: position, succeeds: succeeds)
      }
    case .cancelRuns(let policy):
      app.cancelRuns(policy)
      reference.cancelRuns(policy)
    }

    statistics.steps += 1
    statistics.stepKinds[step.kind, default: 0] += 1
    for result in expected {
      let name = String(result.description.prefix { $0 != "(" })
      statistics.results[name, default: 0] += 1
    }
    guard actual.map(\.result) == expected else {
      return RunFailure(
        stepIndex: index, area: "outcome",
        detail: "\(step): app \(actual.map(\.result)), reference \(expected)")
    }
    for (result, outcome) in actual {
      // The status bar shows a refusal as displayed (what it quotes isolated).
      if let outcome { reference.report(result, description: outcome.displayDescription) }
    }
    let state = reference.state
    let rows = expectedRows(state)
    reference.listChanged(rows: rows)
    countSituations()
    return compare(after: index, state: state, rows: rows)
  }

  private func countSituations() {
    let reference = reference
    let situations: [(String, Bool)] = [
      ("editor conflict", reference.editor.conflict != nil),
      ("editor on a deleted note", reference.editor.isDeleted),
      ("editor dirty", reference.editor.isDirty),
      ("undo history full", reference.undoStack.count == ReferenceNotes.undoLimit),
      ("redo available", !reference.redoStack.isEmpty),
      ("2+ runs in flight", reference.runs.values.contains { $0.count >= 2 }),
      ("sync running", reference.syncRunning),
      ("sync failed", { if case .failed = reference.sync { true } else { false } }()),
      ("confirmation pending", !reference.confirmations.isEmpty),
      ("note selected in the list", reference.listSelection != nil),
      ("no notebooks", reference.notebookIDs.isEmpty),
    ]
    for (name, holds) in situations where holds { statistics.situations[name, default: 0] += 1 }
  }

  // MARK: - Comparison

  /// Compares the model with the reference's `state` and every controller with a
  /// recomputation (`rows` is the note list recomputed for that state).
  func compare(after index: Int, state: NotesState, rows: [NoteRow]) -> RunFailure? {
    func failure(_ area: String, _ detail: String) -> RunFailure {
      RunFailure(stepIndex: index, area: area, detail: detail)
    }
    func differ<T: Equatable>(_ area: String, _ app: T, _ expected: T) -> RunFailure? {
      app == expected ? nil : failure(area, "app \(clip(app)), expected \(clip(expected))")
    }
    let app = harness
    let model = app.model.state
    if model != state { return failure("model", Self.difference(model, state)) }
    if let failure = differ("revision", app.model.revision, reference.revision) {
      return failure
    }
    let undo = app.dispatcher.undoAvailability.value
    if let failure = differ(
      "undo names", [undo.undoName, undo.redoName], [reference.undoName, reference.redoName])
    {
      return failure
    }
    let title = WindowTitleController.title(
      for: state, note: reference.titleNote, notebook: reference.titleNotebook,
      hasUnsavedEdits: reference.editor.isDirty)
    let confirmations = app.deletion.confirmations.pending.map {
      ReferenceNotes.Confirmation(id: $0.id, notebook: $0.notebookID, message: $0.message)
    }
    let checks: [RunFailure?] = [
      differ("sidebar rows", app.sidebar.rows.value, SidebarController.recomputedRows(for: state)),
      differ("sidebar selection", app.sidebar.selectedNotebook.value, reference.sidebarSelection),
      differ("list notebook", app.list.notebook, reference.listNotebook),
      differ("list search", app.list.search, reference.search),
      differ("list sort", app.list.sort, reference.sort),
      differ("list rows", app.list.lens.rows, rows),
      differ("list count", app.list.lens.count, rows.count),
      differ("list selection", app.list.lens.selection.value, reference.listSelection),
      differ("window title view state", app.title.note, reference.titleNote),
      differ("window title view state", app.title.notebook, reference.titleNotebook),
      differ("window title", app.title.title.value, title),
      differ(
        "status bar", app.status.status.value,
        StatusBarController.status(for: state, message: reference.statusMessage)),
      differ("editor", app.editor.state.value, reference.editor),
      differ("confirmations", confirmations, reference.confirmations),
      differ("sync", app.syncDriver.isSyncing, reference.syncRunning),
      differ(
        "menu", app.menu.rows.value.map { MenuRow($0.name, $0.shortcut, $0.availability) },
        expectedMenu(state)),
    ]
    if let failure = checks.compactMap({ $0 }).first { return failure }
    for policy in RunPolicy.allCases {
      let command = app.commands[policy]!
      let running = reference.runs[policy, default: []].count
      let active = reference.hasActiveRun(policy)
      if let failure = differ("\(policy) runs", command.runningCount, running)
        ?? differ("\(policy) executing", command.isExecuting.value, active)
        ?? differ(
          "\(policy) availability", command.availability.value.isEnabled,
          policy != .rejectWhileRunning || !active)
      {
        return failure
      }
    }
    app.scheduler.drain()
    let mismatches = app.check.mismatches + app.check.verify()
    if !mismatches.isEmpty {
      return failure("rendered revisions", mismatches.map(\.description).joined(separator: "; "))
    }
    return nil
  }

  /// A menu row as plain values (`CommandRow` has no public initializer).
  struct MenuRow: Equatable {
    let name: String
    let shortcut: String
    let availability: Availability

    init(_ name: String, _ shortcut: String, _ availability: Availability) {
      self.name = name
      self.shortcut = shortcut
      self.availability = availability
    }
  }

  private func expectedMenu(_ state: NotesState) -> [MenuRow] {
    [
      MenuRow("New Note", "n", NotesHarness.newNoteNotebook(state).availability),
      MenuRow("Sync Now", "s", NotesHarness.syncAvailability(state).availability),
      MenuRow("Import", "i", harness.commands[.rejectWhileRunning]!.availability.value),
    ]
  }

  /// The first field where the model and the reference differ, readably.
  static func difference(_ model: NotesState, _ reference: NotesState) -> String {
    if model.lastAssignedID != reference.lastAssignedID {
      return "lastAssignedID: model \(model.lastAssignedID), reference \(reference.lastAssignedID)"
    }
    if model.sync != reference.sync {
      return "sync: model \(model.sync), reference \(reference.sync)"
    }
    let notebookIDs = Set(model.notebooks.byID.keys).union(reference.notebooks.byID.keys)
    for id in notebookIDs.sorted() {
      if let difference = entityDifference(
        "notebook \(id)", model.notebooks[id], reference.notebooks[id])
      {
        return difference
      }
    }
    let noteIDs = Set(model.notes.byID.keys).union(reference.notes.byID.keys)
    for id in noteIDs.sorted() {
      if let difference = entityDifference("note \(id)", model.notes[id], reference.notes[id]) {
        return difference
      }
    }
    let deletedIDs = Set(model.recentlyDeleted.byID.keys).union(reference.recentlyDeleted.byID.keys)
    for id in deletedIDs.sorted() {
      if let difference = entityDifference(
        "deleted note \(id)", model.recentlyDeleted[id], reference.recentlyDeleted[id])
      {
        return difference
      }
    }
    return "the states differ"
  }

  private static func entityDifference<T>(_ name: String, _ model: T?, _ reference: T?) -> String? {
    switch (model, reference) {
    case (nil, nil): return nil
    case (nil, let expected?): return "\(name): missing from the model, reference \(clip(expected))"
    case (let found?, nil): return "\(name): model \(clip(found)), missing from the reference"
    case (let found?, let expected?):
      let fields = zip(Mirror(reflecting: found).children, Mirror(reflecting: expected).children)
      for (mine, theirs) in fields {
        let (left, right) = (String(describing: mine.value), String(describing: theirs.value))
        if left != right {
          return "\(name).\(mine.label ?? "?"): model \(clip(left)), reference \(clip(right))"
        }
      }
      return nil
    }
  }
}

/// A value's description, cut to a readable length.
func clip(_ value: Any) -> String {
  let text = String(describing: value)
  return text.count > 300 ? text.prefix(300) + "… (\(text.count) characters)" : text
}
