// LabelListView: a `GtkListView` whose rows are one-line labels, the shape of the sidebar,
// the palette and the notebook picker.

import CGtk

/// A list view over `selection` whose rows are labels; `text` gives a row's text from its
/// list item whenever GTK binds a (recycled) row.
///
/// - Parameters:
///   - selection: The selection model over the rows.
///   - label: The list's accessible name.
///   - text: The text of the row GTK binds (its `GtkListItem`).
/// - Returns: The list view; it holds its own reference to `selection`.
@MainActor
func labelListView(
  _ selection: OpaquePointer, label: String, text: @escaping (OpaquePointer) -> String
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
      gtk_label_set_text(cast(raw(row)), text(OpaquePointer(item)))
    })
  let view = required(gtk_list_view_new(selection, factory), "list view")
  airframe_accessible_label(view, label)
  return view
}
