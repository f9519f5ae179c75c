public import Airframe
public import Foundation
@_spi(Instrumentation) public import NotesCore

/// One presentation of an open Notes library: what it shows and every gesture it can make.
///
/// It holds the View State Controllers, the commands, the wiring between them, the gestures,
/// and what to show.
///
/// Each presentation (a desktop window, the terminal app, a test) has a session of its own,
/// over the ``LibrarySession`` that every presentation of the library shares. It reads
/// what to draw from its session's projections, and turns each user gesture into one of its
/// gesture methods, such as ``notebookSelected(_:)`` or ``bodyTyped(_:cursor:)``:
///
/// ```swift
/// let session = NotesSession(model: model, sync: SyncDriver(model: model, service: service))
/// session.searchTyped("grocer")
/// let shown = session.list.count          // the notes that match
/// session.noteSelected(session.list.row(at: 0).id)
/// session.bodyTyped("Milk, eggs")         // saved, one undo step per typing run
/// session.close()
/// ```
///
/// ## Guarantees
///
/// - Each presentation its own view state: the selected notebook and note, the search, the
///   sort, the editor's draft and cursor, the window title and the status bar's message
///   belong to one session, so two windows show two notes. The library's state, its undo
///   history and its pending confirmations are the ``LibrarySession``'s: a change made in
///   one session (a rename, a deletion, an undo) reaches every session of the library in
///   the same commit, as one from another process or device does.
/// - One home for presentation logic: the six View State Controllers (sidebar, note list,
///   editor, window title, status bar, command menu), the command controllers and the
///   wiring between them (the sidebar's selection filters the list and names the window;
///   the list's selection opens the editor) are made and connected here, once, for any
///   presentation.
/// - Every change a user makes is a gesture method (see NotesSession+Gestures.swift) that
///   goes through an action controller or the dispatcher, so it is validated, undoable and
///   in the action log. A gesture that changes the library dispatches exactly one action
///   (or one undo or redo step) and reports the outcome to the status bar: a refusal
///   changes nothing and shows its reason (in ``status``); a committed delete, undo or redo
///   says what it did, with the hint in the presentation's own keys ("— u to undo" in the
///   terminal, "— Ctrl+Z to undo" in a window, none where it gave no key).
/// - The session owns the outcomes' messages: a presentation cannot report an outcome
///   again (`report` is not public), and shows only messages of its own through
///   ``inform(_:)``.
/// - A gesture on a command that is unavailable is refused with the availability's reason.
/// - View-state gestures (selection, search, sort) change only view state.
/// - After any gesture returns, every projection shows the model's latest revision.
/// - The editor changes note only by this session's gestures. When one of them takes the
///   selected note out of the list (deleting or moving it, a search, another notebook, an
///   undo), the note now in its place is selected and opened, so the editor shows a note
///   whenever there is one to show. When anything else does (another window, process or
///   device deletes or moves it; the user's own typing or rename makes it stop matching the
///   search), the editor keeps the note: the list then has no selection until the user
///   chooses one, a deleted note shows as deleted (saving refused) and the status bar says
///   so, and keys typed into the editor never reach a note the user did not choose; what
///   the editor shows can be kept as a new note (``deletedNoteKept()``). The note listed
///   again (the deletion undone, the search cleared) is selected again.
/// - Presentations read projections (state sources, the read-only list, pending
///   confirmations) and never the model's state or a controller's setters.
/// - `close()` saves the editor's draft and cancels every binding the session made; a
///   session made from a model (``init(model:sync:now:shortcut:syncDelay:scheduler:)``)
///   closes the library session it made too.
@MainActor
public final class NotesSession {
  /// What every presentation of the library shares.
  public let library: LibrarySession
  /// The library's model (internal: presentations reach it only through projections).
  let model: Model<NotesState>
  /// Runs every action and keeps the library's undo history.
  let dispatcher: ActionDispatcher<NotesState>
  /// The sidebar's controller.
  let sidebar: SidebarController
  /// The note list's controller.
  let noteList: NoteListController
  /// The editor's controller.
  let editor: EditorController
  /// The window title's controller.
  let windowTitle: WindowTitleController
  /// The status bar's controller.
  let statusBar: StatusBarController
  /// The command menu's controller.
  let commandMenu = CommandMenuController()
  /// Deleting notebooks, with the confirmations every session of the library shares.
  var notebookDeletion: NotebookDeletion { library.notebookDeletion }
  /// The library's sync driver, which the session only asks for a sync (Sync Now).
  var sync: SyncDriver { library.sync }
  /// The commands that change the library, each with its availability.
  private(set) var commands: CommandControllers!
  /// Importing and exporting files.
  private(set) var files: FileCommands!
  /// The clock for modification dates.
  var now: () -> Date { library.now }
  /// The key that runs each command in this presentation, as it gave them: the hints of
  /// its messages name its own keys ("Ctrl+Z to undo" in a window, "u to undo" in the
  /// terminal).
  let shortcuts: [SessionCommand: String]

  /// Where the selected note was in the list, to select its neighbour when it leaves.
  var selectedIndex = 0
  /// Whether a gesture of this session that may take the selected note out of the list
  /// runs: the list then moves on to its neighbour, instead of the editor keeping it.
  var movesOnToNeighbour = false
  /// The pane with this presentation's keyboard, as it last said.
  let focusSource = StateSource(Pane.list)
  /// The note the list's selection last opened in the editor.
  private var shownNote: NoteID?
  /// The too-long message a title draft showed as it passed the limit, if any.
  var titleLengthWarning: String?
  /// The note whose rename the user began, and the title it began from.
  var renameBase: RenameBase?
  /// Whether ``close()`` closes ``library`` too: it does when the session made it.
  private let ownsLibrary: Bool
  private var isClosed = false
  private let bag = LifetimeBag(label: "NotesSession")

  /// Opens a presentation's session over a library that several presentations share.
  ///
  /// The session starts on the first note of "All notes"; ``show(sameAs:)`` starts it
  /// where another presentation is.
  ///
  /// - Parameters:
  ///   - library: What every presentation of the library shares; its owner closes it
  ///     after this session.
  ///   - shortcut: The key that runs each command in this presentation, as its menu shows
  ///     it; none by default.
  ///   - syncDelay: How long a sync runs before the title and the status bar show it.
  ///   - scheduler: Where that delay passes.
  public convenience init(
    library: LibrarySession, shortcut: (SessionCommand) -> String = { _ in "" },
    syncDelay: Duration = SyncDisplay.standardDelay, scheduler: any WorkScheduler = .mainActor
  ) {
    self.init(
      library: library, owningIt: false, shortcut: shortcut, syncDelay: syncDelay,
      scheduler: scheduler)
  }

  /// Opens the only presentation's session over a model: it makes the library session and
  /// closes it with itself.
  ///
  /// - Parameters:
  ///   - model: The library's model.
  ///   - sync: The library's sync driver, which "Sync Now" asks.
  ///   - now: The clock for modification dates.
  ///   - shortcut: The key that runs each command in this presentation, as its menu shows
  ///     it; none by default.
  ///   - syncDelay: How long a sync runs before the title and the status bar show it.
  ///   - scheduler: Where that delay passes.
  public convenience init(
    model: Model<NotesState>, sync: SyncDriver, now: @escaping () -> Date = { Date() },
    shortcut: (SessionCommand) -> String = { _ in "" },
    syncDelay: Duration = SyncDisplay.standardDelay, scheduler: any WorkScheduler = .mainActor
  ) {
    self.init(
      library: LibrarySession(model: model, sync: sync, now: now), owningIt: true,
      shortcut: shortcut, syncDelay: syncDelay, scheduler: scheduler)
  }

  private init(
    library: LibrarySession, owningIt: Bool, shortcut: (SessionCommand) -> String,
    syncDelay: Duration, scheduler: any WorkScheduler
  ) {
    self.library = library
    ownsLibrary = owningIt
    model = library.model
    dispatcher = library.dispatcher
    sidebar = SidebarController(model: model)
    noteList = NoteListController(model: model)
    editor = EditorController(dispatcher: dispatcher, now: library.now)
    windowTitle = WindowTitleController(model: model, syncDelay: syncDelay, scheduler: scheduler)
    statusBar = StatusBarController(model: model, syncDelay: syncDelay, scheduler: scheduler)
    shortcuts = Dictionary(uniqueKeysWithValues: SessionCommand.allCases.map { ($0, shortcut($0)) })
    files = FileCommands(session: self)
    commands = CommandControllers(session: self)
    commands.list(in: commandMenu, shortcut: shortcut)
    connect()
    if noteList.lens.count > 0 { noteList.lens.select(noteList.lens.row(at: 0).id) }
  }

  /// Connects the controllers to each other: one's view state drives another's.
  private func connect() {
    // Recently Deleted leaves the list and the editor as they were: they show again, as
    // they were, when the user goes back to the notes.
    sidebar.listedNotebook.observe { [unowned self] notebook in
      selectedIndex = 0
      noteList.notebook = notebook
      windowTitle.notebook = notebook
    }.store(in: bag)
    sidebar.selection.observe { [unowned self] selection in
      windowTitle.showsRecentlyDeleted = selection == .recentlyDeleted
    }.store(in: bag)
    noteList.lens.selection.observe { [unowned self] note in
      if note == nil, shownNote != nil, !movesOnToNeighbour {
        // The open note left the list by someone else's change (or stopped matching the
        // search as the user typed): the editor keeps it.
        if let shownNote, model.state.notes[shownNote] == nil {
          let title = BidiIsolation.isolate(editor.state.value.title)
          statusBar.inform(
            "“\(title)” was deleted elsewhere" + hint(.keepDeletedNote, "keeps it as a new note"))
        }
        return
      }
      // A gesture of this session took the selected note out: the note now in its place
      // is selected.
      if note == nil, noteList.lens.count > 0 {
        noteList.lens.select(noteList.lens.row(at: min(selectedIndex, noteList.lens.count - 1)).id)
        return
      }
      if let note, let index = noteList.lens.index(of: note) { selectedIndex = index }
      // The window title forgets a note that is removed; one the editor kept, listed again,
      // names the window again.
      windowTitle.note = note
      guard note != shownNote else { return }
      shownNote = note
      editor.open(note)
    }.store(in: bag)
    noteList.lens.updates.observe { [unowned self] update in
      guard update.count > 0, noteList.lens.selection.value == nil else { return }
      if let shownNote, noteList.lens.row(for: shownNote) != nil {
        // The note the editor kept is listed again (its deletion undone, the search
        // cleared): it is the selection again.
        noteList.lens.select(shownNote)
      } else if shownNote == nil || movesOnToNeighbour {
        // Rows came back (a search cleared, a note added) while nothing was open.
        noteList.lens.select(noteList.lens.row(at: min(selectedIndex, update.count - 1)).id)
      }
    }.store(in: bag)
    editor.state.observe { [unowned self] state in
      windowTitle.hasUnsavedEdits = state.isDirty
    }.store(in: bag)
  }

  /// Shows what `other` shows: its notebook, search, sort, selected note and cursor.
  ///
  /// A new window starts where the window it was opened from is, then goes its own way.
  ///
  /// - Parameter other: Another session of the same library.
  public func show(sameAs other: NotesSession) {
    precondition(other.library === library, "a session of another library")
    restore(other.savedViewState)
  }

  /// Runs a gesture that may take the selected note out of the list: the list moves on to
  /// its neighbour rather than the editor keeping the note.
  func movingOn<Result>(_ gesture: () -> Result) -> Result {
    let outer = movesOnToNeighbour
    movesOnToNeighbour = true
    defer { movesOnToNeighbour = outer }
    return gesture()
  }

  // MARK: - What presentations show

  /// The latest model revision, published after every commit (local, undo, another
  /// process's or sync's): a presentation that draws on demand redraws when it moves.
  public var revision: some StateProjection<Int> { library.revision }
  /// The notebooks, in sidebar order.
  public var notebooks: some StateProjection<[SidebarRow]> { sidebar.rows }
  /// The pane with this presentation's keyboard, as it last said.
  ///
  /// The list at first, then the pane of the last ``paneFocused(_:)``. Delete and Rename
  /// act on what it shows.
  public var focusedPane: some StateProjection<Pane> { focusSource }
  /// What the sidebar has selected: "All notes", a notebook, or Recently Deleted.
  ///
  /// While Recently Deleted is selected, a presentation shows ``recentlyDeleted`` where it
  /// shows ``list``, and the commands that act on the selected note are unavailable; the
  /// list, its selection and the editor stay as they were, to show again when the user
  /// selects "All notes" or a notebook.
  public var sidebarSelection: some StateProjection<SidebarSelection> { sidebar.selection }
  /// The selected notebook; `nil` while "All notes" or Recently Deleted is selected.
  public var selectedNotebook: some StateProjection<NotebookID?> { sidebar.selectedNotebook }
  /// The notes listed: the selected notebook's (or all), matching the search, in order.
  public var list: NoteListView { NoteListView(controller: noteList) }
  /// The selected note.
  public var selectedNote: some StateProjection<NoteID?> { noteList.lens.selection }
  /// The open note, its draft and whether it needs the user (conflict, deleted).
  public var editorState: some StateProjection<EditorState> { editor.state }
  /// The window title.
  public var title: some StateProjection<String> { windowTitle.title }
  /// The status bar: counts, sync state and the latest message.
  public var status: some StateProjection<StatusBar> { statusBar.status }
  /// Every command with its shortcut and availability, for a palette or menu.
  public var menu: some StateProjection<[CommandRow]> { commandMenu.rows }
  /// Deletions waiting for the user's yes or no, oldest first; answer with
  /// ``deletionAnswered(_:confirmed:)``.
  public var confirmations: PendingOutcomes<DeletionConfirmation> {
    notebookDeletion.confirmations
  }
  /// The names of the steps undo and redo would take back or do again.
  public var undoNames: some StateProjection<ActionDispatcher<NotesState>.UndoAvailability> {
    dispatcher.undoAvailability
  }
  /// Whether a sync is running, as the model says.
  public var isSyncing: Bool {
    if case .syncing = model.state.sync { true } else { false }
  }

  /// The number of notes in the library.
  public var noteCount: Int { model.state.notes.count }

  /// The title of a note, or `nil` if there is no such note.
  ///
  /// - Parameter id: A note's id.
  /// - Returns: Its title.
  public func title(of id: NoteID) -> String? { model.state.notes[id]?.title }

  /// The title of a notebook, or `nil` if there is no such notebook.
  ///
  /// - Parameter id: A notebook's id.
  /// - Returns: Its title.
  public func title(of id: NotebookID) -> String? { model.state.notebooks[id]?.title }

  /// The notebooks a note can move to: every notebook but its own, in sidebar order.
  ///
  /// - Parameter note: A note's id.
  /// - Returns: The notebooks.
  public func moveTargets(for note: NoteID) -> [SidebarRow] {
    let current = model.state.notes[note]?.notebookID
    return sidebar.rows.value.filter { $0.id != current }
  }

  /// Whether `command` can run now, and why not.
  ///
  /// - Parameter command: A command.
  /// - Returns: Its availability, published whenever it changes.
  public func availability(of command: SessionCommand) -> any StateProjection<Availability> {
    commands.availability(of: command)
  }

  /// Each View State Controller with its name, for a consistency check, and for
  /// benchmarks that check each controller's revision between timed steps.
  @_spi(Instrumentation) public var viewStateControllers:
    [(name: String, controller: any ViewStateController)]
  {
    [
      ("sidebar", sidebar), ("note list", noteList), ("editor", editor),
      ("window title", windowTitle), ("status bar", statusBar),
    ]
  }

  /// A consistency check over every View State Controller of the session, by revision and
  /// by content (each controller's output against a recomputation from the model).
  ///
  /// The program runs it after each redraw when asked to (`AIRFRAME_CONSISTENCY_LOG`);
  /// tests run it after each step. Cancel it before the session closes.
  ///
  /// - Parameter scheduler: Where the check after each commit runs.
  /// - Returns: The check, with every controller registered.
  public func makeConsistencyCheck(scheduler: any WorkScheduler = .mainActor)
    -> ConsistencyCheck<NotesState>
  {
    let check = ConsistencyCheck(model: model, scheduler: scheduler)
    for (name, controller) in viewStateControllers { check.register(name, controller) }
    return check
  }

  // MARK: - Lifetime

  /// Saves the editor's draft and ends every binding; call it before the library closes.
  ///
  /// A session made from a model closes the library session it made too. Calling it again
  /// does nothing.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    if editor.state.value.isDirty { statusBar.report(editor.save()) }
    bag.cancelAll()
    commands.cancel()
    files.cancel()
    commandMenu.cancel()
    sidebar.cancel()
    noteList.cancel()
    editor.cancel()
    windowTitle.cancel()
    statusBar.cancel()
    if ownsLibrary { library.close() }
  }
}

/// The note a rename began on, and the title it began from.
struct RenameBase {
  let note: NoteID
  let title: String
}
