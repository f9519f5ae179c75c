// Modal interactions: prompts (new, rename, search), the command palette, the deletion
// confirmation and the move picker. Their guarantees are on `handle(_:)`, with those of every
// other key.

import Airframe
import NotesCore
import NotesFiles
import NotesPresentation

extension TerminalApplication {
  // MARK: - Starting interactions

  /// Opens a prompt.
  func beginPrompt(_ purpose: Prompt.Purpose, text: String) {
    if focus == .editor { moveFocus(to: .list) }
    interaction = .prompt(Prompt(purpose: purpose, text: text))
  }

  /// Opens the inline rename of the selected note.
  func beginRenameNote() {
    guard let id = session.selectedNote.value, let title = session.noteRenameBegan() else {
      return
    }
    if focus == .editor { moveFocus(to: .list) }
    focus = .list
    beginPrompt(.renameNote(id), text: title)
  }

  /// Opens the inline rename of the selected notebook.
  func beginRenameNotebook() {
    guard let id = session.selectedNotebook.value, let title = session.title(of: id) else {
      return
    }
    focus = .sidebar
    beginPrompt(.renameNotebook(id), text: title)
  }

  /// Opens the notebook picker for moving the selected note.
  func beginMove() {
    guard let id = session.selectedNote.value else { return }
    interaction = .moving(id, selected: 0)
  }

  // MARK: - Prompt

  func handlePrompt(_ key: Key, _ prompt: Prompt) {
    var prompt = prompt
    switch key {
    case .escape:
      if prompt.purpose == .search { session.searchTyped("") }
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
      session.searchTyped(prompt.text)
      return
    case .newNote, .renameNote: field = "note title"
    case .newNotebook, .renameNotebook: field = "notebook title"
    case .importPath, .exportPath: return
    }
    session.titleDrafted(prompt.text, field: field)
  }

  private func submit(_ prompt: Prompt) {
    let outcome: ActionOutcome
    switch prompt.purpose {
    case .search:
      interaction = .browsing
      focus = .list
      return
    case .newNote:
      outcome = session.noteCreated(titled: prompt.text)
      if outcome.isCommitted {
        // The new note is selected; it opens in the editor.
        interaction = .browsing
        focus = .editor
      }
    case .newNotebook:
      outcome = session.notebookCreated(titled: prompt.text)
    case .renameNote:
      // Based on the title the prompt opened with, which the session remembers: another
      // process's rename meanwhile refuses this one with a reason instead of being
      // overwritten.
      outcome = session.noteRenamed(to: prompt.text)
    case .renameNotebook:
      outcome = session.notebookRenamed(to: prompt.text)
    case .importPath, .exportPath:
      // The run reports to the status bar when it ends; the prompt closes at once.
      guard let path = TypedPath.resolved(prompt.text) else { return }
      interaction = .browsing
      if prompt.purpose == .importPath {
        session.importRequested(from: path)
      } else {
        session.exportRequested(to: path)
      }
      return
    }
    if outcome.isCommitted || outcome == .unchanged { interaction = .browsing }
  }

  // MARK: - Help

  func handleHelp(_ key: Key) {
    let help = HelpScreen(width: lastSize.width, height: lastSize.height)
    guard help.scrolls else {
      interaction = .browsing
      return
    }
    let page = max(1, help.visible - 1)
    switch key {
    case .up, .character("k"): overlayScroll -= 1
    case .down, .character("j"): overlayScroll += 1
    case .pageUp: overlayScroll -= page
    case .pageDown, .character(" "): overlayScroll += page
    case .home: overlayScroll = 0
    case .end: overlayScroll = help.maximumScroll
    default: interaction = .browsing
    }
    overlayScroll = max(0, min(overlayScroll, help.maximumScroll))
  }

  // MARK: - Palette

  func handlePalette(_ key: Key, selected: Int) {
    let menuRows = session.menu.value
    let count = menuRows.count
    switch key {
    case .up, .character("k"): interaction = .palette(selected: max(0, selected - 1))
    case .down, .character("j"): interaction = .palette(selected: min(count - 1, selected + 1))
    case .escape, .character(":"), .control("p"): interaction = .browsing
    case .enter:
      guard menuRows.indices.contains(selected) else { return }
      interaction = .browsing
      if let command = SessionCommand(rawValue: menuRows[selected].name) { run(command) }
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
    session.deletionAnswered(confirmation.id, confirmed: confirmed)
  }

  // MARK: - Moving

  func handleMoving(_ key: Key, note: NoteID, selected: Int) {
    let targets = session.moveTargets(for: note)
    switch key {
    case .up, .character("k"): interaction = .moving(note, selected: max(0, selected - 1))
    case .down, .character("j"):
      interaction = .moving(note, selected: max(0, min(targets.count - 1, selected + 1)))
    case .escape: interaction = .browsing
    case .enter:
      interaction = .browsing
      guard targets.indices.contains(selected) else { return }
      session.noteMoved(to: targets[selected].id)
    default: break
    }
  }
}

// MARK: - Note history

extension TerminalApplication {
  /// Opens the selected note's history, or says why there is none to show.
  func beginHistory() {
    guard let (id, versions) = session.selectedNoteHistory() else { return }
    interaction = .history(NoteHistoryBox(note: id, versions: versions, selected: 0))
  }

  /// Keys in the history box: ↑/↓ highlight a version, Enter (or r) brings it back as a
  /// new edit, Esc closes.
  func handleHistory(_ key: Key, _ box: NoteHistoryBox) {
    var box = box
    switch key {
    case .up, .character("k"): box.selected = max(0, box.selected - 1)
    case .down, .character("j"): box.selected = min(box.versions.count - 1, box.selected + 1)
    case .escape:
      interaction = .browsing
      return
    case .enter, .character("r"):
      interaction = .browsing
      if box.versions.indices.contains(box.selected) {
        session.noteVersionRestored(box.versions[box.selected])
      }
      return
    default: return
    }
    interaction = .history(box)
  }
}
