// NotesHarness: the system under test — one Notes model with every controller an app
// would put on it, a sync service and four asynchronous commands the test drives step by
// step, and a consistency check on a manual scheduler.
//
// Nothing here waits on a clock. Each asynchronous step opens a gate and then awaits
// exactly the work that gate set free (a run's task, the sync task, or the sync
// service's acknowledgement that a progress report was written), so every interleaving is
// decided by the generated sequence alone.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore

/// A sync service that does what the test tells it, one command at a time.
final class ControlledSync: SyncService {
  enum Command: Sendable {
    case progress(Double)
    case finish(Date)
    case fail(String)
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let commands = Gate<Command>()
  /// Opened after each progress report has been written to the model.
  let reported = Gate<Bool>()

  func sync(progress: @escaping @Sendable (Double) async -> Void) async throws -> Date {
    while true {
      let command = try await commands.wait()
      try Task.checkCancellation()
      switch command {
      case .progress(let value):
        await progress(value)
        await reported.open(returning: true)
      case .finish(let date): return date
      case .fail(let message): throw Failure(description: message)
      }
    }
  }
}

/// What an asynchronous command's work waits for.
struct RunRequest: Sendable {
  let gate: Gate<ResolvedOp>
}

/// The error a released run fails with.
struct ReleasedRunError: Error, CustomStringConvertible {
  var description: String { ReferenceNotes.asyncFailure }
}

@MainActor
final class NotesHarness {
  final class Clock {
    var now = tickDate(0)
  }

  struct PendingRun {
    let gate: Gate<ResolvedOp>
    let op: ResolvedOp
    let task: Task<ActionOutcome, Never>
    /// Whether its work has started: at once, except for a queued run behind another.
    var started: Bool
    var released = false
    var cancelled = false
  }

  typealias Command = AsyncActionController<NotesState, RunRequest, ResolvedOp>

  let dispatcher: ActionDispatcher<NotesState>
  let deletion: NotebookDeletion
  let sidebar: SidebarController
  let list: NoteListController
  let title: WindowTitleController
  let status: StatusBarController
  let editor: EditorController
  let service: ControlledSync
  let syncDriver: SyncDriver
  let commands: [RunPolicy: Command]
  let newNote: ActionController<NotesState, String>
  let syncCommand: ActionController<NotesState, Void>
  let menu = CommandMenuController()
  let scheduler: TestScheduler
  let check: ConsistencyCheck<NotesState>
  let clock: Clock
  private var unsavedBinding: Lifetime?
  private(set) var syncTask: Task<Void, Never>?
  private var syncCancelled = false
  private(set) var runs: [RunPolicy: [PendingRun]] = [:]

  /// The notebook a new note goes to: the first by id.
  ///
  /// This and ``syncAvailability(_:)`` are the menu's availability rules; the reference
  /// reads the same rules.
  static func newNoteNotebook(_ state: NotesState) -> Requirement<NotebookID> {
    Requirement(state.notebooks.elements.map(\.id).min(), otherwise: "Create a notebook first.")
  }

  static func syncAvailability(_ state: NotesState) -> Requirement<Void> {
    if case .syncing = state.sync { return .unmet("Already syncing.") }
    return .met(())
  }

  init(state: NotesState) {
    let model = Model(state)
    let dispatcher = ActionDispatcher(model: model)
    let clock = Clock()
    let service = ControlledSync()
    let scheduler = TestScheduler()
    self.clock = clock
    self.service = service
    self.scheduler = scheduler
    self.dispatcher = dispatcher
    deletion = NotebookDeletion(dispatcher: dispatcher) { deletionDate }
    sidebar = SidebarController(model: model)
    list = NoteListController(model: model)
    // The reference model says what each status shows; how long a sync runs before the
    // bars show it is SyncDriverTests' subject.
    title = WindowTitleController(model: model, syncDelay: .zero)
    status = StatusBarController(model: model, syncDelay: .zero)
    editor = EditorController(dispatcher: dispatcher) { clock.now }
    syncDriver = SyncDriver(model: model, service: service)
    var commands: [RunPolicy: Command] = [:]
    for policy in RunPolicy.allCases {
      commands[policy] = Command(
        dispatcher: dispatcher, policy: policy.policy,
        work: { request in try await request.gate.wait() },
        makeAction: { $0.action })
    }
    self.commands = commands
    newNote = ActionController(dispatcher: dispatcher, requires: Self.newNoteNotebook) {
      notebook, title in CreateNote(notebookID: notebook, title: title, now: clock.now)
    }
    // Only its availability is used; syncs start through the driver.
    syncCommand = ActionController(dispatcher: dispatcher, requires: Self.syncAvailability) {
      (_: Void, _: Void) in SetNotePinned(id: NoteID(rawValue: -1), isPinned: true)
    }
    check = ConsistencyCheck(model: model, scheduler: scheduler)
    menu.add("New Note", shortcut: "n", availability: newNote.availability)
    menu.add("Sync Now", shortcut: "s", availability: syncCommand.availability)
    menu.add("Import", shortcut: "i", availability: commands[.rejectWhileRunning]!.availability)
    check.register("sidebar", sidebar)
    check.register("note list", list)
    check.register("window title", title)
    check.register("status bar", status)
    check.register("editor", editor)
    // As an app would: the window title shows the editor's unsaved marker.
    let title = title
    unsavedBinding = editor.state.observe { title.hasUnsavedEdits = $0.isDirty }
  }

  var model: Model<NotesState> { dispatcher.model }

  // MARK: - Sync

  func startSync() -> Bool {
    guard case .started(let task) = syncDriver.request(.user) else { return false }
    syncTask = task
    syncCancelled = false
    return true
  }

  /// Sends `command` to a running sync and waits until its effect is in the model.
  func send(_ command: ControlledSync.Command) async {
    guard let task = syncTask else { return }
    await service.commands.open(returning: command)
    if case .progress = command, !syncCancelled {
      _ = try? await service.reported.wait()
    } else {
      await task.value
      syncTask = nil
    }
  }

  func cancelSync() {
    guard syncTask != nil else { return }
    syncDriver.cancel()
    syncCancelled = true
  }

  // MARK: - Asynchronous commands

  /// Triggers a run; returns its outcome at once if the command refused to start it.
  func trigger(_ policy: RunPolicy, _ op: ResolvedOp) async -> ActionOutcome? {
    let command = commands[policy]!
    let gate = Gate<ResolvedOp>()
    let running = command.runningCount
    let task = command.trigger(RunRequest(gate: gate))
    guard command.runningCount > running else { return await task.value }
    let started = policy != .queue || runs[policy, default: []].isEmpty
    runs[policy, default: []].append(
      PendingRun(gate: gate, op: op, task: task, started: started))
    return nil
  }

  /// Cancels every run of `policy`; a queued run still waiting for its turn never starts.
  func cancelRuns(_ policy: RunPolicy) {
    commands[policy]!.cancel()
    for index in runs[policy, default: []].indices { runs[policy]![index].cancelled = true }
  }

  /// Lets the `index`-th unreleased run's work return, then awaits every run that can now
  /// finish (for a queue, the released runs at its head, in order).
  func release(_ policy: RunPolicy, _ index: Int, succeeds: Bool) async -> [ActionOutcome] {
    let open = runs[policy, default: []].indices.filter { !runs[policy]![$0].released }
    guard !open.isEmpty else { return [] }
    let position = open[index % open.count]
    runs[policy]![position].released = true
    let run = runs[policy]![position]
    await run.gate.open(with: succeeds ? .success(run.op) : .failure(ReleasedRunError()))
    var outcomes: [ActionOutcome] = []
    if policy == .queue {
      while let first = runs[policy]?.first, first.released || !first.started {
        runs[policy]!.removeFirst()
        outcomes.append(await first.task.value)
        if let next = runs[policy]?.first, !next.cancelled { runs[policy]![0].started = true }
      }
    } else {
      runs[policy]!.remove(at: position)
      outcomes.append(await run.task.value)
    }
    return outcomes
  }

  // MARK: - Ending

  /// Lets every run and the sync finish, then ends every binding.
  func shutdown() async {
    for policy in RunPolicy.allCases {
      let pending = runs[policy, default: []]
      for run in pending where !run.released {
        await run.gate.open(with: .failure(ReleasedRunError()))
      }
      for run in pending { _ = await run.task.value }
      runs[policy] = []
      commands[policy]?.invalidate()
    }
    if let syncTask {
      syncDriver.stop()
      await service.commands.open(returning: .finish(.distantPast))
      await syncTask.value
      self.syncTask = nil
    }
    unsavedBinding?.cancel()
    newNote.cancel()
    syncCommand.cancel()
    menu.cancel()
    check.cancel()
    sidebar.cancel()
    list.cancel()
    title.cancel()
    status.cancel()
    editor.cancel()
  }
}
