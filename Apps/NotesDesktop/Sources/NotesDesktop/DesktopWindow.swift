// DesktopWindow: the Notes window on GTK 4 — a header bar with the window title, the
// sidebar and the note list as `GtkListView`s, the note's title and text, and a status
// bar — every widget connected to the one `NotesSession` through a `Binder`.
//
// Guarantees
// - Thin: the window holds no state of its own beyond widgets. Every value it shows comes
//   from a session projection through the binder's renders, and every user gesture goes
//   to a session intent through an `InputSlot`.
// - No echoes: setting a widget from state makes GTK emit the same signals a user causes
//   (`changed`, `selection-changed`). Those arrive while the binder renders, so the slots
//   drop them and count them (`echoCount`); none reaches the session, and no handler is
//   blocked by hand.
// - The editor is updated in place: a change that arrives from elsewhere replaces only the
//   text between the common prefix and suffix, so the cursor and the view stay where the
//   user was.
// - The note list changes by the positions each lens update names (see `ListStore`).

import Airframe
import AirframeBinding
import CGtk
import NotesCore
import NotesPresentation

/// How many inputs of each kind a window forwarded to its session.
struct ForwardedInputs: Codable, Equatable {
  var notebookChoices = 0
  var noteChoices = 0
  var bodyEdits = 0
  var titleCommits = 0
  var searchEdits = 0
}

/// The desktop window of one session.
@MainActor
final class DesktopWindow {
  /// The GTK window.
  let window: UnsafeMutablePointer<GtkWidget>

  private let session: NotesSession
  private let binder = Binder(label: "desktop window")

  // User input, one slot per gesture; renders make GTK emit the same signals, dropped here.
  let notebookChoices = InputSlot<NotebookID?>()
  let noteChoices = InputSlot<NoteID>()
  let bodyEdits = InputSlot<(body: String, cursor: Int)>()
  let titleCommits = InputSlot<String>()
  let searchEdits = InputSlot<String>()

  /// The menu bar and shortcuts.
  let commands: DesktopCommands

  private let heading: UnsafeMutablePointer<GtkWidget>
  private let sidebar = ListStore()
  private let sidebarSelection: OpaquePointer
  private let notes = ListStore()
  private let noteSelection: OpaquePointer
  private let titleEntry: UnsafeMutablePointer<GtkWidget>
  private let textView: UnsafeMutablePointer<GtkWidget>
  private let buffer: UnsafeMutablePointer<GtkTextBuffer>
  private let statusLabel: UnsafeMutablePointer<GtkWidget>
  private let searchEntry: UnsafeMutablePointer<GtkWidget>
  /// The row widgets GTK made for the note list, by list item.
  private var noteRows: [GPointer: NoteRowView] = [:]
  /// Previews dropped by rows GTK has released.
  private var droppedPreviewsOfReleasedRows = 0
  /// Previews computed for a note a recycled row no longer showed, and dropped.
  var droppedPreviews: Int {
    noteRows.values.reduce(droppedPreviewsOfReleasedRows) { $0 + $1.droppedPreviews }
  }
  /// How many inputs of each kind reached the session (echoes never do).
  private(set) var forwarded = ForwardedInputs()
  /// The notebooks the sidebar shows, after "All notes".
  private var notebookRows: [SidebarRow] = []
  /// The revision of the list update the note list shows.
  private var listRevision = -1

  /// Builds the window for `session`; nothing is bound until ``bind()``.
  ///
  /// - Parameters:
  ///   - application: The GTK application the window belongs to.
  ///   - session: The session it presents.
  init(application: UnsafeMutablePointer<GtkApplication>, session: NotesSession) {
    self.session = session
    window = required(gtk_application_window_new(application), "window")
    gtk_window_set_default_size(cast(raw(window)), 1_000, 640)

    heading = required(gtk_label_new(""), "label")
    let header = required(gtk_header_bar_new(), "header bar")
    gtk_header_bar_set_title_widget(OpaquePointer(header), heading)
    gtk_window_set_titlebar(cast(raw(window)), header)

    sidebarSelection = required(gtk_single_selection_new(sidebar.model), "selection")
    noteSelection = required(gtk_single_selection_new(notes.model), "selection")
    gtk_single_selection_set_autoselect(sidebarSelection, 0)
    gtk_single_selection_set_autoselect(noteSelection, 0)
    gtk_single_selection_set_can_unselect(noteSelection, 1)

    titleEntry = required(gtk_entry_new(), "entry")
    airframe_accessible_label(titleEntry, "Note title")
    textView = required(gtk_text_view_new(), "text view")
    gtk_text_view_set_wrap_mode(cast(raw(textView)), GTK_WRAP_WORD_CHAR)
    airframe_accessible_label(textView, "Note text")
    buffer = required(gtk_text_view_get_buffer(cast(raw(textView))), "text buffer")
    statusLabel = required(gtk_label_new(""), "label")
    gtk_label_set_xalign(cast(raw(statusLabel)), 0)
    searchEntry = required(gtk_search_entry_new(), "search entry")
    airframe_accessible_label(searchEntry, "Search")
    commands = DesktopCommands(window: window, session: session)
    commands.searchEntry = searchEntry

    layOut()
    connectSignals()
  }

  // MARK: - Layout

  private func layOut() {
    let sidebarView = listView(sidebarSelection, label: "Notebooks") { [unowned self] position in
      self.sidebarText(at: position)
    }
    let noteView = noteListView()
    let editor = required(gtk_box_new(GTK_ORIENTATION_VERTICAL, 6), "box")
    gtk_box_append(cast(raw(editor)), titleEntry)
    gtk_box_append(cast(raw(editor)), scrolled(textView))
    let listColumn = required(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0), "box")
    gtk_box_append(cast(raw(listColumn)), searchEntry)
    gtk_box_append(cast(raw(listColumn)), scrolled(noteView))
    let right = required(gtk_paned_new(GTK_ORIENTATION_HORIZONTAL), "paned")
    gtk_paned_set_start_child(cast(raw(right)), listColumn)
    gtk_paned_set_end_child(cast(raw(right)), editor)
    gtk_paned_set_position(cast(raw(right)), 300)
    let panes = required(gtk_paned_new(GTK_ORIENTATION_HORIZONTAL), "paned")
    gtk_paned_set_start_child(cast(raw(panes)), scrolled(sidebarView))
    gtk_paned_set_end_child(cast(raw(panes)), right)
    gtk_paned_set_position(cast(raw(panes)), 200)
    gtk_widget_set_vexpand(panes, 1)
    let column = required(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0), "box")
    gtk_box_append(cast(raw(column)), commands.menuBar)
    gtk_box_append(cast(raw(column)), panes)
    gtk_box_append(cast(raw(column)), statusLabel)
    gtk_window_set_child(cast(raw(window)), column)
  }

  /// A list view over `selection` whose rows are labels with the text `text` gives for
  /// their position, set again whenever GTK binds a (recycled) row.
  private func listView(
    _ selection: OpaquePointer, label: String, text: @escaping (Int) -> String
  ) -> UnsafeMutablePointer<GtkWidget> {
    let factory = required(gtk_signal_list_item_factory_new(), "factory")
    Signal.connect(
      GPointer(factory), "setup",
      withArgument: { item in
        guard let item else { return }
        let row = gtk_label_new("")
        gtk_label_set_xalign(row.map { cast(raw($0)) }, 0)
        gtk_label_set_ellipsize(row.map { cast(raw($0)) }, PANGO_ELLIPSIZE_END)
        gtk_list_item_set_child(OpaquePointer(item), row)
      })
    Signal.connect(
      GPointer(factory), "bind",
      withArgument: { item in
        guard let item, let row = gtk_list_item_get_child(OpaquePointer(item)) else { return }
        let position = Int(gtk_list_item_get_position(OpaquePointer(item)))
        gtk_label_set_text(cast(raw(row)), text(position))
      })
    let view = required(gtk_list_view_new(selection, factory), "list view")
    g_object_ref(GPointer(selection))  // gtk_list_view_new took the reference this keeps
    airframe_accessible_label(view, label)
    return view
  }

  /// The note list: rows are `NoteRowView`s, recycled by GTK and rebound on every bind.
  private func noteListView() -> UnsafeMutablePointer<GtkWidget> {
    let factory = required(gtk_signal_list_item_factory_new(), "factory")
    Signal.connect(
      GPointer(factory), "setup",
      withArgument: { [unowned self] item in
        guard let item else { return }
        let row = NoteRowView()
        self.noteRows[item] = row
        gtk_list_item_set_child(OpaquePointer(item), row.label)
      })
    Signal.connect(
      GPointer(factory), "bind",
      withArgument: { [unowned self] item in
        guard let item, let view = self.noteRows[item] else { return }
        let position = Int(gtk_list_item_get_position(OpaquePointer(item)))
        guard let id = self.notes.id(at: position).flatMap(Int64.init).map(NoteID.init(rawValue:)),
          let row = self.session.list.row(for: id)
        else { return view.clear() }
        view.show(row)
      })
    Signal.connect(
      GPointer(factory), "unbind",
      withArgument: { [unowned self] item in
        guard let item else { return }
        self.noteRows[item]?.clear()
      })
    Signal.connect(
      GPointer(factory), "teardown",
      withArgument: { [unowned self] item in
        guard let item, let view = self.noteRows.removeValue(forKey: item) else { return }
        self.droppedPreviewsOfReleasedRows += view.droppedPreviews
        view.clear()
      })
    let view = required(gtk_list_view_new(noteSelection, factory), "list view")
    g_object_ref(GPointer(noteSelection))  // gtk_list_view_new took the reference this keeps
    airframe_accessible_label(view, "Notes")
    return view
  }

  private func scrolled(_ child: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>
  {
    let scroller = required(gtk_scrolled_window_new(), "scrolled window")
    gtk_scrolled_window_set_child(cast(raw(scroller)), child)
    gtk_widget_set_hexpand(scroller, 1)
    gtk_widget_set_vexpand(scroller, 1)
    return scroller
  }

  // MARK: - Rows

  private func sidebarText(at position: Int) -> String {
    if position == 0 { return "All notes  \(session.noteCount)" }
    guard position - 1 < notebookRows.count else { return "" }
    let row = notebookRows[position - 1]
    return "\(row.title)  \(row.noteCount)"
  }

  // MARK: - Signals (user input)

  private func connectSignals() {
    Signal.connect(
      GPointer(sidebarSelection), "selection-changed",
      withPositions: { [unowned self] _, _ in
        let position = Int(gtk_single_selection_get_selected(self.sidebarSelection))
        let notebook =
          position >= 1 && position - 1 < self.notebookRows.count
          ? self.notebookRows[position - 1].id : nil
        _ = self.notebookChoices.send(notebook)
      })
    Signal.connect(
      GPointer(noteSelection), "selection-changed",
      withPositions: { [unowned self] _, _ in
        let position = Int(gtk_single_selection_get_selected(self.noteSelection))
        guard let id = self.notes.id(at: position).flatMap(Int64.init) else { return }
        _ = self.noteChoices.send(NoteID(rawValue: id))
      })
    Signal.connect(GPointer(buffer), "changed") { [unowned self] in
      let text = self.bufferText()
      _ = self.bodyEdits.send((text, self.cursorUTF8Offset(in: text)))
    }
    Signal.connect(GPointer(titleEntry), "activate") { [unowned self] in
      _ = self.titleCommits.send(self.entryText())
    }
    Signal.connect(GPointer(searchEntry), "search-changed") { [unowned self] in
      let text = gtk_editable_get_text(cast(raw(self.searchEntry))).map { String(cString: $0) }
      _ = self.searchEdits.send(text ?? "")
    }
  }

  private func bufferText() -> String {
    var start = GtkTextIter()
    var end = GtkTextIter()
    gtk_text_buffer_get_bounds(buffer, &start, &end)
    guard let text = gtk_text_buffer_get_text(buffer, &start, &end, 1) else { return "" }
    defer { g_free(text) }
    return String(cString: text)
  }

  private func entryText() -> String {
    gtk_editable_get_text(OpaquePointer(titleEntry)).map { String(cString: $0) } ?? ""
  }

  /// The cursor as a UTF-8 offset into `text` (GTK counts characters, the session bytes).
  private func cursorUTF8Offset(in text: String) -> Int {
    var iter = GtkTextIter()
    gtk_text_buffer_get_iter_at_mark(buffer, &iter, gtk_text_buffer_get_insert(buffer))
    let characters = Int(gtk_text_iter_get_offset(&iter))
    return String(text.unicodeScalars.prefix(characters)).utf8.count
  }

  // MARK: - Binding

  /// Connects every widget to the session, both ways; renders the current state at once.
  func bind() {
    let session = session
    binder.bind { connect in
      connect.render(session.title) { [unowned self] title in
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
        self.selectNotebook(session.selectedNotebook.value)
      }
      connect.render(session.selectedNotebook) { [unowned self] in self.selectNotebook($0) }
      connect.render(session.list.updates) { [unowned self] update in
        self.showNotes(update)
        self.selectNote(session.selectedNote.value)
      }
      connect.render(session.selectedNote) { [unowned self] in self.selectNote($0) }
      connect.render(session.editorState) { [unowned self] editor in self.showEditor(editor) }
      connect.forward(notebookChoices) { [unowned self] notebook in
        self.forwarded.notebookChoices += 1
        session.notebookSelected(notebook)
      }
      connect.forward(noteChoices) { [unowned self] note in
        self.forwarded.noteChoices += 1
        _ = session.noteSelected(note)
      }
      connect.forward(bodyEdits) { [unowned self] edit in
        self.forwarded.bodyEdits += 1
        session.report(session.bodyTyped(edit.body, cursor: edit.cursor))
      }
      connect.forward(searchEdits) { [unowned self] text in
        self.forwarded.searchEdits += 1
        session.searchTyped(text)
      }
      connect.render(session.confirmations) { [unowned self] confirmation in
        self.confirm(confirmation)
      }
      commands.bind(&connect)
      connect.forward(titleCommits) { [unowned self] title in
        self.forwarded.titleCommits += 1
        session.report(session.noteRenamed(to: title, from: session.editorState.value.title))
      }
    }
  }

  /// Ends every connection; the widgets stay as they are.
  func unbind() {
    binder.cancel()
    for row in noteRows.values { row.clear() }
  }

  /// The echoes each slot dropped: renders that made GTK emit a user's signal.
  var droppedEchoes: Int {
    notebookChoices.echoCount + noteChoices.echoCount + bodyEdits.echoCount
      + titleCommits.echoCount + searchEdits.echoCount + commands.runs.echoCount
  }

  /// Asks whether to delete a notebook with notes; the answer goes to the session, which
  /// keeps the question pending (and shown again in a new window) until it is answered.
  private func confirm(_ confirmation: DeletionConfirmation) {
    let session = session
    _ = Dialog(
      parent: window, title: "Delete Notebook", message: confirmation.message, text: nil,
      accept: "Delete"
    ) { answer in
      session.report(session.deletionAnswered(confirmation.id, confirmed: answer.accepted))
      return nil
    }
  }

  private func selectNotebook(_ notebook: NotebookID?) {
    let index = notebook.flatMap { id in notebookRows.firstIndex { $0.id == id } }
    gtk_single_selection_set_selected(sidebarSelection, UInt32(index.map { $0 + 1 } ?? 0))
  }

  private func selectNote(_ note: NoteID?) {
    let index = note.flatMap { session.list.index(of: $0) }
    gtk_single_selection_set_selected(
      noteSelection, index.map(UInt32.init) ?? UInt32(GTK_INVALID_LIST_POSITION))
  }

  private func showNotebooks(_ rows: [SidebarRow]) {
    let sameRows = rows.map(\.id) == notebookRows.map(\.id)
    let previous = notebookRows
    notebookRows = rows
    guard sameRows else {
      sidebar.reload(["all"] + rows.map { String($0.id.rawValue) })
      return
    }
    // The same notebooks: rebind only the rows whose text changed, and "All notes".
    sidebar.splice(at: 0, removing: 1, inserting: ["all"])
    for (index, row) in rows.enumerated() where row != previous[index] {
      sidebar.splice(at: index + 1, removing: 1, inserting: [String(row.id.rawValue)])
    }
  }

  private func showNotes(_ update: ListUpdate<NoteID>) {
    let list = session.list
    if listRevision < 0 || update.kind == .reloaded {
      notes.reload(list.rows.map { String($0.id.rawValue) })
    } else if update.revision > listRevision {
      notes.apply(
        update, name: { String($0.rawValue) }, all: { list.rows.map { String($0.id.rawValue) } })
    }
    listRevision = max(listRevision, update.revision)
  }

  private func showEditor(_ editor: EditorState) {
    gtk_widget_set_sensitive(textView, editor.noteID == nil ? 0 : 1)
    gtk_widget_set_sensitive(titleEntry, editor.noteID == nil ? 0 : 1)
    if entryText() != editor.title {
      gtk_editable_set_text(OpaquePointer(titleEntry), editor.title)
    }
    replaceChangedText(with: editor.body)
  }

  /// Makes the buffer hold `body`, replacing only what lies between the common prefix and
  /// suffix, so the cursor and the scroll position stay on the user's text.
  private func replaceChangedText(with body: String) {
    let current = Array(bufferText().unicodeScalars)
    let wanted = Array(body.unicodeScalars)
    guard current != wanted else { return }
    var prefix = 0
    while prefix < current.count, prefix < wanted.count, current[prefix] == wanted[prefix] {
      prefix += 1
    }
    var suffix = 0
    while suffix < current.count - prefix, suffix < wanted.count - prefix,
      current[current.count - 1 - suffix] == wanted[wanted.count - 1 - suffix]
    {
      suffix += 1
    }
    var start = GtkTextIter()
    var end = GtkTextIter()
    gtk_text_buffer_get_iter_at_offset(buffer, &start, Int32(prefix))
    gtk_text_buffer_get_iter_at_offset(buffer, &end, Int32(current.count - suffix))
    gtk_text_buffer_delete(buffer, &start, &end)
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: wanted[prefix..<(wanted.count - suffix)])
    let inserted = String(scalars)
    gtk_text_buffer_insert(buffer, &start, inserted, Int32(inserted.utf8.count))
  }
}
