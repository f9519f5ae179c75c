// RecentlyDeletedPane: what the window shows where the note list and the editor are while
// the sidebar has Recently Deleted selected.

import Airframe
import CGtk
import NotesCore
import NotesPresentation

/// Recently Deleted in a window: its notes in a list, the highlighted one's text read-only
/// beside it, and buttons to restore it, delete it for good or empty Recently Deleted.
///
/// ## Guarantees
/// - The list changes by the positions each update of the session's Recently Deleted names
///   (`ListStore`), as the note list does; a frame reads only the rows GTK binds.
/// - Thin: it shows the session's projections and sends every gesture (a button, Return,
///   Delete) through its input slots; the deletions for good ask first, through the
///   window's commands.
/// - A row stays highlighted while there is one: after a restore or a deletion the next one
///   takes its place.
@MainActor
final class RecentlyDeletedPane {
  /// The pane's widget: a bar with the buttons, above the list and the text.
  let widget: UnsafeMutablePointer<GtkWidget>
  /// The list view, which takes the keyboard when the pane is shown.
  let listView: UnsafeMutablePointer<GtkWidget>
  let store = ListStore()
  let selection: OpaquePointer
  private let preview: UnsafeMutablePointer<GtkWidget>
  private let keptLabel: UnsafeMutablePointer<GtkWidget>
  private let restoreButton: UnsafeMutablePointer<GtkWidget>
  private let deleteButton: UnsafeMutablePointer<GtkWidget>
  private let emptyButton: UnsafeMutablePointer<GtkWidget>
  /// The revision of the update the list shows.
  private var revision = -1
  private let session: NotesSession

  /// The user asked to restore the highlighted note.
  let restores = InputSlot<NoteID>()
  /// The user asked to delete the highlighted note for good (it asks first).
  let deletions = InputSlot<NoteID>()
  /// The user asked to empty Recently Deleted (it asks first).
  let emptyings = InputSlot<Void>()

  /// Builds the pane for `session`; nothing is shown until it is bound.
  ///
  /// - Parameter session: The window's session.
  init(session: NotesSession) {
    self.session = session
    selection = required(gtk_single_selection_new(store.model), "selection")
    // Autoselect: a row stays highlighted while there is one.
    gtk_single_selection_set_autoselect(selection, 1)
    listView = labelListView(selection, label: "Recently Deleted") { [session, store] item in
      let position = Int(gtk_list_item_get_position(item))
      guard let id = store.id(at: position).flatMap(Int64.init),
        let entry = session.recentlyDeletedEntry(NoteID(rawValue: id))
      else { return "" }
      return Self.text(of: entry)
    }
    g_object_ref(GPointer(selection))  // gtk_list_view_new took the reference this keeps
    preview = required(gtk_text_view_new(), "text view")
    gtk_text_view_set_editable(cast(raw(preview)), 0)
    gtk_text_view_set_cursor_visible(cast(raw(preview)), 0)
    gtk_text_view_set_wrap_mode(cast(raw(preview)), GTK_WRAP_WORD_CHAR)
    airframe_accessible_label(preview, "Deleted note text")
    keptLabel = required(gtk_label_new(""), "label")
    gtk_label_set_xalign(cast(raw(keptLabel)), 0)
    gtk_label_set_wrap(cast(raw(keptLabel)), 1)
    restoreButton = required(gtk_button_new_with_label("Restore"), "button")
    deleteButton = required(gtk_button_new_with_label("Delete for Good…"), "button")
    emptyButton = required(gtk_button_new_with_label("Empty…"), "button")

    // A bar across the pane (how long notes are kept, then the buttons), above the list
    // and the text side by side as the note list and the editor are.
    let bar = required(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6), "box")
    gtk_widget_set_hexpand(keptLabel, 1)
    gtk_box_append(cast(raw(bar)), keptLabel)
    for button in [restoreButton, deleteButton, emptyButton] {
      gtk_box_append(cast(raw(bar)), button)
    }
    for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(bar, 6) }
    let panes = required(gtk_paned_new(GTK_ORIENTATION_HORIZONTAL), "paned")
    gtk_paned_set_start_child(cast(raw(panes)), Self.scrolled(listView))
    gtk_paned_set_end_child(cast(raw(panes)), Self.scrolled(preview))
    gtk_paned_set_position(cast(raw(panes)), 300)
    widget = required(gtk_box_new(GTK_ORIENTATION_VERTICAL, 6), "box")
    gtk_box_append(cast(raw(widget)), bar)
    gtk_box_append(cast(raw(widget)), panes)
    connectSignals()
  }

  /// The highlighted note, if any.
  var highlighted: NoteID? {
    let position = Int(gtk_single_selection_get_selected(selection))
    return store.id(at: position).flatMap(Int64.init).map(NoteID.init(rawValue:))
  }

  private func connectSignals() {
    Signal.connect(GPointer(restoreButton), "clicked") { [unowned self] in
      if let id = highlighted { _ = restores.send(id) }
    }
    Signal.connect(GPointer(deleteButton), "clicked") { [unowned self] in
      if let id = highlighted { _ = deletions.send(id) }
    }
    Signal.connect(GPointer(emptyButton), "clicked") { [unowned self] in
      _ = emptyings.send(())
    }
    // A double click on a row restores it.
    Signal.connect(
      GPointer(listView), "activate",
      withPosition: { [unowned self] position in
        guard let id = store.id(at: Int(position)).flatMap(Int64.init) else { return }
        _ = restores.send(NoteID(rawValue: id))
      })
    // Return restores the highlighted note and Delete deletes it for good, after asking,
    // wherever in the list the keyboard is (GTK activates a row only when the row itself
    // has the focus).
    let keys = required(gtk_event_controller_key_new(), "key controller")
    Signal.connectKeys(GPointer(keys)) { [unowned self] key in
      let slot: InputSlot<NoteID>
      switch Int32(key) {
      case GDK_KEY_Return, GDK_KEY_KP_Enter: slot = restores
      case GDK_KEY_Delete, GDK_KEY_KP_Delete: slot = deletions
      default: return false
      }
      if let id = highlighted { _ = slot.send(id) }
      return true
    }
    gtk_widget_add_controller(listView, keys)
    Signal.connect(
      GPointer(selection), "selection-changed",
      withPositions: { [unowned self] _, _ in showPreview() })
  }

  /// Renders the session's Recently Deleted into the pane and forwards its gestures.
  ///
  /// - Parameters:
  ///   - connect: The window's binder's connections.
  ///   - deleteForGood: Asks whether to delete a note for good, then does.
  ///   - empty: Asks whether to empty Recently Deleted, then does.
  func bind(
    _ connect: inout Binder.Connections, deleteForGood: @escaping (NoteID) -> Void,
    empty: @escaping () -> Void
  ) {
    let session = session
    connect.render(session.recentlyDeletedUpdates) { [unowned self] update in show(update) }
    connect.forward(restores) { session.deletedNoteRestored($0) }
    connect.forward(deletions) { deleteForGood($0) }
    connect.forward(emptyings) { empty() }
  }

  private func show(_ update: ListUpdate<NoteID>) {
    if revision < 0 || update.kind == .reloaded {
      store.reload(session.recentlyDeleted.map { String($0.id.rawValue) })
    } else if update.revision > revision {
      store.apply(
        update, name: { String($0.rawValue) },
        all: { session.recentlyDeleted.map { String($0.id.rawValue) } }, refresh: { _ in })
    }
    revision = max(revision, update.revision)
    let count = store.count
    gtk_label_set_text(
      cast(raw(keptLabel)),
      (count == 0 ? "Recently Deleted is empty. " : "")
        + RecentlyDeleted.keptSentence(days: session.recentlyDeletedDays))
    for button in [restoreButton, deleteButton, emptyButton] {
      gtk_widget_set_sensitive(button, count == 0 ? 0 : 1)
    }
    showPreview()
  }

  /// Shows the highlighted note's text, or nothing.
  private func showPreview() {
    let buffer = gtk_text_view_get_buffer(cast(raw(preview)))
    let text = highlighted.flatMap { session.recentlyDeletedEntry($0) }?.note.body ?? ""
    gtk_text_buffer_set_text(buffer, text, -1)
    // As for the editor (see `DesktopWindow`): GTK 4.8 measures a changed text view while
    // it draws unless asked for a new layout, and then draws boxes without an allocation.
    gtk_widget_queue_resize(preview)
  }

  /// Highlights the most recently deleted note, as Recently Deleted opens.
  func highlightFirst() {
    if store.count > 0 { gtk_single_selection_set_selected(selection, 0) }
  }

  /// A row's text: the note's title, the notebook it was in and when it was deleted.
  static func text(of entry: DeletedNote) -> String {
    leftToRight(
      "\(BidiIsolation.isolate(entry.note.title)) — \(BidiIsolation.isolate(entry.notebookTitle))"
        + " — " + ShownDate.text(entry.deleted))
  }

  private static func scrolled(
    _ child: UnsafeMutablePointer<GtkWidget>
  ) -> UnsafeMutablePointer<GtkWidget> {
    let scroller = required(gtk_scrolled_window_new(), "scrolled window")
    gtk_scrolled_window_set_child(cast(raw(scroller)), child)
    gtk_widget_set_hexpand(scroller, 1)
    gtk_widget_set_vexpand(scroller, 1)
    return scroller
  }
}
