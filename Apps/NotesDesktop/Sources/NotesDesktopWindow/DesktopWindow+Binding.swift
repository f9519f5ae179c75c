// DesktopWindow+Binding: the window's one binder — every render from the session into a
// widget, and every widget's user signal through an input slot to a session intent.

import Airframe
import AirframeBinding
import CGtk
import NotesCore
import NotesPresentation

extension DesktopWindow {
  /// Connects GTK's signals to the input slots.
  ///
  /// A signal emitted while the binder renders is an echo: the slot drops it.
  func connectSignals() {
    Signal.connect(
      GPointer(sidebarSelection), "selection-changed",
      withPositions: { [unowned self] _, _ in
        let position = Int(gtk_single_selection_get_selected(self.sidebarSelection))
        _ = self.sidebarChoices.send(self.sidebarEntry(at: position))
      })
    Signal.connect(
      GPointer(noteSelection), "selection-changed",
      withPositions: { [unowned self] _, _ in
        let position = Int(gtk_single_selection_get_selected(self.noteSelection))
        guard let id = self.notes.id(at: position).flatMap(Int64.init) else { return }
        _ = self.noteChoices.send(NoteID(rawValue: id))
      })
    Signal.connect(GPointer(buffer), "changed") { [unowned self] in
      _ = self.bodyEdits.send((self.bufferText(), self.cursorUTF8Offset()))
    }
    Signal.connect(
      GPointer(buffer), "notify::cursor-position",
      withArgument: { [unowned self] _ in
        // A move inside the text the session has; a move that comes with an edit reaches
        // the session with the edit (`changed`).
        guard Self.sameBytes(self.bufferText(), self.session.editorState.value.body) else {
          return
        }
        _ = self.cursorMoves.send(self.cursorUTF8Offset())
      })
    Signal.connect(GPointer(titleEntry), "activate") { [unowned self] in
      _ = self.titleCommits.send(self.entryText())
    }
    // The keyboard entering the title field begins a rename, based on the title shown.
    let focus = required(gtk_event_controller_focus_new(), "focus controller")
    Signal.connect(GPointer(focus), "enter") { [unowned self] in
      _ = self.titleFocuses.send(())
    }
    gtk_widget_add_controller(titleEntry, focus)
    Signal.connect(GPointer(searchEntry), "search-changed") { [unowned self] in
      let text = gtk_editable_get_text(cast(raw(self.searchEntry))).map { String(cString: $0) }
      _ = self.searchEdits.send(text ?? "")
    }
  }

  /// Connects every widget to the session, both ways; renders the current state at once.
  package func bind() {
    let session = session
    binder.bind { connect in
      connect.render(session.title) { [unowned self] composed in
        // The titles in it are isolated; it reads left to right whatever they are.
        let title = leftToRight(composed)
        gtk_label_set_text(cast(raw(self.heading)), title)
        gtk_window_set_title(cast(raw(self.window)), title)
      }
      connect.render(session.status) { [unowned self] status in
        gtk_label_set_text(cast(raw(self.statusLabel)), status.text)
      }
      // A row taken out and put back loses GTK's selection: each list shows the session's
      // selection again after every change of its rows.
      connect.render(session.notebooks) { [unowned self] rows in
        self.showNotebooks(rows)
        self.selectSidebarEntry(session.sidebarSelection.value)
      }
      connect.render(session.sidebarSelection) { [unowned self] selection in
        self.selectSidebarEntry(selection)
        if selection == .recentlyDeleted { self.deletedPane.highlightFirst() }
        gtk_stack_set_visible_child_name(
          OpaquePointer(self.content), selection == .recentlyDeleted ? "deleted" : "notes")
        // The page shown may have changed while hidden (a note restored, the editor's
        // text): GTK 4.8 then draws it before it allocates it, unless asked to lay it out.
        gtk_widget_queue_resize(self.content)
      }
      // Recently Deleted's count, on the sidebar's last row.
      connect.render(session.recentlyDeletedUpdates) { [unowned self] _ in
        self.showRecentlyDeletedCount()
        self.selectSidebarEntry(session.sidebarSelection.value)
      }
      deletedPane.bind(
        &connect, deleteForGood: { [unowned self] in self.commands.askToDeleteForGood($0) },
        empty: { [unowned self] in self.commands.askToEmptyRecentlyDeleted() })
      connect.render(session.list.updates) { [unowned self] update in
        self.showNotes(update)
        self.selectNote(session.selectedNote.value)
      }
      connect.render(session.selectedNote) { [unowned self] in self.selectNote($0) }
      connect.render(session.editorState) { [unowned self] editor in self.showEditor(editor) }
      connect.forward(sidebarChoices) { [unowned self] selection in
        self.observer?.inputForwarded(.notebookChoice, by: self)
        if selection == .recentlyDeleted {
          session.recentlyDeletedSelected()
        } else {
          session.notebookSelected(selection.notebook)
        }
      }
      connect.forward(noteChoices) { [unowned self] note in
        self.observer?.inputForwarded(.noteChoice, by: self)
        _ = session.noteSelected(note)
      }
      connect.forward(bodyEdits) { [unowned self] edit in
        self.observer?.inputForwarded(.bodyEdit, by: self)
        session.bodyTyped(edit.body, cursor: edit.cursor)
      }
      connect.forward(cursorMoves) { [unowned self] offset in
        self.observer?.inputForwarded(.cursorMove, by: self)
        session.cursorMoved(to: offset)
      }
      // The search the session has: cleared for a new note, restored at launch, taken from
      // the window this one was opened from. GTK reports a search entry's text after a
      // delay, so the echo of this render may arrive after it; the session ignores a
      // search for the text it already has.
      connect.render(session.search) { [unowned self] text in
        let shown = gtk_editable_get_text(cast(raw(self.searchEntry))).map { String(cString: $0) }
        if shown != text { gtk_editable_set_text(cast(raw(self.searchEntry)), text) }
      }
      connect.forward(searchEdits) { [unowned self] text in
        self.observer?.inputForwarded(.searchEdit, by: self)
        session.searchTyped(text)
      }
      connect.forward(titleFocuses) { session.noteRenameBegan() }
      connect.forward(paneFocuses) { session.paneFocused($0) }
      connect.forward(titleCommits) { [unowned self] title in
        self.observer?.inputForwarded(.titleCommit, by: self)
        session.noteRenamed(to: title)
      }
      // A dialog for each confirmation as it is posted (or pending when the window opens),
      // closed when it is answered, here or in another window.
      connect.render(session.confirmations) { [unowned self] confirmation in
        self.confirm(confirmation)
      }
      connect.render(pending: session.confirmations) { [unowned self] pending in
        for (id, dialog) in self.confirmationDialogs where !pending.contains(where: { $0.id == id })
        {
          dialog.close()
        }
      }
      commands.bind(&connect)
    }
  }

  /// Ends every connection and closes the window's dialogs; the widgets stay as they are.
  package func unbind() {
    binder.cancel()
    commands.closeDialogs()
    for dialog in confirmationDialogs.values { dialog.close() }
    for row in noteRows.values { row.clear() }
  }

  /// Asks whether to delete a notebook with notes; the answer goes to the session, which
  /// keeps the question pending (and shown again in a new window) until it is answered.
  ///
  /// Not modal: the question belongs to the session, not to this window, so the windows
  /// stay usable while it waits (another window shows it too; closing this one leaves it
  /// pending), as the durable outcome it presents does.
  private func confirm(_ confirmation: DeletionConfirmation) {
    guard confirmationDialogs[confirmation.id] == nil else { return }
    let session = session
    let dialog = Dialog(
      parent: window, title: "Delete Notebook", message: confirmation.message, text: nil,
      accept: "Delete", modal: false
    ) { answer in
      session.deletionAnswered(confirmation.id, confirmed: answer.accepted)
      return nil
    }
    dialog.closed = { [unowned self] in self.confirmationDialogs[confirmation.id] = nil }
    confirmationDialogs[confirmation.id] = dialog
  }
}
