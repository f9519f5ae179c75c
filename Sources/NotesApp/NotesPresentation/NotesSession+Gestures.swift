// The gestures of a Notes session: every change a user can make, named after what the
// user did, each going through an action controller or the dispatcher (the guarantees are
// on `NotesSession`).

public import Airframe
@_spi(Instrumentation) public import NotesCore

extension NotesSession {
  // MARK: - Selection, search and order

  /// The user selected a notebook in the sidebar (`nil`: "All notes").
  ///
  /// - Parameter id: The notebook, or `nil`.
  public func notebookSelected(_ id: NotebookID?) {
    movingOn { _ = sidebar.select(id) }
  }

  /// The user selected Recently Deleted in the sidebar: a presentation lists its notes
  /// (``recentlyDeleted``) in place of the note list.
  ///
  /// The editor's typing run ends, so what was typed is saved as one undo step before the
  /// editor is hidden.
  public func recentlyDeletedSelected() {
    typingEnded()
    sidebar.select(.recentlyDeleted)
  }

  /// The user left Recently Deleted (Esc): the notes show again.
  ///
  /// The sidebar selects what the list shows, "All notes" or the notebook selected before.
  /// Outside Recently Deleted it does nothing.
  public func recentlyDeletedLeft() {
    guard sidebar.selection.value == .recentlyDeleted else { return }
    sidebar.select(sidebar.listedNotebook.value)
  }

  /// The user selected a note in the list.
  ///
  /// - Parameter id: A listed note.
  /// - Returns: `false`, changing nothing, if the note is not listed.
  @discardableResult
  public func noteSelected(_ id: NoteID) -> Bool {
    movingOn { noteList.lens.select(id) }
  }

  /// The user typed in the search field: the list shows the notes matching `text`.
  ///
  /// The same text again changes nothing (a field that reports its text late, after the
  /// session set it, is no new search).
  ///
  /// - Parameter text: The whole search text; empty lists every note of the notebook.
  public func searchTyped(_ text: String) {
    guard text != noteList.search else { return }
    selectedIndex = 0
    movingOn { noteList.search = text }
  }

  /// The search text, published whenever it changes: typed, cleared for a new note,
  /// restored, or taken from the window a new one was opened from.
  public var search: some StateProjection<String> { noteList.searchText }

  /// Waits until every note can be searched at full speed.
  ///
  /// The note list writes the search signatures of the notes it starts with on another
  /// core after the session is created, so the first screen does not wait for them; the
  /// first search waits if they are not done. Call it to wait at a moment of your choosing.
  public func waitUntilSearchable() { noteList.waitUntilSearchable() }

  /// The list's order after pinned notes.
  public var sort: NoteSort { noteList.sort }

  /// The user switched the list between date and title order.
  public func sortToggled() {
    noteList.sort = noteList.sort == .modified ? .title : .modified
  }

  // MARK: - Notes and notebooks

  /// The user asked for a new note titled `title` in the selected notebook (else the
  /// selected note's, else the first); it is selected and opened in the editor.
  ///
  /// If the new note would not be listed (a search hides it, or another notebook is
  /// shown), the search is cleared and its notebook selected first.
  ///
  /// - Parameter title: The title typed.
  /// - Returns: The outcome.
  @discardableResult
  public func noteCreated(titled title: String) -> ActionOutcome {
    movingOn { createNote(titled: title) }
  }

  private func createNote(titled title: String) -> ActionOutcome {
    let outcome = commands.newNote.trigger(title)
    report(outcome)
    showCreated(outcome)
    return outcome
  }

  /// Selects and opens the note `outcome` created, clearing the search or choosing its
  /// notebook first if the list would not show it.
  private func showCreated(_ outcome: ActionOutcome) {
    guard let id = outcome.createdID(in: \NotesState.notes) else { return }
    reveal(id)
  }

  /// Selects and opens note `id`, clearing the search or choosing its notebook first if
  /// the list would not show it.
  func reveal(_ id: NoteID) {
    if sidebar.selection.value == .recentlyDeleted {
      sidebar.select(model.state.notes[id]?.notebookID)
    }
    if noteList.lens.row(for: id) == nil, !noteList.search.isEmpty { searchTyped("") }
    if noteList.lens.row(for: id) == nil { sidebar.select(model.state.notes[id]?.notebookID) }
    noteList.lens.select(id)
  }

  /// The user kept the open note, deleted elsewhere while it was open: it comes back as a
  /// new note with the title and text the editor shows, in its notebook (or the first
  /// one, if that was deleted too), selected and open.
  ///
  /// Nothing the editor showed is lost to another's deletion. Refused with the reason when
  /// the open note was not deleted (see ``SessionCommand/keepDeletedNote``).
  ///
  /// - Returns: The outcome.
  @discardableResult
  public func deletedNoteKept() -> ActionOutcome {
    let title = BidiIsolation.isolate(editor.state.value.title)
    return movingOn {
      let outcome = commands.keepDeletedNote.trigger()
      report(outcome, done: "Kept “\(title)” as a new note" + hint(.undo, "to undo"))
      showCreated(outcome)
      return outcome
    }
  }

  /// The user asked for a new notebook titled `title`; it is selected.
  ///
  /// - Parameter title: The title typed.
  /// - Returns: The outcome.
  @discardableResult
  public func notebookCreated(titled title: String) -> ActionOutcome {
    let outcome = commands.newNotebook.trigger(title)
    report(outcome)
    if let id = outcome.createdID(in: \NotesState.notebooks) { notebookSelected(id) }
    return outcome
  }

  /// The user began renaming the selected note (opened a rename prompt, or put the
  /// keyboard in its title field): a rename committed later is based on the title it has
  /// now.
  ///
  /// The session remembers that title, so a presentation never hands it back: if the note
  /// is renamed elsewhere (another window, process or device) before the user commits,
  /// ``noteRenamed(to:)`` is refused with a reason instead of overwriting that rename.
  /// Beginning again starts from the title the note has then.
  ///
  /// - Returns: The note's title, to start a prompt with; `nil` when no note is selected.
  @discardableResult
  public func noteRenameBegan() -> String? {
    guard let id = noteList.lens.selection.value, let title = model.state.notes[id]?.title
    else {
      renameBase = nil
      return nil
    }
    renameBase = RenameBase(note: id, title: title)
    return title
  }

  /// The user renamed the selected note to `title`.
  ///
  /// Based on the title the rename began from (``noteRenameBegan()``): if the note was
  /// renamed elsewhere since, the rename is refused with a reason and changes nothing. A
  /// rename that began on another note, or never began (a script), is based on the title
  /// the note has now. A committed rename is the base of the next one in the same field.
  ///
  /// - Parameter title: The new title.
  /// - Returns: The outcome.
  @discardableResult
  public func noteRenamed(to title: String) -> ActionOutcome {
    let note = noteList.lens.selection.value
    let base = renameBase.flatMap { $0.note == note ? $0.title : nil }
    let outcome = commands.renameNote.trigger(RenameInput(title: title, basedOn: base))
    report(outcome)
    if outcome.isCommitted, let note, let renamed = model.state.notes[note]?.title {
      renameBase = RenameBase(note: note, title: renamed)
    }
    return outcome
  }

  /// The user renamed the selected notebook to `title`.
  ///
  /// - Parameter title: The new title.
  /// - Returns: The outcome.
  @discardableResult
  public func notebookRenamed(to title: String) -> ActionOutcome {
    let outcome = commands.renameNotebook.trigger(title)
    report(outcome)
    return outcome
  }

  /// The user moved the selected note to `notebook`.
  ///
  /// - Parameter notebook: The notebook it goes to.
  /// - Returns: The outcome.
  @discardableResult
  public func noteMoved(to notebook: NotebookID) -> ActionOutcome {
    let outcome = movingOn { commands.moveNote.trigger(notebook) }
    report(outcome)
    return outcome
  }

  /// The user pinned or unpinned the selected note.
  ///
  /// - Returns: The outcome.
  @discardableResult
  public func pinToggled() -> ActionOutcome {
    let outcome = commands.togglePin.trigger()
    report(outcome)
    return outcome
  }

  /// The user deleted the selected note.
  ///
  /// - Returns: The outcome; when committed the status bar says what was deleted.
  @discardableResult
  public func noteDeleted() -> ActionOutcome {
    let title = noteList.lens.selection.value.flatMap { model.state.notes[$0]?.title } ?? ""
    let outcome = movingOn { commands.deleteNote.trigger() }
    report(outcome, done: "Deleted “\(BidiIsolation.isolate(title))”" + hint(.undo, "to undo"))
    return outcome
  }

  /// The user asked to delete the selected notebook: an empty one is deleted at once; one
  /// with notes waits for ``deletionAnswered(_:confirmed:)`` (see ``confirmations``).
  ///
  /// - Returns: The outcome; `.unchanged` while a confirmation is pending.
  @discardableResult
  public func notebookDeletionRequested() -> ActionOutcome {
    let availability = commands.availability(of: .deleteNotebook).value
    guard availability.isEnabled, let id = sidebar.selection.value.notebook else {
      let outcome = ActionOutcome.invalid(ValidationResult(availability.issues))
      report(outcome)
      return outcome
    }
    let title = model.state.notebooks[id]?.title ?? ""
    let outcome = movingOn { notebookDeletion.deleteRequested(id) }
    report(
      outcome,
      done: "Deleted the notebook “\(BidiIsolation.isolate(title))”" + hint(.undo, "to undo"))
    return outcome
  }

  /// The user answered a deletion confirmation.
  ///
  /// - Parameters:
  ///   - id: The confirmation.
  ///   - confirmed: Whether the user said yes; only then are the notebook and its notes
  ///     deleted.
  /// - Returns: The outcome.
  @discardableResult
  public func deletionAnswered(_ id: DeletionConfirmation.ID, confirmed: Bool) -> ActionOutcome {
    let notebook = confirmations.pending.first { $0.id == id }?.notebookID
    let title = notebook.flatMap { model.state.notebooks[$0]?.title } ?? ""
    let outcome = movingOn { notebookDeletion.answer(id, confirmed: confirmed) }
    report(
      outcome,
      done: "Deleted the notebook “\(BidiIsolation.isolate(title))” and its notes"
        + hint(.undo, "to undo"))
    return outcome
  }

  // MARK: - The editor

  /// The user typed or pasted into the open note: `body` is its whole new text, and
  /// `cursor` where the cursor is after the edit.
  ///
  /// One edit is one save, as part of the current typing run (one undo step per run), and
  /// one publication of the editor's state. A save that is refused reports why and keeps
  /// the draft.
  ///
  /// - Parameters:
  ///   - body: The note's text after the edit.
  ///   - cursor: The cursor after the edit, as a UTF-8 offset into `body`; the end of the
  ///     text by default.
  /// - Returns: The save's outcome.
  @discardableResult
  public func bodyTyped(_ body: String, cursor: Int? = nil) -> ActionOutcome {
    let outcome = editor.bodyTyped(body, cursor: cursor)
    if outcome.isCommitted || outcome == .unchanged {
      if statusBar.status.value.message != nil { report(outcome) }
    } else {
      report(outcome)
    }
    return outcome
  }

  /// The user moved the editor's cursor.
  ///
  /// - Parameter offset: The new place, as a UTF-8 offset into the body (rounded down to
  ///   the start of a character).
  public func cursorMoved(to offset: Int) {
    editor.cursorMoved(to: offset)
  }

  /// The user stopped typing in the editor: the next edit starts a new undo step.
  public func typingEnded() {
    editor.endTypingRun()
  }

  /// The keyboard moved to `pane`: Delete and Rename now act on what it shows, and their
  /// labels say so.
  ///
  /// The keyboard leaving the editor ends its typing run (``typingEnded()``): typing after
  /// coming back is a new undo step.
  ///
  /// - Parameter pane: The pane that has the keyboard now.
  public func paneFocused(_ pane: Pane) {
    if focusSource.value == .editor, pane != .editor { typingEnded() }
    focusSource.set(pane)
  }

  /// The user resolved the open note's conflict: `keepMine` keeps the draft, otherwise the
  /// other version is taken.
  ///
  /// - Parameter keepMine: Whether to keep the draft.
  public func conflictResolved(keepingMine keepMine: Bool) {
    guard editor.state.value.conflict != nil else { return }
    if keepMine { editor.keepMine() } else { editor.takeTheirs() }
  }

  // MARK: - Undo, sync, messages

  /// The user asked to undo the last step; the status bar says which.
  ///
  /// - Returns: The outcome.
  @discardableResult
  public func undoRequested() -> ActionOutcome { undoOrRedo(redo: false) }

  /// The user asked to redo the last undone step; the status bar says which.
  ///
  /// - Returns: The outcome.
  @discardableResult
  public func redoRequested() -> ActionOutcome { undoOrRedo(redo: true) }

  private func undoOrRedo(redo: Bool) -> ActionOutcome {
    movingOn { undoOrRedoStep(redo: redo) }
  }

  private func undoOrRedoStep(redo: Bool) -> ActionOutcome {
    let names = dispatcher.undoAvailability.value
    guard let name = redo ? names.redoName : names.undoName else {
      let outcome = redo ? dispatcher.redo() : dispatcher.undo()
      report(outcome)
      return outcome
    }
    let outcome = redo ? dispatcher.redo() : dispatcher.undo()
    report(
      outcome,
      done: redo
        ? "Redid “\(name)”" + hint(.undo, "undoes it")
        : "Undid “\(name)”" + hint(.redo, "redoes it"))
    return outcome
  }

  /// The user asked to sync now; progress shows in the title and status bars.
  ///
  /// The library's sync driver decides: while a sync runs, the request is refused and the
  /// status bar says why.
  public func syncRequested() {
    if case .refused(let reason) = sync.request(.user) { report(.rejected(reason)) }
  }

  /// The user asked to import the file or folder at `path`: the JSON of an export, or a
  /// folder of Markdown and text files (see `MarkdownImport`).
  ///
  /// The files are read off the main actor; their notes are added in one step, all or
  /// nothing, undoable. An import asked for while another runs follows it (policy
  /// `.queue`). The status bar says what was imported, or why nothing was.
  ///
  /// - Parameter path: The file or folder.
  /// - Returns: The run; its value is the outcome, once reported.
  @discardableResult
  public func importRequested(from path: String) -> Task<ActionOutcome, Never> {
    files.importFiles(at: path)
  }

  /// The user asked to export the library as Markdown files into the folder `path`, which
  /// must be new or empty (see `MarkdownExport`).
  ///
  /// The library is exported as it is now; the files are written off the main actor. An
  /// export asked for while another runs is refused (policy `.rejectWhileRunning`), and
  /// the command is unavailable meanwhile. The status bar says what was written, or why
  /// nothing was.
  ///
  /// - Parameter path: The folder.
  /// - Returns: The run; its value is the outcome, once reported.
  @discardableResult
  public func exportRequested(to path: String) -> Task<ActionOutcome, Never> {
    files.exportFiles(to: path)
  }

  /// A script or an import asked to add notebooks and notes: one step, all or nothing.
  ///
  /// Goes through the dispatcher like every gesture (validated item by item, logged, one
  /// undo step named after the action); a refusal lists every item's reasons and changes
  /// nothing. The outcome is reported to the status bar.
  ///
  /// - Parameter notes: The notebooks and notes to add.
  /// - Returns: The outcome; what it created when it committed.
  @discardableResult
  public func notesImported(_ notes: ImportNotes) -> ActionOutcome {
    let outcome = dispatcher.dispatch(notes)
    statusBar.report(outcome)
    return outcome
  }

  /// The user is editing the title of a new or renamed note or notebook: a draft over the
  /// limit says so at once; back within it, that warning goes.
  ///
  /// - Parameters:
  ///   - title: The draft.
  ///   - field: What the title is for, as the message names it ("note title").
  public func titleDrafted(_ title: String, field: String) {
    let issues = MaximumLength(field: field, limit: NotesRules.titleLimit).issues(
      in: NotesRules.normalizedTitle(title))
    if !issues.isEmpty {
      let result = ValidationResult(issues)
      report(.invalid(result))
      titleLengthWarning = result.displaySummary
    } else if let warning = titleLengthWarning {
      // Back within the limit: the warning goes, unless another message replaced it.
      if statusBar.status.value.message == warning { statusBar.clearMessage() }
      titleLengthWarning = nil
    }
  }

  /// The user chose `command` (a key, a menu item, a palette row): whether it can run now.
  ///
  /// When it cannot, the status bar says why, once; the presentation then does nothing.
  ///
  /// - Parameter command: The command.
  /// - Returns: Whether the command is available.
  public func commandChosen(_ command: SessionCommand) -> Bool {
    let availability = commands.availability(of: command).value
    if !availability.isEnabled { report(.invalid(ValidationResult(availability.issues))) }
    return availability.isEnabled
  }

  /// Reports what a gesture did to the status bar: the session's own messages have one
  /// owner, so no presentation reports an outcome the session already reported.
  ///
  /// - Parameter outcome: The outcome.
  func report(_ outcome: ActionOutcome) {
    statusBar.report(outcome)
  }

  /// Shows a message of the presentation's own (such as "Select a note to edit.") in the
  /// status bar until the next one, or until ``messageDismissed()``.
  ///
  /// - Parameter text: The message.
  public func inform(_ text: String) {
    statusBar.inform(text)
  }

  /// The user moved on: the status bar's message goes.
  public func messageDismissed() {
    statusBar.clearMessage()
  }

  /// What a message adds to say how to take a step back or forward, in this presentation's
  /// own keys: " — u to undo"; nothing when the presentation gave `command` no key.
  func hint(_ command: SessionCommand, _ phrase: String) -> String {
    guard let key = shortcuts[command], !key.isEmpty else { return "" }
    return " — \(key) \(phrase)"
  }

  /// Reports an outcome that says what it did: `done` when committed, else the outcome.
  func report(_ outcome: ActionOutcome, done: @autoclosure () -> String) {
    if outcome.isCommitted { statusBar.inform(done()) } else { report(outcome) }
  }
}
