// Shrinker: reduces a failing sequence to a small one that fails the same way.
//
// Delta debugging: cut the sequence after the failing step, then try removing chunks
// (halves, quarters, … single steps), then try simplifying each step (position 0, tick 0,
// text "A", a group split into its actions, an asynchronous run made a plain dispatch),
// and repeat while anything helps. Every
// candidate runs from a fresh app and reference; a candidate counts only if it fails in
// the same area as the original failure, so shrinking never drifts to another bug.

@_spi(Instrumentation) import NotesCore

@MainActor
struct Shrinker {
  let initial: NotesState
  let fault: ReferenceNotes.Fault?
  let area: String
  /// The most candidate runs tried.
  var budget = 2_000
  private(set) var runs = 0

  init(initial: NotesState, fault: ReferenceNotes.Fault?, area: String) {
    self.initial = initial
    self.fault = fault
    self.area = area
  }

  /// The candidate cut after its failing step, if it fails in the same area.
  private mutating func failing(_ candidate: [GeneratedStep]) async -> [GeneratedStep]? {
    guard runs < budget, !candidate.isEmpty else { return nil }
    runs += 1
    var statistics = RunStatistics()
    guard
      let failure = await ModelBasedRun.run(
        candidate, initial: initial, fault: fault, statistics: &statistics),
      failure.area == area
    else { return nil }
    return Array(candidate.prefix(failure.stepIndex + 1))
  }

  /// A smaller sequence that still fails in `area`.
  mutating func shrink(_ steps: [GeneratedStep], failingAt index: Int) async -> [GeneratedStep] {
    var current = Array(steps.prefix(index + 1))
    var progressed = true
    while progressed, runs < budget {
      progressed = false
      // Remove chunks, from halves down to single steps.
      var granularity = 2
      while current.count >= 2, runs < budget {
        let chunk = (current.count + granularity - 1) / granularity
        var removed = false
        for start in stride(from: 0, to: current.count, by: chunk) {
          var candidate = current
          candidate.removeSubrange(start..<min(start + chunk, current.count))
          if let smaller = await failing(candidate) {
            current = smaller
            granularity = max(granularity - 1, 2)
            removed = true
            progressed = true
            break
          }
        }
        if !removed {
          if chunk == 1 { break }
          granularity = min(granularity * 2, current.count)
        }
      }
      // Simplify each step.
      var position = 0
      while position < current.count, runs < budget {
        for simpler in Self.simplifications(of: current[position]) {
          var candidate = current
          candidate[position] = simpler
          if let smaller = await failing(candidate) {
            current = smaller
            progressed = true
            break
          }
        }
        position += 1
      }
    }
    return current
  }

  // MARK: - Simplifications

  static func simplifications(of step: GeneratedStep) -> [GeneratedStep] {
    switch step {
    case .dispatch(let op): return simplifications(of: op).map { .dispatch($0) }
    case .group(let ops):
      let shorter: [GeneratedStep] =
        ops.count < 2
        ? []
        : ops.indices.map { index in
          var fewer = ops
          fewer.remove(at: index)
          return GeneratedStep.group(fewer)
        }
      return ops.map { .dispatch($0) } + shorter
    case .newNoteFromMenu(let title, let tick):
      return simpler(title).map { .newNoteFromMenu($0, tick: tick) }
        + simpler(tick).map { .newNoteFromMenu(title, tick: $0) }
    case .requestNotebookDeletion(let ref): return simpler(ref).map { .requestNotebookDeletion($0) }
    case .answerDeletion(let index, let confirmed):
      return index == 0 ? [] : [.answerDeletion(0, confirmed: confirmed)]
    case .selectNotebook(let ref?): return simpler(ref).map { .selectNotebook($0) }
    case .filterNotebook(let ref?): return simpler(ref).map { .filterNotebook($0) }
    case .selectNote(let ref?): return simpler(ref).map { .selectNote($0) }
    case .showNote(let ref?): return simpler(ref).map { .showNote($0) }
    case .showNotebook(let ref?): return simpler(ref).map { .showNotebook($0) }
    case .openEditor(let ref?): return simpler(ref).map { .openEditor($0) }
    case .search(let text): return simpler(text).map { .search($0) }
    case .typeBody(let text): return simpler(text).map { .typeBody($0) }
    case .save(let tick): return simpler(tick).map { .save(tick: $0) }
    case .saveTyping(let tick):
      return [.save(tick: tick)] + simpler(tick).map { .saveTyping(tick: $0) }
    case .syncProgress(let progress): return progress == 0.5 ? [] : [.syncProgress(0.5)]
    case .finishSync(let tick): return simpler(tick).map { .finishSync(tick: $0) }
    case .trigger(let policy, let op):
      return [.dispatch(op)] + simplifications(of: op).map { .trigger(policy, $0) }
    case .release(let policy, let index, let succeeds):
      return index == 0 ? [] : [.release(policy, 0, succeeds: succeeds)]
    default: return []
    }
  }

  static func simplifications(of op: GeneratedOp) -> [GeneratedOp] {
    switch op {
    case .createNotebook(let title, let tick):
      return simpler(title).map { .createNotebook($0, tick: tick) }
        + simpler(tick).map { .createNotebook(title, tick: $0) }
    case .renameNotebook(let ref, let title):
      return simpler(ref).map { .renameNotebook($0, title) }
        + simpler(title).map { .renameNotebook(ref, $0) }
    case .deleteNotebook(let ref, let deleting):
      return simpler(ref).map { .deleteNotebook($0, deletingNotes: deleting) }
    case .createNote(let ref, let title, let body, let tick):
      return simpler(ref).map { .createNote($0, title, body: body, tick: tick) }
        + simpler(title).map { .createNote(ref, $0, body: body, tick: tick) }
        + (body == "" ? [] : [.createNote(ref, title, body: "", tick: tick)])
        + simpler(tick).map { .createNote(ref, title, body: body, tick: $0) }
    case .renameNote(let ref, let title, let tick):
      return simpler(ref).map { .renameNote($0, title, tick: tick) }
        + simpler(title).map { .renameNote(ref, $0, tick: tick) }
        + simpler(tick).map { .renameNote(ref, title, tick: $0) }
    case .editBody(let ref, let body, let tick):
      return simpler(ref).map { .editBody($0, body, tick: tick) }
        + simpler(body).map { .editBody(ref, $0, tick: tick) }
        + simpler(tick).map { .editBody(ref, body, tick: $0) }
    case .moveNote(let ref, let target, let tick):
      return simpler(ref).map { .moveNote($0, to: target, tick: tick) }
        + simpler(target).map { .moveNote(ref, to: $0, tick: tick) }
        + simpler(tick).map { .moveNote(ref, to: target, tick: $0) }
    case .setPinned(let ref, let pinned):
      return simpler(ref).map { .setPinned($0, pinned) } + (pinned ? [] : [.setPinned(ref, true)])
    case .deleteNote(let ref): return simpler(ref).map { .deleteNote($0) }
    case .restoreVersion(let ref, let title, let body, let tick):
      return simpler(ref).map { .restoreVersion($0, title, body: body, tick: tick) }
        + simpler(title).map { .restoreVersion(ref, $0, body: body, tick: tick) }
        + simpler(body).map { .restoreVersion(ref, title, body: $0, tick: tick) }
        + simpler(tick).map { .restoreVersion(ref, title, body: body, tick: $0) }
    case .keepDeletedNotes(let days): return days == 1 ? [] : [.keepDeletedNotes(days: 1)]
    case .restoreNote(let ref, let tick):
      return simpler(ref).map { .restoreNote($0, tick: tick) }
        + simpler(tick).map { .restoreNote(ref, tick: $0) }
    case .deleteForGood(let ref):
      return (ref.map(simpler) ?? []).map { .deleteForGood($0) }
    }
  }

  private static func simpler(_ ref: EntityRef) -> [EntityRef] { ref == .at(0) ? [] : [.at(0)] }
  private static func simpler(_ text: GeneratedText) -> [GeneratedText] {
    text == "A" ? [] : ["A"]
  }
  private static func simpler(_ tick: Int) -> [Int] { tick == 0 ? [] : [0] }
}
