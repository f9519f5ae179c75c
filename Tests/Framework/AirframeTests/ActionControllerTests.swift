import Airframe
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct ActionControllerTests {
  @Test func availabilityIsSharedStateThatFollowsCommitsAndViewState() {
    let dispatcher = ActionDispatcher(
      model: Model(Library(notes: EntityTable([Note(id: 1, title: "a")]))))
    let selection = StateSource<Int?>(nil)
    let rename = ActionController<Library, String>(
      dispatcher: dispatcher, name: "Rename", reading: selection
    ) { selected, state in
      guard let id = selected else { return .unmet("Select a note to rename.") }
      return state.notes.contains(id) ? .met(id) : .unmet("The selected note is gone.")
    } makeAction: { id, title in
      RenameNote(id: id, title: title)
    }
    let menu = ValueRecorder(rename.availability)
    let toolbar = ValueRecorder(rename.availability)
    #expect(menu.last?.reason == "Select a note to rename.")
    let refused = ActionOutcome.invalid(
      ValidationResult([ValidationIssue(field: "command", message: "Select a note to rename.")]))
    #expect(rename.trigger("b") == refused)
    // The refusal is logged like every dispatched action.
    #expect(dispatcher.log.entries.map(\.name) == ["Rename"])
    #expect(dispatcher.log.entries.last?.outcome == refused)

    // The selection is view state the controller reads: no refresh by hand.
    selection.set(1)
    #expect(menu.last?.isEnabled == true)
    #expect(rename.trigger("b").isCommitted)
    #expect(dispatcher.model.state.notes[1]?.title == "b")

    dispatcher.dispatch(DeleteNote(id: 1))
    #expect(menu.last?.reason == "The selected note is gone.")
    #expect(toolbar.values == menu.values)
    rename.cancel()
  }

  @Test func isExecutingIsTrueOnlyDuringTheDispatch() {
    let dispatcher = ActionDispatcher(model: Model(Library()))
    var executingDuringCommit: Bool?
    var controller: ActionController<Library, Note>?
    let observer = dispatcher.model.observeCommits { _ in
      executingDuringCommit = controller?.isExecuting.value
    }
    controller = ActionController(dispatcher: dispatcher) { AddNote(note: $0) }
    controller?.trigger(Note(id: 1, title: "a"))
    #expect(executingDuringCommit == true)
    #expect(controller?.isExecuting.value == false)
    observer.cancel()
    controller?.cancel()
  }

  @Test func aCommandWithoutInputIsAvailableExactlyWhenItsActionValidates() {
    let dispatcher = ActionDispatcher(
      model: Model(Library(notes: EntityTable([Note(id: 1, title: "a")]))))
    let selection = StateSource<Int>(2)
    let delete = ActionController(dispatcher: dispatcher, reading: selection) { id in
      DeleteNote(id: id)
    }
    let menu = ValueRecorder(delete.availability)
    // No availability rule: DeleteNote's own validation says why.
    #expect(menu.last?.reason == DeleteNote(id: 2).validate(in: dispatcher.model.state).summary)
    selection.set(1)
    #expect(menu.last?.isEnabled == true)
    dispatcher.dispatch(AddNote(note: Note(id: 2, title: "b")))
    selection.set(2)
    #expect(menu.last?.isEnabled == true)
    #expect(delete.trigger().isCommitted)
    // The commit is recomputed from: note 2 is gone.
    #expect(menu.last?.isEnabled == false)
    delete.cancel()
  }
}

/// A fake service: each call waits at its own gate, so a test decides when it returns.
final class SlowTitles: Sendable {
  let gates: [Gate<String>]
  init(count: Int) { gates = (0..<count).map { _ in Gate<String>() } }
  func title(_ index: Int) async throws -> String { try await gates[index].wait() }
}

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct AsyncActionControllerTests {
  func makeController(
    _ policy: ReentrancyPolicy,
    service: SlowTitles
  ) -> (ActionDispatcher<Library>, AsyncActionController<Library, Int, String>) {
    let dispatcher = ActionDispatcher(
      model: Model(Library(notes: EntityTable([Note(id: 1, title: "start")]))))
    let controller = AsyncActionController<Library, Int, String>(
      dispatcher: dispatcher, policy: policy,
      work: { index in try await service.title(index) },
      makeAction: { RenameNote(id: 1, title: $0) })
    return (dispatcher, controller)
  }

  @Test func rejectWhileRunningRefusesASecondTriggerUntilTheFirstFinishes() async {
    let service = SlowTitles(count: 2)
    let (dispatcher, controller) = makeController(.rejectWhileRunning, service: service)
    let first = controller.trigger(0)
    #expect(await service.gates[0].waitForWaiters(1))
    #expect(controller.isExecuting.value)
    #expect(controller.availability.value.reason == "Already running.")
    #expect(await controller.trigger(1).value == .rejected("Already running."))
    await service.gates[0].open(returning: "first")
    #expect(await first.value.isCommitted)
    #expect(dispatcher.model.state.notes[1]?.title == "first")
    #expect(!controller.isExecuting.value)
    #expect(controller.availability.value.isEnabled)
    controller.invalidate()
  }

  @Test func cancelPreviousNeverCommitsTheSupersededResult() async {
    let service = SlowTitles(count: 2)
    let (dispatcher, controller) = makeController(.cancelPrevious, service: service)
    let first = controller.trigger(0)
    #expect(await service.gates[0].waitForWaiters(1))
    let second = controller.trigger(1)
    #expect(await service.gates[1].waitForWaiters(1))
    await service.gates[1].open(returning: "second")
    #expect(await second.value.isCommitted)
    // The first run ignored cancellation and returns late: its result is dropped.
    await service.gates[0].open(returning: "first, late")
    #expect(await first.value == .superseded)
    #expect(dispatcher.model.state.notes[1]?.title == "second")
    #expect(dispatcher.model.revision == 1)
    controller.invalidate()
  }

  @Test func queueRunsTriggersOneAfterAnotherInOrder() async {
    let service = SlowTitles(count: 2)
    let (dispatcher, controller) = makeController(.queue, service: service)
    let first = controller.trigger(0)
    let second = controller.trigger(1)
    #expect(await service.gates[0].waitForWaiters(1))
    #expect(await service.gates[1].waiterCount == 0)
    await service.gates[1].open(returning: "second")  // kept until the second run asks
    await service.gates[0].open(returning: "first")
    #expect(await first.value == .committed(revision: 1))
    #expect(await second.value == .committed(revision: 2))
    #expect(dispatcher.model.state.notes[1]?.title == "second")
    #expect(dispatcher.log.entries.map(\.name) == ["Rename Note", "Rename Note"])
    controller.invalidate()
  }

  @Test func coalesceRunsOnceMoreWithTheLatestInputForEveryTriggerDuringARun() async {
    let service = SlowTitles(count: 4)
    let (dispatcher, controller) = makeController(.coalesce, service: service)
    let first = controller.trigger(0)
    #expect(await service.gates[0].waitForWaiters(1))
    // Three triggers during the run join one run that waits for it, with the latest input.
    let joined = [controller.trigger(1), controller.trigger(2), controller.trigger(3)]
    #expect(controller.runningCount == 2)
    #expect(controller.isExecuting.value)
    #expect(controller.availability.value.isEnabled)
    await service.gates[0].open(returning: "first")
    #expect(await first.value == .committed(revision: 1))
    #expect(await service.gates[3].waitForWaiters(1))
    #expect(await service.gates[1].waiterCount == 0)
    #expect(await service.gates[2].waiterCount == 0)
    await service.gates[3].open(returning: "latest")
    for run in joined { #expect(await run.value == .committed(revision: 2)) }
    #expect(dispatcher.model.state.notes[1]?.title == "latest")
    #expect(dispatcher.log.entries.map(\.name) == ["Rename Note", "Rename Note"])
    #expect(!controller.isExecuting.value && controller.runningCount == 0)
    controller.invalidate()
  }

  @Test func coalesceStartsAtOnceWhenIdleAndItsWaitingRunNeverStartsOnceCancelled() async {
    let service = SlowTitles(count: 3)
    let (dispatcher, controller) = makeController(.coalesce, service: service)
    let first = controller.trigger(0)
    #expect(await service.gates[0].waitForWaiters(1))
    let waiting = controller.trigger(1)
    controller.cancel()
    await service.gates[0].open(returning: "first")
    #expect(await first.value == .cancelled)
    #expect(await waiting.value == .cancelled)
    #expect(await service.gates[1].waiterCount == 0)
    // Nothing runs: the next trigger starts at once.
    let next = controller.trigger(2)
    #expect(await service.gates[2].waitForWaiters(1))
    await service.gates[2].open(returning: "next")
    #expect(await next.value == .committed(revision: 1))
    #expect(dispatcher.model.state.notes[1]?.title == "next")
    controller.invalidate()
  }

  @Test func allowConcurrentCommitsEachResultAsItFinishes() async {
    let service = SlowTitles(count: 2)
    let (dispatcher, controller) = makeController(.allowConcurrent, service: service)
    let first = controller.trigger(0)
    let second = controller.trigger(1)
    #expect(await service.gates[0].waitForWaiters(1))
    #expect(await service.gates[1].waitForWaiters(1))
    #expect(controller.runningCount == 2)
    await service.gates[1].open(returning: "second")
    #expect(await second.value == .committed(revision: 1))
    await service.gates[0].open(returning: "first")
    #expect(await first.value == .committed(revision: 2))
    #expect(dispatcher.model.state.notes[1]?.title == "first")
    controller.invalidate()
  }

  @Test func aCancelledRunNeverCommitsEvenIfItsWorkReturns() async {
    let service = SlowTitles(count: 1)
    let (dispatcher, controller) = makeController(.allowConcurrent, service: service)
    let run = controller.trigger(0)
    #expect(await service.gates[0].waitForWaiters(1))
    controller.cancel()
    await service.gates[0].open(returning: "too late")
    #expect(await run.value == .cancelled)
    #expect(dispatcher.model.revision == 0)
    #expect(!controller.isExecuting.value)
    controller.invalidate()
  }

  @Test func aFailedRunReportsTheErrorAndCommitsNothing() async {
    struct Offline: Error, CustomStringConvertible {
      var description: String { "offline" }
    }
    let service = SlowTitles(count: 1)
    let (dispatcher, controller) = makeController(.rejectWhileRunning, service: service)
    let run = controller.trigger(0)
    await service.gates[0].open(with: .failure(Offline()))
    #expect(await run.value == .failed("offline"))
    #expect(dispatcher.model.revision == 0)
    controller.invalidate()
  }

  @Test func workWithNoActionEndsUnchangedAndKeepsItsPolicy() async {
    let service = SlowTitles(count: 2)
    let dispatcher = ActionDispatcher(
      model: Model(Library(notes: EntityTable([Note(id: 1, title: "start")]))))
    var written: [String] = []
    let export = AsyncActionController<Library, Int, String>(
      dispatcher: dispatcher, name: "Export", policy: .rejectWhileRunning,
      work: { index in try await service.title(index) },
      makeAction: { title in
        written.append(title)
        return nil
      })
    let first = export.trigger(0)
    #expect(export.availability.value.reason == "Already running.")
    #expect(await export.trigger(1).value == .rejected("Already running."))
    await service.gates[0].open(returning: "file")
    #expect(await first.value == .unchanged)
    // Its result reached the main actor; nothing was dispatched or committed.
    #expect(written == ["file"])
    #expect(dispatcher.model.revision == 0)
    #expect(dispatcher.log.entries.map(\.outcome) == [.rejected("Already running.")])
    #expect(export.availability.value.isEnabled)
    #expect(!export.isExecuting.value)
    export.invalidate()
  }

  @Test func anInvalidResultIsRefusedByValidationAfterTheAwait() async {
    let service = SlowTitles(count: 1)
    let (dispatcher, controller) = makeController(.rejectWhileRunning, service: service)
    let run = controller.trigger(0)
    await service.gates[0].open(returning: "   ")
    #expect(await run.value.description == "The title must not be empty.")
    #expect(dispatcher.model.state.notes[1]?.title == "start")
    controller.invalidate()
  }

  @Test func cancelPreviousStopsExecutingOnceTheLatestRunCommits() async {
    let service = SlowTitles(count: 2)
    let (_, controller) = makeController(.cancelPrevious, service: service)
    let executing = ValueRecorder(controller.isExecuting)
    let first = controller.trigger(0)
    #expect(await service.gates[0].waitForWaiters(1))
    let second = controller.trigger(1)
    #expect(await service.gates[1].waitForWaiters(1))
    await service.gates[1].open(returning: "second")
    #expect(await second.value.isCommitted)
    // The superseded work has not returned, but nothing that can commit is running.
    #expect(controller.runningCount == 1)
    #expect(executing.last == false)
    await service.gates[0].open(returning: "first, late")
    #expect(await first.value == .superseded)
    #expect(executing.values == [false, true, false])
    executing.cancel()
    controller.invalidate()
  }

  @Test func aQueuedRunCancelledWhileWaitingNeverStartsItsWork() async {
    let service = SlowTitles(count: 2)
    let (dispatcher, controller) = makeController(.queue, service: service)
    let first = controller.trigger(0)
    let second = controller.trigger(1)
    #expect(await service.gates[0].waitForWaiters(1))
    controller.cancel()
    // Both gates open, so work that wrongly starts would return instead of hanging.
    await service.gates[1].open(returning: "second")
    await service.gates[0].open(returning: "first")
    #expect(await first.value == .cancelled)
    #expect(await second.value == .cancelled)
    #expect(await service.gates[1].arrivals == 0)
    #expect(dispatcher.model.revision == 0)
    controller.invalidate()
  }

  @Test func aRefusedTriggerIsLoggedWithItsReason() async {
    let service = SlowTitles(count: 1)
    let dispatcher = ActionDispatcher(
      model: Model(Library(notes: EntityTable([Note(id: 1, title: "start")]))))
    let controller = AsyncActionController<Library, Int, String>(
      dispatcher: dispatcher, name: "Fetch Title", policy: .rejectWhileRunning,
      work: { try await service.title($0) }, makeAction: { RenameNote(id: 1, title: $0) })
    let run = controller.trigger(0)
    #expect(await controller.trigger(0).value == .rejected("Already running."))
    #expect(
      dispatcher.log.entries.map(\.description) == ["Fetch Title: Already running. [0.0 seconds]"])
    await service.gates[0].open(returning: "fetched")
    #expect(await run.value.isCommitted)
    #expect(dispatcher.log.entries.map(\.name) == ["Fetch Title", "Rename Note"])
    controller.invalidate()
  }
}
