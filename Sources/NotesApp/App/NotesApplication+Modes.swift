// Modal interactions: prompts (new, rename, search), the command palette, the deletion
// confirmation and the move picker.
//
// Guarantees
// - A prompt submits through its command's `ActionController`; a refused submission keeps
//   the prompt open and reports the reason; Escape closes it and changes nothing (for
//   search, Escape also clears the search).
// - Search is as-you-type: every key in the search prompt updates the note list's filter.
// - The palette runs the highlighted command only if it is available, else reports why.
// - A confirmation is acknowledged exactly once, by yes or no; the notebook is deleted
//   only on yes.

import Airframe
import NotesCore

extension NotesApplication {
  // MARK: - Starting interactions

  /// Opens a prompt.
  func beginPrompt(_ purpose: Prompt.Purpose, text: String) {
    if focus == .editor { moveFocus(to: .list) }
    interaction = .prompt(Prompt(purpose: purpose, text: text))
  }

  /// Opens the inline rename of the selected note.
  func beginRenameNote() {
    guard let id = selectedNote, let note = model.state.notes[id] else { return }
    if focus == .editor { moveFocus(to: .list) }
    focus = .list
    beginPrompt(.renameNote(id, from: note.title), text: note.title)
  }

  /// Opens the inline rename of the selected notebook.
  func beginRenameNotebook() {
    guard let id = selectedNotebook, let notebook = model.state.notebooks[id] else { return }
    focus = .sidebar
    beginPrompt(.renameNotebook(id), text: notebook.title)
  }

  /// Opens the notebook picker for moving the selected note.
  func beginMove() {
    guard let id = selectedNote else { return }
    interaction = .moving(id, selected: 0)
  }

  /// Deletes the selected notebook, asking first if it has notes.
  func requestNotebookDeletion() {
    guard let id = selectedNotebook else { return }
    let title = model.state.notebooks[id]?.title ?? ""
    report(
      notebookDeletion.deleteRequested(id), done: "Deleted the notebook “\(title)” — u to undo")
  }

  /// Switches the note list between date and title order.
  func toggleSort() {
    noteList.sort = noteList.sort == .modified ? .title : .modified
  }

  /// Starts a sync; its progress shows in the title and status bars.
  func syncNow() {
    if syncCoordinator.syncNow() == nil { report(.rejected("A sync is running.")) }
  }

  // MARK: - Prompt

  func handlePrompt(_ key: Key, _ prompt: Prompt) {
    var prompt = prompt
    switch key {
    case .escape:
      if prompt.purpose == .search { noteList.search = "" }
      interaction = .browsing
      return
    case .enter:
      submit(prompt)
      return
    case .backspace:
      guard !prompt.text.isEmpty else { return }
      prompt.text.removeLast()
    case .control("u"):
      prompt.text = ""
    default:
      return
    }
    updatePrompt(prompt)
  }

  /// Shows the prompt's new text; the search follows it, and a title over the limit says
  /// so at once.
  func updatePrompt(_ prompt: Prompt) {
    interaction = .prompt(prompt)
    let field: String
    switch prompt.purpose {
    case .search:
      selectedIndex = 0
      noteList.search = prompt.text
      return
    case .newNote, .renameNote: field = "note title"
    case .newNotebook, .renameNotebook: field = "notebook title"
    }
    let issues = MaximumLength(field: field, limit: NotesRules.titleLimit).issues(
      in: NotesRules.normalizedTitle(prompt.text))
    if !issues.isEmpty {
      let result = ValidationResult(issues)
      report(.invalid(result))
      promptLengthWarning = result.summary
    } else if let warning = promptLengthWarning {
      // Back within the limit: the warning goes, unless another message replaced it.
      if status.message == warning { statusBar.clearMessage() }
      promptLengthWarning = nil
    }
  }

  private func submit(_ prompt: Prompt) {
    let outcome: ActionOutcome
    switch prompt.purpose {
    case .search:
      interaction = .browsing
      focus = .list
      return
    case .newNote:
      outcome = commands.newNote.trigger(prompt.text)
      if let id = outcome.createdID(in: \NotesState.notes) { selectNewNote(id) }
    case .newNotebook:
      outcome = commands.newNotebook.trigger(prompt.text)
      if let id = outcome.createdID(in: \NotesState.notebooks) { sidebar.select(id) }
    case .renameNote(_, let original):
      // Based on the title the prompt opened with: another process's rename meanwhile
      // refuses this one with a reason instead of being overwritten.
      outcome = commands.renameNote.trigger(RenameInput(title: prompt.text, basedOn: original))
    case .renameNotebook:
      outcome = commands.renameNotebook.trigger(prompt.text)
    }
    report(outcome)
    if outcome.isCommitted || outcome == .unchanged { interaction = .browsing }
  }

  /// Selects the note just created and opens it in the editor.
  private func selectNewNote(_ id: NoteID) {
    if noteList.lens.row(for: id) == nil, !noteList.search.isEmpty { noteList.search = "" }
    if noteList.lens.row(for: id) == nil { sidebar.select(model.state.notes[id]?.notebookID) }
    noteList.lens.select(id)
    interaction = .browsing
    focus = .editor
  }

  // MARK: - Palette

  func handlePalette(_ key: Key, selected: Int) {
    let count = menuRows.count
    switch key {
    case .up, .character("k"): interaction = .palette(selected: max(0, selected - 1))
    case .down, .character("j"): interaction = .palette(selected: min(count - 1, selected + 1))
    case .escape, .character(":"), .control("p"): interaction = .browsing
    case .enter:
      guard menuRows.indices.contains(selected) else { return }
      interaction = .browsing
      commands.run(menuRows[selected].name)
    default: break
    }
  }

  // MARK: - Confirmation

  func handleConfirmation(_ key: Key, _ confirmation: DeletionConfirmation) {
    let confirmed: Bool
    switch key {
    case .character("y"), .character("Y"), .enter: confirmed = true
    case .character("n"), .character("N"), .escape: confirmed = false
    default: return
    }
    interaction = .browsing
    let title = model.state.notebooks[confirmation.notebookID]?.title ?? ""
    report(
      notebookDeletion.answer(confirmation.id, confirmed: confirmed),
      done: "Deleted the notebook “\(title)” and its notes — u to undo")
  }

  // MARK: - Moving

  /// The notebooks a note can move to: every notebook but its own, in sidebar order.
  func moveTargets(for note: NoteID) -> [SidebarRow] {
    let current = model.state.notes[note]?.notebookID
    return sidebarRows.filter { $0.id != current }
  }

  func handleMoving(_ key: Key, note: NoteID, selected: Int) {
    let targets = moveTargets(for: note)
    switch key {
    case .up, .character("k"): interaction = .moving(note, selected: max(0, selected - 1))
    case .down, .character("j"):
      interaction = .moving(note, selected: max(0, min(targets.count - 1, selected + 1)))
    case .escape: interaction = .browsing
    case .enter:
      interaction = .browsing
      guard targets.indices.contains(selected) else { return }
      report(commands.moveNote.trigger(targets[selected].id))
    default: break
    }
  }
}
