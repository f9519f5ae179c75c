public import Airframe
public import Foundation
public import NotesCore
public import NotesPresentation

/// The Notes app as a terminal presents it: keys in, screens out.
///
/// It presents one `NotesSession`.
///
/// ## Guarantees
///
/// - Thin: every key press becomes a gesture on the session (`NotesSession`) or a change of
///   the terminal's own view state (focus, the modal interaction, scroll offsets, the
///   editor's cursor). The app never reads the model and never writes a controller; it
///   draws the session's projections.
/// - Rendering emits no input: `render(width:height:)` runs inside `Rendering.perform` and
///   changes nothing but scroll offsets, which are presentation state.
/// - `shutdown()` closes the session (saving the editor's draft) and cancels every binding
///   the app made.
@MainActor
public final class TerminalApplication {
  /// The session every pane shows and every key acts on.
  public let session: NotesSession

  /// Whether the user asked to quit.
  public private(set) var isFinished = false
  /// Called when something shown changed outside a key press (such as sync progress).
  public var onNeedsDisplay: (@MainActor () -> Void)?
  /// Called when the user asks for the whole screen to be drawn again (Ctrl-L), in every
  /// mode: the terminal should forget what it believes is on the screen and repaint it.
  public var onRepaint: (@MainActor () -> Void)?

  /// The pane with the keyboard focus: the session's, which Delete and Rename follow.
  public internal(set) var focus: Pane {
    get { session.focusedPane.value }
    set { session.paneFocused(newValue) }
  }
  /// The modal interaction in progress.
  public internal(set) var interaction = Interaction.browsing {
    didSet {
      // A box opens scrolled to its top.
      if case .browsing = oldValue { overlayScroll = 0 }
    }
  }
  /// The note the editor showed at the last change, to scroll a newly opened one to its top.
  private var editorNote: NoteID?

  // Scroll offsets: presentation state, adjusted while rendering.
  var sidebarScroll = 0
  var listScroll = 0
  var editorScroll = 0
  /// The highlighted note of Recently Deleted, and its index when it was highlighted (see
  /// `highlightedDeletedIndex`); no note for the first.
  var deletedHighlight: (note: NoteID?, index: Int) = (nil, 0)
  /// The first line shown in the palette or the move picker.
  var overlayScroll = 0
  /// The size of the last render, for cursor movement by screen lines.
  var lastSize = (width: 80, height: 24)

  let bag = LifetimeBag(label: "TerminalApplication")
  /// The sync driver the app made for a bare model, which it stops on shutdown; `nil`
  /// when whoever opened the library owns it.
  private var ownSync: SyncDriver?

  /// Creates the app over a session.
  ///
  /// - Parameter session: The open library.
  public init(session: NotesSession) {
    self.session = session
    bindPresentations()
  }

  /// Creates the app over a model, with a session and a sync driver of its own.
  ///
  /// The app is then its own composition root: its driver syncs only when the user asks
  /// (no live sync), and ``shutdown()`` stops it.
  ///
  /// - Parameters:
  ///   - model: The Notes model.
  ///   - syncService: The service "Sync Now" talks to.
  ///   - now: The clock for modification dates.
  public convenience init(
    model: Model<NotesState>, syncService: any SyncService, now: @escaping () -> Date = { Date() }
  ) {
    let sync = SyncDriver(model: model, service: syncService)
    self.init(session: NotesSession(model: model, sync: sync, now: now, shortcut: Self.shortcut))
    ownSync = sync
  }

  /// The key that runs each command, as the palette and the help screen show it.
  public static func shortcut(_ command: SessionCommand) -> String {
    switch command {
    case .newNote: "n"
    case .newNotebook: "N"
    case .rename: "r"
    case .delete: "d or Delete"
    case .renameNote: "r (list)"
    case .renameNotebook: "r (sidebar)"
    case .moveNote: "m"
    case .togglePin: "p"
    case .deleteNote: "d (list)"
    case .deleteNotebook: "d (sidebar)"
    case .keepDeletedNote: "Ctrl-K"
    case .recentlyDeleted: "T"
    case .noteHistory: "H"
    case .search: "/"
    case .toggleSort: "o"
    case .undo: "u"
    case .redo: "U or Ctrl-R"
    case .syncNow: "s"
    case .importNotes: "I"
    case .exportNotes: "E"
    case .help: "?"
    case .quit: "q"
    }
  }

  /// Follows the session where the terminal's own view state depends on it.
  private func bindPresentations() {
    // Recently Deleted opens on its most recently deleted note, however it is selected.
    session.sidebarSelection.observe { [unowned self] selection in
      listScroll = 0
      if selection == .recentlyDeleted { deletedHighlight = (nil, 0) }
    }.store(in: bag)
    session.editorState.observe { [unowned self] state in
      if state.noteID != editorNote { editorScroll = 0 }
      editorNote = state.noteID
    }.store(in: bag)
    session.confirmations.observe { [unowned self] _ in showPendingConfirmation() }.store(in: bag)
    session.revision.observe { [weak self] _ in self?.onNeedsDisplay?() }.store(in: bag)
    // The status and title bars also change with no commit: a message from an import or
    // export that finished, a sync shown once it has lasted its delay.
    session.status.observe { [weak self] _ in self?.onNeedsDisplay?() }.store(in: bag)
    session.title.observe { [weak self] _ in self?.onNeedsDisplay?() }.store(in: bag)
  }

  /// The editor's text and cursor, as the session's editor state has them.
  var cursor: TextCursor {
    let state = session.editorState.value
    return TextCursor(text: state.body, utf8Offset: state.cursor)
  }

  /// Shows the oldest unanswered deletion confirmation, if no other interaction is open.
  func showPendingConfirmation() {
    guard interaction == .browsing, let pending = session.confirmations.pending.first else {
      return
    }
    interaction = .confirmation(pending)
  }

  /// Runs `command`'s gesture, or reports why it is unavailable.
  func run(_ command: SessionCommand) {
    let command = command.routed(to: focus)
    guard session.commandChosen(command) else { return }
    switch command {
    case .delete, .rename: break  // routed above
    case .newNote: beginPrompt(.newNote, text: "")
    case .newNotebook: beginPrompt(.newNotebook, text: "")
    case .renameNote: beginRenameNote()
    case .renameNotebook: beginRenameNotebook()
    case .moveNote: beginMove()
    case .togglePin: session.pinToggled()
    case .deleteNote: session.noteDeleted()
    case .deleteNotebook: session.notebookDeletionRequested()
    case .keepDeletedNote: session.deletedNoteKept()
    case .recentlyDeleted: showRecentlyDeleted()
    case .noteHistory: beginHistory()
    case .search:
      // The search is the note list's: Recently Deleted gives way to "All notes".
      if session.sidebarSelection.value == .recentlyDeleted { session.notebookSelected(nil) }
      beginPrompt(.search, text: session.search.value)
    case .toggleSort: session.sortToggled()
    case .undo: session.undoRequested()
    case .redo: session.redoRequested()
    case .syncNow: session.syncRequested()
    case .importNotes: beginPrompt(.importPath, text: "")
    case .exportNotes: beginPrompt(.exportPath, text: "")
    case .help: interaction = .help
    case .quit: quit()
    }
  }

  /// Asks to quit; the program saves, restores the terminal and exits.
  func quit() {
    isFinished = true
  }

  /// Saves the editor's draft and ends every binding; call it before the program exits.
  ///
  /// Calling it again does nothing.
  public func shutdown() {
    ownSync?.stop()
    bag.cancelAll()
    session.close()
  }
}
