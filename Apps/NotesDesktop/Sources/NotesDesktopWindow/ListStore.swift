import Airframe
import CGtk

/// The rows of one list, by id, as GTK's list views read them.
///
/// A GTK list model (`GListStore` of `GtkStringObject`s, one per row, holding the row's id) kept in
/// step with a list lens by the positions its updates name.
///
/// ## Guarantees
///
/// - An update changes only the rows it names: removed and moved rows are taken out at their
///   old positions (from the last), inserted and moved rows put in at their new positions
///   (from the first), one `items-changed` each with the update's own positions, never a
///   reload for one row.
/// - An updated row keeps its item (an item is the row's id, which did not change): GTK is
///   told nothing, and the owner refreshes the row's widget if one shows it. Replacing the
///   item would make GTK measure the whole list again, which grows with the list, on every
///   keystroke into the open note.
/// - A `.reloaded` update replaces every row in one splice.
@MainActor
final class ListStore {
  /// The `GListStore`; the selection model that wraps it owns it.
  private let store: OpaquePointer

  /// Creates an empty store.
  init() {
    guard let store = g_list_store_new(gtk_string_object_get_type()) else {
      fatalError("GTK returned no list store")
    }
    self.store = store
  }

  /// The store as the `GListModel` GTK's views and selections take.
  var model: OpaquePointer { store }

  /// The number of rows.
  var count: Int { Int(g_list_model_get_n_items(store)) }

  /// The id of the row at `position`, or `nil` past the end.
  ///
  /// - Parameter position: A row's position.
  /// - Returns: Its id string.
  func id(at position: Int) -> String? {
    guard position >= 0, position < count,
      let item = g_list_model_get_item(store, UInt32(position))
    else { return nil }
    defer { g_object_unref(item) }
    return gtk_string_object_get_string(OpaquePointer(item)).map { String(cString: $0) }
  }

  /// Replaces every row.
  ///
  /// - Parameter ids: The rows' ids, in order.
  func reload(_ ids: [String]) {
    splice(at: 0, removing: count, inserting: ids)
  }

  /// Applies a lens update, given how to name an id and, for a reload, every id.
  ///
  /// - Parameters:
  ///   - update: The update.
  ///   - name: An id's string.
  ///   - all: Every id, in order (read only for a reload).
  ///   - refresh: Given each updated row's id, after the rows are in place: shows its new
  ///     content in the widget that shows it, if any.
  func apply<ID: Hashable>(
    _ update: ListUpdate<ID>, name: (ID) -> String, all: () -> [String],
    refresh: (ID) -> Void
  ) {
    guard update.kind == .changed else {
      reload(all())
      return
    }
    let outgoing = (update.removed + update.moved).compactMap(\.from).sorted(by: >)
    for position in outgoing { splice(at: position, removing: 1, inserting: []) }
    let incoming = (update.inserted + update.moved).compactMap { change in
      change.to.map { (position: $0, id: name(change.id)) }
    }.sorted { $0.position < $1.position }
    for row in incoming { splice(at: row.position, removing: 0, inserting: [row.id]) }
    for row in update.updated { refresh(row.id) }
  }

  /// Removes `removing` rows at `position` and inserts rows for `ids` there, in one
  /// `items-changed`.
  func splice(at position: Int, removing: Int, inserting ids: [String]) {
    var items: [gpointer?] = ids.map { id in gtk_string_object_new(id).map { GPointer($0) } }
    items.withUnsafeMutableBufferPointer { buffer in
      g_list_store_splice(
        store, UInt32(position), UInt32(removing), buffer.baseAddress, UInt32(buffer.count))
    }
    for item in items { g_object_unref(item) }
  }
}
