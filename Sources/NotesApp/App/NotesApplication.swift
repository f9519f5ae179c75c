// NotesApplication: the terminal presentation of one Notes model — keys in, screens out.
//
// Guarantees
// - One model, six presentations: the title bar, sidebar, note list, editor, status bar and
//   command palette each render their View State Controller's published values, which the
//   app keeps through one binder. After a key press has been handled, every pane shows the
//   same model revision.
// - Every key press becomes a gesture on an Action Controller (see `NotesCommands`) or a
//   change of view state (focus, selection, scroll, the modal interaction). Nothing writes
//   the model except the dispatcher's actions and the sync coordinator.
// - Rendering emits no input: `render(width:height:)` runs inside `Rendering.perform` and
//   changes nothing but scroll offsets, which are presentation state.
// - The note list keeps a selection while it has rows, so the editor shows a note whenever
//   there is one to show.
// - Validation failures and refused commands are reported to the status bar with their
//   reason and change nothing.
// - `shutdown()` saves the editor's draft and cancels every binding the app made.

public import Airframe
public import Foundation
public import NotesCore

/// The Notes app as a terminal presents it: keys in, screens out.
@MainActor
public final class NotesApplication {
  /// The model every presentation shows.
  public let model: Model<NotesState>
  /// Runs every action and keeps undo.
  public let dispatcher: ActionDispatcher<NotesState>
  /// The sidebar's controller.
  public let sidebar: SidebarController
  /// The note list's controller.
  public let noteList: NoteListController
  /// The editor's controller.
  public let editor: EditorController
  /// The title bar's controller.
  public let windowTitle: WindowTitleController
  /// The status bar's controller.
  public let statusBar: StatusBarController
  /// The command palette's controller.
  public let commandMenu = CommandMenuController()
  /// Deleting notebooks, with confirmation.
  public let notebookDeletion: NotebookDeletion
  /// Runs "Sync Now".
  public let syncCoordinator: SyncCoordinator
  /// The commands, each with its availability.
  private(set) var commands: NotesCommands!

  /// Whether the user asked to quit.
  public private(set) var isFinished = false
  /// Called when something shown changed outside a key press (such as sync progress).
  public var onNeedsDisplay: (@MainActor () -> Void)?
  /// Called when the user asks for the whole screen to be drawn again (Ctrl-L), in every
  /// mode: the terminal should forget what it believes is on the screen and repaint it.
  public var onRepaint: (@MainActor () -> Void)?

  /// The pane with the keyboard focus.
  public internal(set) var focus = Pane.list
  /// The modal interaction in progress.
  public internal(set) var interaction = Interaction.browsing {
    didSet {
      // A box opens scrolled to its top.
      if case .browsing = oldValue { overlayScroll = 0 }
    }
  }
  /// The editor's text and cursor while a note is open.
  var cursor = TextCursor(atEndOf: "")

  // What the panes show: the latest values the controllers published.
  var sidebarRows: [SidebarRow] = []
  var selectedNotebook: NotebookID?
  var selectedNote: NoteID?
  var editorState = EditorState.closed
  var title = "Notes"
  var status = StatusBarController.status(for: NotesState(), message: nil)
  var menuRows: [CommandRow] = []
  var listCount = 0
  /// Where the selected note was in the list, to select its neighbour when it leaves.
  var selectedIndex = 0

  // Scroll offsets: presentation state, adjusted while rendering.
  var sidebarScroll = 0
  var listScroll = 0
  var editorScroll = 0
  /// The first line shown in the palette or the move picker.
  var overlayScroll = 0
  /// The too-long message a title prompt showed as its text passed the limit, if any.
  var promptLengthWarning: String?
  /// The size of the last render, for cursor movement by screen lines.
  var lastSize = (width: 80, height: 24)

  let now: () -> Date
  let binder = Binder(label: "NotesApplication")
  let bag = LifetimeBag(label: "NotesApplication")

  /// Creates the app over a model.
  ///
  /// - Parameters:
  ///   - model: The Notes model.
  ///   - syncService: The service "Sync Now" talks to.
  ///   - now: The clock for modification dates.
  public init(
    model: Model<NotesState>, syncService: any SyncService, now: @escaping () -> Date = { Date() }
  ) {
    self.model = model
    self.now = now
    dispatcher = ActionDispatcher(model: model)
    sidebar = SidebarController(model: model)
    noteList = NoteListController(model: model)
    editor = EditorController(dispatcher: dispatcher, now: now)
    windowTitle = WindowTitleController(model: model)
    statusBar = StatusBarController(model: model)
    notebookDeletion = NotebookDeletion(dispatcher: dispatcher)
    syncCoordinator = SyncCoordinator(model: model, service: syncService)
    commands = NotesCommands(app: self)
    bindPresentations()
    if noteList.lens.count > 0 { noteList.lens.select(noteList.lens.row(at: 0).id) }
  }

  /// Connects the presentations to their controllers, and the controllers to each other.
  private func bindPresentations() {
    // Wiring: one controller's view state drives another's (not rendering).
    sidebar.selection.observe { [unowned self] notebook in
      selectedNotebook = notebook
      selectedIndex = 0
      noteList.notebook = notebook
      windowTitle.notebook = notebook
      listScroll = 0
    }.store(in: bag)
    noteList.lens.selection.observe { [unowned self] note in
      // The list keeps a selection while it has rows: when the selected note leaves it
      // (deleted, moved, filtered out), the note now in its place is selected.
      if note == nil, noteList.lens.count > 0 {
        noteList.lens.select(noteList.lens.row(at: min(selectedIndex, noteList.lens.count - 1)).id)
        return
      }
      if let note, let index = noteList.lens.index(of: note) { selectedIndex = index }
      guard note != selectedNote else { return }
      selectedNote = note
      editor.open(note)
      windowTitle.note = note
      editorScroll = 0
    }.store(in: bag)
    noteList.lens.updates.observe { [unowned self] update in
      // Rows came back (a search cleared, a note added) while nothing was selected.
      if update.count > 0, noteList.lens.selection.value == nil {
        noteList.lens.select(noteList.lens.row(at: min(selectedIndex, update.count - 1)).id)
      }
    }.store(in: bag)
    editor.state.observe { [unowned self] state in
      windowTitle.hasUnsavedEdits = state.isDirty
    }.store(in: bag)
    notebookDeletion.confirmations.observe { [unowned self] _ in
      showPendingConfirmation()
    }.store(in: bag)
    model.observeCommits { [weak self] _ in self?.onNeedsDisplay?() }.store(in: bag)

    // Rendering: keep what each pane shows.
    binder.bind { connect in
      connect.render(sidebar.rows) { [unowned self] in sidebarRows = $0 }
      connect.render(noteList.lens.updates) { [unowned self] in listCount = $0.count }
      connect.render(editor.state) { [unowned self] state in
        if state.noteID != editorState.noteID || state.body != cursor.text {
          // The same note keeps its cursor place; another note opens with it at the end.
          cursor =
            state.noteID == editorState.noteID
            ? TextCursor(text: state.body, utf8Offset: cursor.utf8Offset)
            : TextCursor(atEndOf: state.body)
        }
        editorState = state
      }
      connect.render(windowTitle.title) { [unowned self] in title = $0 }
      connect.render(statusBar.status) { [unowned self] in status = $0 }
      connect.render(commandMenu.rows) { [unowned self] in menuRows = $0 }
    }
  }

  /// Shows the oldest unanswered deletion confirmation, if no other interaction is open.
  func showPendingConfirmation() {
    guard interaction == .browsing,
      let pending = notebookDeletion.confirmations.pending.first
    else { return }
    interaction = .confirmation(pending)
  }

  /// Reports what a gesture did to the status bar.
  func report(_ outcome: ActionOutcome) {
    statusBar.report(outcome)
  }

  /// Reports a gesture that says what it did: `done` when it committed, else the outcome.
  func report(_ outcome: ActionOutcome, done: @autoclosure () -> String) {
    if outcome.isCommitted { statusBar.inform(done()) } else { report(outcome) }
  }

  /// Undoes or redoes the last step and says which.
  func undoOrRedo(redo: Bool) {
    let names = dispatcher.undoAvailability.value
    guard let name = redo ? names.redoName : names.undoName else {
      report(redo ? dispatcher.redo() : dispatcher.undo())
      return
    }
    report(
      redo ? dispatcher.redo() : dispatcher.undo(),
      done: "\(redo ? "Redid" : "Undid") “\(name)” — \(redo ? "u undoes it" : "U redoes it")")
  }

  /// Asks to quit; the program saves, restores the terminal and exits.
  func quit() {
    isFinished = true
  }

  /// Saves the editor's draft and ends every binding; call it before the program exits.
  ///
  /// Calling it again does nothing.
  public func shutdown() {
    if editorState.isDirty { report(editor.save()) }
    syncCoordinator.cancel()
    binder.cancel()
    bag.cancelAll()
    commands.cancel()
    commandMenu.cancel()
    sidebar.cancel()
    noteList.cancel()
    editor.cancel()
    windowTitle.cancel()
    statusBar.cancel()
  }
}
