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
/// - A detail, when given, shows a read-only text about the highlighted row under the list
///   (Note History's differences), shown again whenever another row is highlighted.
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

  /// A text about the highlighted row, shown under the list.
  struct Detail {
    /// The text's accessible name.
    var label: String
    /// Given the highlighted row's id, the text's lines.
    var lines: (String) -> [DetailLine]
  }

  /// A line of the detail: its text, how it is drawn, and the parts of it to emphasize.
  struct DetailLine {
    var text: String
    var style: DetailStyle
    /// Ranges of `text` drawn on a highlight as well (the words of a line that changed).
    var emphasized: [Range<String.Index>] = []
  }

  /// How a line of the detail is drawn.
  enum DetailStyle: String {
    /// As text.
    case plain
    /// Bold: a heading.
    case heading
    /// Dimmed: a remark.
    case dim
    /// Struck through, in red: what the version has and the text now lacks.
    case removed
    /// Bold, in green: what the text now has and the version lacks.
    case added
  }

  /// The ids the user picked; renders never emit them.
  let picks = InputSlot<String>()
  private let frame: DialogWindow
  private let filterEntry: UnsafeMutablePointer<GtkWidget>
  private let rows: OpaquePointer
  private let filter: OpaquePointer
  private let selection: OpaquePointer
  private var choices: [Choice] = []
  /// The detail, and its text view's buffer, when the dialog has one.
  private var detail: (Detail, buffer: UnsafeMutablePointer<GtkTextBuffer>)?
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
  ///   - detail: A text about the highlighted row, shown under the list; none by default.
  ///   - pick: Given each picked id; returns why it was refused (the dialog stays open), or
  ///     `nil` to close.
  init(
    parent: UnsafeMutablePointer<GtkWidget>, title: String, message: String, accept: String,
    choices: [Choice], detail: Detail? = nil, pick: @escaping (String) -> String?
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
    if let detail { showsDetail(detail) }
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
    showDetail()
  }

  /// Adds the detail's text under the list, and shows it again for each highlighted row.
  private func showsDetail(_ detail: Detail) {
    let view = required(gtk_text_view_new(), "text view")
    gtk_text_view_set_editable(cast(raw(view)), 0)
    gtk_text_view_set_wrap_mode(cast(raw(view)), GTK_WRAP_WORD_CHAR)
    airframe_accessible_label(view, detail.label)
    let buffer = required(gtk_text_view_get_buffer(cast(raw(view))), "text buffer")
    airframe_text_tag(buffer, DetailStyle.heading.rawValue, nil, nil, 1, 0)
    airframe_text_tag(buffer, DetailStyle.dim.rawValue, "#77767b", nil, 0, 0)
    airframe_text_tag(buffer, DetailStyle.removed.rawValue, "#c01c28", nil, 0, 1)
    airframe_text_tag(buffer, DetailStyle.added.rawValue, "#26a269", nil, 1, 0)
    airframe_text_tag(buffer, Self.emphasis, nil, "#f9f06b", 0, 0)
    self.detail = (detail, buffer)
    let scroller = required(gtk_scrolled_window_new(), "scrolled window")
    gtk_scrolled_window_set_child(cast(raw(scroller)), view)
    gtk_scrolled_window_set_min_content_height(cast(raw(scroller)), 160)
    gtk_widget_set_vexpand(scroller, 1)
    frame.append(scroller)
    Signal.connect(
      GPointer(selection), "selection-changed",
      withPositions: { [unowned self] _, _ in showDetail() })
  }

  /// Shows the detail of the highlighted row, or nothing when none is (or no detail).
  private func showDetail() {
    guard let (detail, buffer) = detail else { return }
    let selected = gtk_single_selection_get_selected(selection)
    let lines = id(at: selected).map(detail.lines) ?? []
    gtk_text_buffer_set_text(buffer, "", 0)
    var end = GtkTextIter()
    for (index, line) in lines.enumerated() {
      let start = gtk_text_buffer_get_char_count(buffer)
      gtk_text_buffer_get_end_iter(buffer, &end)
      gtk_text_buffer_insert(buffer, &end, line.text + (index < lines.count - 1 ? "\n" : ""), -1)
      var from = GtkTextIter()
      var to = GtkTextIter()
      if line.style != .plain {
        gtk_text_buffer_get_iter_at_offset(buffer, &from, start)
        gtk_text_buffer_get_iter_at_offset(
          buffer, &to, start + Int32(line.text.unicodeScalars.count))
        gtk_text_buffer_apply_tag_by_name(buffer, line.style.rawValue, &from, &to)
      }
      // GTK's offsets count characters as Unicode scalars.
      for range in line.emphasized {
        let lower = line.text.unicodeScalars.distance(
          from: line.text.startIndex, to: range.lowerBound)
        let upper = lower + line.text.unicodeScalars[range].count
        gtk_text_buffer_get_iter_at_offset(buffer, &from, start + Int32(lower))
        gtk_text_buffer_get_iter_at_offset(buffer, &to, start + Int32(upper))
        gtk_text_buffer_apply_tag_by_name(buffer, Self.emphasis, &from, &to)
      }
    }
  }

  /// The name of the tag of a detail's emphasized ranges.
  private static let emphasis = "emphasis"

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
