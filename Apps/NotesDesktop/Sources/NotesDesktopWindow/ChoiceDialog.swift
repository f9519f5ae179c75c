import AirframeBinding
import CGtk

/// A modal list of choices.
///
/// The command palette, the notebook picker of Move Note and Note History: a filter entry,
/// every row's label, a line for the reason a pick was refused, and the buttons.
///
/// ## Guarantees
///
/// - Keyboard first: the filter entry has the focus; typing filters the rows (GTK's own
///   string filter, case-insensitive substring), Up and Down move the selection, Enter picks
///   the selected row; Tab reaches the list, where Enter or a double click picks a row.
/// - A pick reaches the owner through an input slot; a pick the owner refuses (a disabled
///   command) keeps the dialog open with the reason. Rows rendered while it is open never
///   emit a pick.
/// - `close()` ends it without a pick (the owning window closing).
@MainActor
final class ChoiceDialog: WindowDialog {
  /// One row: what a pick reports, and what the row shows.
  struct Choice: Equatable {
    /// The id the owner gets back.
    var id: String
    /// The row's text (unique within the dialog).
    var label: String
  }

  /// The ids the user picked; renders never emit them.
  let picks = InputSlot<String>()
  private let frame: DialogWindow
  private let filterEntry: UnsafeMutablePointer<GtkWidget>
  private let rows: OpaquePointer
  private let filter: OpaquePointer
  private let selection: OpaquePointer
  private var choices: [Choice] = []
  private let binder = Binder(label: "choice dialog")
  private var isClosed = false
  /// Called once when the dialog closes, however it closes.
  var closed: (() -> Void)?

  /// Builds and shows the dialog over `parent`.
  ///
  /// - Parameters:
  ///   - parent: The window it belongs to.
  ///   - title: Its title, also the list's accessible name.
  ///   - message: What to pick.
  ///   - accept: The main button's label.
  ///   - choices: The rows.
  ///   - pick: Given each picked id; returns why it was refused (the dialog stays open), or
  ///     `nil` to close.
  init(
    parent: UnsafeMutablePointer<GtkWidget>, title: String, message: String, accept: String,
    choices: [Choice], pick: @escaping (String) -> String?
  ) {
    frame = DialogWindow(
      parent: parent, title: title, message: message, accept: accept, width: 480)
    filterEntry = required(gtk_search_entry_new(), "search entry")
    airframe_accessible_label(filterEntry, "Filter")
    rows = required(gtk_string_list_new(nil), "string list")
    let expression = gtk_property_expression_new(gtk_string_object_get_type(), nil, "string")
    filter = required(gtk_string_filter_new(expression), "string filter")
    gtk_string_filter_set_match_mode(filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING)
    gtk_string_filter_set_ignore_case(filter, 1)
    // The filter model takes a reference to each; the dialog keeps its own.
    g_object_ref(GPointer(rows))
    g_object_ref(GPointer(filter))
    let filtered = gtk_filter_list_model_new(cast(GPointer(rows)), cast(GPointer(filter)))
    selection = required(gtk_single_selection_new(cast(GPointer(filtered!))), "selection")
    let list = labelListView(selection, label: title) { item in
      gtk_list_item_get_item(item).flatMap { gtk_string_object_get_string(OpaquePointer($0)) }
        .map { String(cString: $0) } ?? ""
    }
    let scroller = required(gtk_scrolled_window_new(), "scrolled window")
    gtk_scrolled_window_set_child(cast(raw(scroller)), list)
    gtk_scrolled_window_set_min_content_height(cast(raw(scroller)), 280)
    gtk_widget_set_vexpand(scroller, 1)
    frame.append(filterEntry)
    frame.append(scroller)
    show(choices)

    binder.bind { connect in
      connect.forward(picks) { [unowned self] id in
        guard let refusal = pick(id) else { return self.close() }
        self.frame.showReason(refusal)
      }
    }
    connectInput(list)
    frame.present(focus: filterEntry)
    openDialogs.append(self)
  }

  /// Shows `choices` as the rows (a render: it never emits a pick).
  ///
  /// - Parameter choices: The rows, in order.
  func show(_ choices: [Choice]) {
    guard choices != self.choices else { return }
    self.choices = choices
    var labels: [UnsafePointer<CChar>?] = choices.map { UnsafePointer(strdup($0.label)) } + [nil]
    defer { for label in labels { free(UnsafeMutableRawPointer(mutating: label)) } }
    let count = g_list_model_get_n_items(rows)
    gtk_string_list_splice(rows, 0, count, &labels)
  }

  /// Closes the dialog and ends its binding, without a pick.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    binder.cancel()
    frame.destroy()
    g_object_unref(GPointer(rows))
    g_object_unref(GPointer(filter))
    openDialogs.removeAll { $0 === self }
    closed?()
  }

  // MARK: - Input

  private func connectInput(_ list: UnsafeMutablePointer<GtkWidget>) {
    // `changed`, not `search-changed`: GtkSearchEntry delays the latter, and Enter right
    // after typing must pick from the filtered rows.
    Signal.connect(GPointer(filterEntry), "changed") { [unowned self] in
      let text = gtk_editable_get_text(cast(raw(self.filterEntry))).map { String(cString: $0) }
      gtk_string_filter_set_search(self.filter, text ?? "")
    }
    Signal.connect(GPointer(filterEntry), "activate") { [unowned self] in self.pickSelected() }
    // The search entry takes Escape for itself (`stop-search`): it closes the dialog, as
    // Escape does anywhere else in it.
    Signal.connect(GPointer(filterEntry), "stop-search") { [unowned self] in self.close() }
    Signal.connect(GPointer(frame.main), "clicked") { [unowned self] in self.pickSelected() }
    Signal.connect(GPointer(frame.cancel), "clicked") { [unowned self] in self.close() }
    Signal.connect(
      GPointer(list), "activate",
      withPosition: { [unowned self] position in
        self.pick(at: position)
      })
    Signal.connectStopping(GPointer(frame.window), "close-request") { [unowned self] in
      self.close()
      return false
    }
    // Up and Down in the filter move the list's selection, so the keys never leave the
    // entry.
    let keys = required(gtk_event_controller_key_new(), "key controller")
    Signal.connectKeys(GPointer(keys)) { [unowned self] key in
      let count = g_list_model_get_n_items(self.selection)
      guard count > 0 else { return false }
      let selected = gtk_single_selection_get_selected(self.selection)
      switch Int32(key) {
      case GDK_KEY_Down, GDK_KEY_KP_Down:
        let next = selected == UInt32(GTK_INVALID_LIST_POSITION) ? 0 : min(selected + 1, count - 1)
        gtk_single_selection_set_selected(self.selection, next)
        return true
      case GDK_KEY_Up, GDK_KEY_KP_Up:
        let previous = selected == UInt32(GTK_INVALID_LIST_POSITION) ? 0 : max(selected, 1) - 1
        gtk_single_selection_set_selected(self.selection, previous)
        return true
      default:
        return false
      }
    }
    gtk_widget_add_controller(filterEntry, cast(GPointer(keys)))
  }

  private func pickSelected() {
    guard let id = selectedID() else { return }
    _ = picks.send(id)
  }

  /// The highlighted row's id; `nil`, with the reason shown, when no row is highlighted.
  private func selectedID() -> String? {
    let selected = gtk_single_selection_get_selected(selection)
    guard selected != UInt32(GTK_INVALID_LIST_POSITION) else {
      frame.showReason(choices.isEmpty ? "There is nothing to choose." : "Nothing matches.")
      return nil
    }
    return id(at: selected)
  }

  private func pick(at position: UInt32) {
    guard let id = id(at: position) else { return }
    _ = picks.send(id)
  }

  private func id(at position: UInt32) -> String? {
    guard let item = g_list_model_get_item(selection, position) else { return nil }
    defer { g_object_unref(item) }
    let label = gtk_string_object_get_string(OpaquePointer(item)).map { String(cString: $0) }
    return choices.first(where: { $0.label == label })?.id
  }
}
