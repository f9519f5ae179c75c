// Key handling: every key press becomes a gesture on a command or a change of view state.

import Airframe
import NotesCore
import NotesPresentation

extension TerminalApplication {
  /// Handles the keys the terminal read at once, in order, as one batch.
  ///
  /// Each run of text (typed characters and pastes, and Enter in the editor) that goes to
  /// the editor or to a prompt becomes one edit, so a long paste costs one save. Keys after
  /// one that quits are not handled.
  ///
  /// ## Guarantees
  ///
  /// - Keys go to the modal interaction if one is open, else to the focused pane, else to
  ///   the global commands; a key nothing handles is ignored. Ctrl-L asks for a repaint
  ///   (`onRepaint`) wherever the keyboard is; Ctrl-C (which does not quit) says how to quit.
  /// - A status message lasts until the next key (in a prompt: until it is submitted or
  ///   closed); a key whose action is refused shows the reason again.
  /// - The editor saves after every typed key through the editor controller (one undo step
  ///   per typing run); leaving the editor ends the run.
  /// - A batch of keys (what the terminal read at once) is handled in order, and each run of
  ///   typed or pasted text in it that goes to the editor or a prompt is one edit: one
  ///   insertion and one save, however long the run.
  /// - Pasted text is only ever text: in the editor it is inserted as is; in a prompt its
  ///   line breaks and tabs become spaces (a pasted newline is not Enter); elsewhere it is
  ///   ignored with a note in the status bar.
  /// - A prompt submits through its command's `ActionController`; a refused submission keeps
  ///   the prompt open with its text, and the status bar shows why; Escape closes it and
  ///   changes nothing (for search, Escape also clears the search).
  /// - Search is as-you-type: every key in the search prompt updates the note list's filter.
  /// - The palette runs the highlighted command only if it is available, else reports why.
  /// - A confirmation is acknowledged exactly once, by yes or no; the notebook is deleted
  ///   only on yes.
  /// - The help screen closes on any key when it fits; when it does not, ↑ ↓ j k PgUp PgDn
  ///   Space Home End scroll it and every other key closes it.
  ///
  /// - Parameter keys: The keys, in the order they arrived.
  public func handle(_ keys: [Key]) {
    var index = keys.startIndex
    while index < keys.endIndex, !isFinished {
      var text = ""
      var end = index
      while end < keys.endIndex, let piece = textInput(keys[end]) {
        text += piece
        end += 1
      }
      if end == index {
        handle(keys[index])
        index += 1
      } else {
        insertText(text)
        index = end
      }
    }
  }

  /// Handles one key press.
  ///
  /// - Parameter key: The key.
  public func handle(_ key: Key) {
    if key == .control("l") {
      onRepaint?()
      return
    }
    if key == .control("c") {
      session.inform(
        focus == .editor ? "To quit, press Ctrl-Q." : "To quit, press q (or Ctrl-Q).")
      return
    }
    // A message lasts until the next key, except in a prompt, where a refusal stays while
    // the text is corrected (until it is submitted or closed).
    if case .prompt = interaction {
      if key == .escape { session.messageDismissed() }
    } else {
      session.messageDismissed()
    }
    if let text = textInput(key) {
      insertText(text)
      return
    }
    switch interaction {
    case .browsing: handleBrowsing(key)
    case .prompt(let prompt): handlePrompt(key, prompt)
    case .palette(let selected): handlePalette(key, selected: selected)
    case .help: handleHelp(key)
    case .confirmation(let confirmation): handleConfirmation(key, confirmation)
    case .moving(let note, let selected): handleMoving(key, note: note, selected: selected)
    case .deletedNotesQuestion(let question): handleDeletedNotesQuestion(key, question)
    case .history(let box): handleHistory(key, box)
    }
    showPendingConfirmation()
  }

  // MARK: - Browsing

  /// The text a key inserts where the keyboard is now, or `nil` if it is not text there.
  private func textInput(_ key: Key) -> String? {
    let inEditor =
      interaction == .browsing && focus == .editor && session.editorState.value.noteID != nil
    let inPrompt: Bool
    if case .prompt = interaction { inPrompt = true } else { inPrompt = false }
    guard inEditor || inPrompt else { return nil }
    switch key {
    case .character(let character):
      // A control character (a C1 control such as U+0085, which only broken input sends)
      // never enters a note's text, as pasted text drops them: the body would be refused,
      // and the draft could not be saved. A prompt shows it, and its title is refused
      // with the reason.
      if inEditor,
        character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      {
        return ""
      }
      return String(character)
    case .enter: return inEditor ? "\n" : nil
    case .paste(let text):
      guard inPrompt else { return text }
      // One line: a pasted line break or tab is a space, never Enter.
      return String(text.map { $0 == "\n" || $0 == "\t" || $0 == "\r\n" ? " " : $0 })
    default: return nil
    }
  }

  /// Inserts text at the editor's cursor or at the end of the open prompt.
  private func insertText(_ text: String) {
    if case .prompt(let prompt) = interaction {
      var prompt = prompt
      prompt.text += text
      updatePrompt(prompt)
    } else {
      edit { $0.insert(text) }
    }
  }

  private func handleBrowsing(_ key: Key) {
    if focus == .editor, handleEditor(key) { return }
    let showsDeleted = session.sidebarSelection.value == .recentlyDeleted
    if showsDeleted, focus == .list, handleRecentlyDeleted(key) { return }
    switch key {
    case .paste:
      session.inform("Pasted text goes into the editor or a prompt; it never runs commands.")
    // Recently Deleted's notes are read-only: the keyboard goes between its two panes.
    case .tab: moveFocus(to: showsDeleted && focus.next == .editor ? focus.next.next : focus.next)
    case .backTab:
      moveFocus(
        to: showsDeleted && focus.previous == .editor ? focus.previous.previous : focus.previous)
    case .up, .character("k"): moveSelection(by: -1)
    case .down, .character("j"): moveSelection(by: 1)
    case .pageUp: moveSelection(by: -max(1, lastSize.height / 2))
    case .pageDown: moveSelection(by: max(1, lastSize.height / 2))
    case .home: moveSelection(by: Int.min / 2)
    case .end: moveSelection(by: Int.max / 2)
    case .enter: moveFocus(to: focus == .sidebar ? .list : .editor)
    case .escape:
      if showsDeleted {
        session.recentlyDeletedLeft()
      } else if !session.search.value.isEmpty {
        session.searchTyped("")
      }
    case .character("q"), .control("q"): run(.quit)
    case .character("?"), .function(1): run(.help)
    case .character(":"), .control("p"): interaction = .palette(selected: 0)
    case .character("n"): run(.newNote)
    case .character("N"): run(.newNotebook)
    case .character("r"): run(.rename)
    case .character("m"): run(.moveNote)
    case .character("p"): run(.togglePin)
    case .character("d"), .delete: run(.delete)
    case .character("/"): run(.search)
    case .character("o"): run(.toggleSort)
    case .character("u"), .control("z"): run(.undo)
    case .character("U"), .control("r"), .control("y"): run(.redo)
    case .character("s"): run(.syncNow)
    case .character("I"): run(.importNotes)
    case .character("E"): run(.exportNotes)
    case .character("T"): run(.recentlyDeleted)
    case .character("H"): run(.noteHistory)
    default: break
    }
  }

  /// Moves the focus; the session ends the editor's typing run when it leaves the editor.
  func moveFocus(to pane: Pane) {
    if pane == .editor, session.sidebarSelection.value == .recentlyDeleted {
      session.inform("Notes in Recently Deleted are read-only: Enter restores the note.")
      return
    }
    if pane == .editor, session.editorState.value.noteID == nil {
      session.inform("Select a note to edit.")
      return
    }
    focus = pane
  }

  private func moveSelection(by delta: Int) {
    switch focus {
    case .sidebar:
      // "All notes", the notebooks, then Recently Deleted.
      let entries: [SidebarSelection] =
        [.allNotes] + session.notebooks.value.map { .notebook($0.id) } + [.recentlyDeleted]
      let current = entries.firstIndex(of: session.sidebarSelection.value) ?? 0
      let target = entries[clamp(current, delta, count: entries.count)]
      if target == .recentlyDeleted {
        session.recentlyDeletedSelected()
      } else {
        session.notebookSelected(target.notebook)
      }
    case .list:
      let list = session.list
      guard list.count > 0 else { return }
      let current = session.selectedNote.value.flatMap { list.index(of: $0) } ?? -1
      let target = clamp(current, delta, count: list.count)
      session.noteSelected(list.row(at: target).id)
    case .editor: break
    }
  }

  func clamp(_ index: Int, _ delta: Int, count: Int) -> Int {
    let (sum, overflow) = index.addingReportingOverflow(delta)
    return min(max(0, overflow ? (delta < 0 ? 0 : count - 1) : sum), count - 1)
  }

  // MARK: - Editor

  /// Handles a key in the editor; returns `false` for keys the editor leaves to others.
  private func handleEditor(_ key: Key) -> Bool {
    guard session.editorState.value.noteID != nil else { return false }
    let width = layout(width: lastSize.width, height: lastSize.height).editorText.width
    switch key {
    case .backspace: edit { $0.deleteBackward() }
    case .delete: edit { $0.deleteForward() }
    case .left: moveCursor { $0.move(by: -1) }
    case .right: moveCursor { $0.move(by: 1) }
    case .up: moveCursor { $0.moveVertically(by: -1, width: width) }
    case .down: moveCursor { $0.moveVertically(by: 1, width: width) }
    case .home: moveCursor { $0.moveToLineStart() }
    case .end: moveCursor { $0.moveToLineEnd() }
    case .escape: moveFocus(to: .list)
    case .control("k"): handleConflictKey(keepMine: true)
    case .control("t"): handleConflictKey(keepMine: false)
    default: return false
    }
    return true
  }

  /// Applies an edit at the cursor: one gesture, so one save and one publication.
  private func edit(_ change: (inout TextCursor) -> Void) {
    let current = cursor
    var edited = current
    change(&edited)
    if edited.text == current.text {
      if edited.utf8Offset != current.utf8Offset { session.cursorMoved(to: edited.utf8Offset) }
      return
    }
    session.bodyTyped(edited.text, cursor: edited.utf8Offset)
  }

  private func moveCursor(_ move: (inout TextCursor) -> Void) {
    var moved = cursor
    move(&moved)
    session.cursorMoved(to: moved.utf8Offset)
  }

  /// Ctrl-K and Ctrl-T in the editor: keep the draft or take theirs in a conflict; Ctrl-K
  /// keeps a note deleted elsewhere as a new note.
  private func handleConflictKey(keepMine: Bool) {
    if session.editorState.value.isDeleted {
      if keepMine { session.deletedNoteKept() }
    } else {
      session.conflictResolved(keepingMine: keepMine)
    }
  }
}
