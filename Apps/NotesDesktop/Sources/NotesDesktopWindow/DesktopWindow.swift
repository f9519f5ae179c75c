import Airframe
import AirframeBinding
package import CGtk
import NotesCore
import NotesHost
package import NotesPresentation

/// One desktop window: one session's presentation.
///
/// A Notes window on GTK 4: a header bar with the window title, a menu bar, the sidebar and
/// the note list as `GtkListView`s, the note's title and text (or, while the sidebar has it
/// selected, Recently Deleted: `RecentlyDeletedPane`), and a status bar, every widget
/// connected to the window's own `NotesSession` through a `Binder`.
///
/// ## Guarantees
/// - Thin: the window holds no state of its own beyond widgets. Every value it shows comes
///   from a session projection through the binder's renders, and every user gesture goes
///   to a session intent through an `InputSlot` (see ``bind()``).
/// - No echoes: setting a widget from state makes GTK emit the same signals a user causes
///   (`changed`, `selection-changed`, `notify::cursor-position`). Those arrive while the
///   binder renders, so the slots drop them and count them; none reaches the session, and
///   no handler is blocked by hand.
/// - The editor is updated in place: a change from elsewhere replaces only the text that
///   changed, and the cursor goes where the session's editor state maps it, so the view
///   stays where the user was.
/// - The lists change by the positions each lens update names (`ListStore`); recycled note
///   rows rebind (`NoteRowView`).
/// - Each window presents a session of its own over one library (see `DesktopApplication`);
///   closing one ends its bindings and its dialogs only.
@MainActor
package final class DesktopWindow {
  /// The GTK window.
  package let window: UnsafeMutablePointer<GtkWidget>
  /// The application that opened it (New Window, Quit), if any.
  private(set) weak var application: DesktopApplication?

  /// The window's own session over the library.
  package let session: NotesSession
  let binder = Binder(label: "desktop window")

  // User input, one slot per gesture; renders make GTK emit the same signals, dropped here.
  let sidebarChoices = InputSlot<SidebarSelection>()
  let noteChoices = InputSlot<NoteID>()
  let bodyEdits = InputSlot<(body: String, cursor: Int)>()
  let cursorMoves = InputSlot<Int>()
  let titleCommits = InputSlot<String>()
  let titleFocuses = InputSlot<Void>()
  /// The pane that took the keyboard.
  let paneFocuses = InputSlot<Pane>()
  let searchEdits = InputSlot<String>()

  /// The menu bar, shortcuts and palette.
  private(set) var commands: CommandActions!

  let heading: UnsafeMutablePointer<GtkWidget>
  let sidebar = ListStore()
  let sidebarSelection: OpaquePointer
  let notes = ListStore()
  let noteSelection: OpaquePointer
  let titleEntry: UnsafeMutablePointer<GtkWidget>
  let textView: UnsafeMutablePointer<GtkWidget>
  let buffer: UnsafeMutablePointer<GtkTextBuffer>
  let statusLabel: UnsafeMutablePointer<GtkWidget>
  let searchEntry: UnsafeMutablePointer<GtkWidget>
  /// Recently Deleted, shown in place of the note list and the editor while selected.
  let deletedPane: RecentlyDeletedPane
  /// The note list and editor, or Recently Deleted.
  let content: UnsafeMutablePointer<GtkWidget>
  /// The row widgets GTK made for the note list, by list item.
  var noteRows: [GPointer: NoteRowView] = [:]
  /// The notebooks the sidebar shows, after "All notes".
  var notebookRows: [SidebarRow] = []
  /// The revision of the list update the note list shows.
  var listRevision = -1
  /// The confirmation dialogs shown, by confirmation.
  var confirmationDialogs: [DeletionConfirmation.ID: Dialog] = [:]

  /// What the window shows, to show again at the next launch: its session's view state,
  /// its size and whether it is maximized.
  var savedWindow: SavedWindow {
    var width: Int32 = 0
    var height: Int32 = 0
    gtk_window_get_default_size(cast(raw(window)), &width, &height)
    return SavedWindow(
      view: session.savedViewState,
      size: width > 0 && height > 0 ? .init(width: Int(width), height: Int(height)) : nil,
      isMaximized: gtk_window_is_maximized(cast(raw(window))) != 0)
  }

  /// Builds a window for `session`; nothing is bound until ``bind()``.
  ///
  /// - Parameters:
  ///   - application: The application it belongs to.
  ///   - session: The session it presents.
  package init(application: DesktopApplication, session: NotesSession) {
    self.application = application
    self.session = session
    window = required(gtk_application_window_new(application.application), "window")
    gtk_window_set_default_size(cast(raw(window)), 1_000, 640)

    heading = required(gtk_label_new(""), "label")
    // Titles are up to 200 characters: the label's width must never be the text's, or the
    // window grows past its screen (header, close button and editor off it).
    gtk_label_set_ellipsize(cast(raw(heading)), PANGO_ELLIPSIZE_END)
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
    // One undo history, the session's: GTK's own undo in the text and the title would
    // take Ctrl-Z from the session's Undo and change the text behind its back.
    gtk_text_buffer_set_enable_undo(buffer, 0)
    // GTK 4.8's text view measures the lines changed since its last layout while it draws,
    // and the new height then reaches the scrollbar after the scrolled window laid it out:
    // GTK warns that it draws the scrollbar without an allocation (typing into a note taller
    // than the view does it, in a plain GtkTextView too). Asking for a new layout of the view
    // after every change measures those lines in the layout phase, before the scrollbar is
    // placed. A resize, not only an allocation: an allocation alone left the editor's box
    // unallocated when it was drawn.
    let textView = textView
    Signal.connect(GPointer(buffer), "changed") { gtk_widget_queue_resize(textView) }
    gtk_editable_set_enable_undo(OpaquePointer(titleEntry), 0)
    statusLabel = required(gtk_label_new(""), "label")
    gtk_label_set_xalign(cast(raw(statusLabel)), 0)
    // A message may quote a whole title; cut in the middle, so the counts at its start and
    // the hint at its end ("u to undo") stay.
    gtk_label_set_ellipsize(cast(raw(statusLabel)), PANGO_ELLIPSIZE_MIDDLE)
    searchEntry = required(gtk_search_entry_new(), "search entry")
    airframe_accessible_label(searchEntry, "Search")
    deletedPane = RecentlyDeletedPane(session: session)
    content = required(gtk_stack_new(), "stack")
    commands = CommandActions(owner: self, session: session)

    layOut()
    connectSignals()
  }

  /// Gives the note's text the keyboard, with the cursor where the session has it.
  func focusEditor() {
    gtk_widget_grab_focus(textView)
  }

  /// Gives Recently Deleted's list the keyboard.
  func focusRecentlyDeleted() {
    gtk_widget_grab_focus(deletedPane.listView)
  }

  /// Gives the search entry the keyboard.
  func focusSearch() {
    gtk_widget_grab_focus(searchEntry)
  }

  // MARK: - Layout

  /// Makes the Delete key in `list` run Delete, which acts on the focused pane's item.
  ///
  /// The notebook in the sidebar, the note in the note list, through the same path as the
  /// menu's (a notebook with notes asks first); in the note's text it stays the text's key.
  /// A key controller on the list sees the keys of whatever inside it has the focus (a row).
  private func deleteKey(in list: UnsafeMutablePointer<GtkWidget>) {
    let keys = required(gtk_event_controller_key_new(), "key controller")
    Signal.connectKeys(GPointer(keys)) { [unowned self] key in
      guard Int32(key) == GDK_KEY_Delete || Int32(key) == GDK_KEY_KP_Delete else {
        return false
      }
      commands.choose(.session(.delete))
      return true
    }
    gtk_widget_add_controller(list, keys)
  }

  /// Tells the session that `pane` has the keyboard whenever `widget` or a widget inside
  /// it takes it, as a responder chain would: Rename and Delete then act on its item.
  private func reportsFocus(of widget: UnsafeMutablePointer<GtkWidget>, as pane: Pane) {
    let focus = required(gtk_event_controller_focus_new(), "focus controller")
    Signal.connect(GPointer(focus), "enter") { [unowned self] in
      _ = self.paneFocuses.send(pane)
    }
    gtk_widget_add_controller(widget, focus)
  }

  private func layOut() {
    let sidebarView = labelListView(sidebarSelection, label: "Notebooks") { [unowned self] item in
      self.sidebarText(at: Int(gtk_list_item_get_position(item)))
    }
    g_object_ref(GPointer(sidebarSelection))  // gtk_list_view_new took the reference this keeps
    let noteView = noteListView()
    deleteKey(in: sidebarView)
    deleteKey(in: noteView)
    let editor = required(gtk_box_new(GTK_ORIENTATION_VERTICAL, 6), "box")
    gtk_box_append(cast(raw(editor)), titleEntry)
    gtk_box_append(cast(raw(editor)), scrolled(textView))
    let listColumn = required(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0), "box")
    gtk_box_append(cast(raw(listColumn)), searchEntry)
    gtk_box_append(cast(raw(listColumn)), scrolled(noteView))
    // The search belongs to the list: Delete there deletes the selected note.
    reportsFocus(of: sidebarView, as: .sidebar)
    reportsFocus(of: listColumn, as: .list)
    reportsFocus(of: editor, as: .editor)
    reportsFocus(of: deletedPane.widget, as: .list)
    let right = required(gtk_paned_new(GTK_ORIENTATION_HORIZONTAL), "paned")
    gtk_paned_set_start_child(cast(raw(right)), listColumn)
    gtk_paned_set_end_child(cast(raw(right)), editor)
    gtk_paned_set_position(cast(raw(right)), 300)
    gtk_stack_add_named(OpaquePointer(content), right, "notes")
    gtk_stack_add_named(OpaquePointer(content), deletedPane.widget, "deleted")
    let panes = required(gtk_paned_new(GTK_ORIENTATION_HORIZONTAL), "paned")
    gtk_paned_set_start_child(cast(raw(panes)), scrolled(sidebarView))
    gtk_paned_set_end_child(cast(raw(panes)), content)
    gtk_paned_set_position(cast(raw(panes)), 200)
    gtk_widget_set_vexpand(panes, 1)
    let column = required(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0), "box")
    gtk_box_append(cast(raw(column)), commands.menuBar)
    gtk_box_append(cast(raw(column)), panes)
    gtk_box_append(cast(raw(column)), statusLabel)
    gtk_window_set_child(cast(raw(window)), column)
  }

  private func scrolled(_ child: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>
  {
    let scroller = required(gtk_scrolled_window_new(), "scrolled window")
    gtk_scrolled_window_set_child(cast(raw(scroller)), child)
    gtk_widget_set_hexpand(scroller, 1)
    gtk_widget_set_vexpand(scroller, 1)
    return scroller
  }
}
