// DesktopWindow+Lists: the sidebar and the note list — list views over `ListStore`s that
// change by the positions each update names, their rows' text, and the selection shown.

import Airframe
import CGtk
import NotesCore
import NotesPresentation

extension DesktopWindow {
  /// The note list: rows are `NoteRowView`s, recycled by GTK and rebound on every bind.
  func noteListView() -> UnsafeMutablePointer<GtkWidget> {
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
        self.observer?.noteRowReleased(droppedPreviews: view.droppedPreviews, by: self)
        view.clear()
      })
    let view = required(gtk_list_view_new(noteSelection, factory), "list view")
    g_object_ref(GPointer(noteSelection))  // gtk_list_view_new took the reference this keeps
    airframe_accessible_label(view, "Notes")
    return view
  }

  /// The sidebar's text at `position`: "All notes" first, then each notebook and its count,
  /// then Recently Deleted and its count.
  func sidebarText(at position: Int) -> String {
    switch sidebarEntry(at: position) {
    case .allNotes: return "All notes  \(session.noteCount)"
    case .recentlyDeleted: return "Recently Deleted  \(session.recentlyDeletedCount)"
    case .notebook:
      let row = notebookRows[position - 1]
      return Self.sidebarText(title: row.title, count: row.noteCount)
    }
  }

  /// What the sidebar's row at `position` selects; "All notes" for a position past them.
  func sidebarEntry(at position: Int) -> SidebarSelection {
    if position >= 1, position - 1 < notebookRows.count {
      return .notebook(notebookRows[position - 1].id)
    }
    return position == notebookRows.count + 1 ? .recentlyDeleted : .allNotes
  }

  /// A notebook's row in the sidebar: its title, then its count.
  ///
  /// The title is isolated from the count (`BidiIsolation`): a title in Arabic or Hebrew
  /// would otherwise take the count into its right-to-left run; the row reads left to right
  /// (`leftToRight`).
  ///
  /// - Parameters:
  ///   - title: The notebook's title.
  ///   - count: How many notes it holds.
  /// - Returns: The row's text.
  nonisolated static func sidebarText(title: String, count: Int) -> String {
    leftToRight("\(BidiIsolation.isolate(title))  \(count)")
  }

  func selectSidebarEntry(_ selection: SidebarSelection) {
    let position =
      switch selection {
      case .allNotes: 0
      case .notebook(let id): notebookRows.firstIndex { $0.id == id }.map { $0 + 1 } ?? 0
      case .recentlyDeleted: notebookRows.count + 1
      }
    gtk_single_selection_set_selected(sidebarSelection, UInt32(position))
  }

  /// Rebinds the sidebar's last row, Recently Deleted, so it shows its count.
  func showRecentlyDeletedCount() {
    guard sidebar.count == notebookRows.count + 2 else { return }
    sidebar.splice(at: notebookRows.count + 1, removing: 1, inserting: ["deleted"])
  }

  func selectNote(_ note: NoteID?) {
    let index = note.flatMap { session.list.index(of: $0) }
    gtk_single_selection_set_selected(
      noteSelection, index.map(UInt32.init) ?? UInt32(GTK_INVALID_LIST_POSITION))
  }

  func showNotebooks(_ rows: [SidebarRow]) {
    // The store holds "All notes", the notebooks and Recently Deleted once the first rows
    // are shown; until then it is empty, even when the library has no notebook to show.
    let sameRows = sidebar.count == rows.count + 2 && rows.map(\.id) == notebookRows.map(\.id)
    let previous = notebookRows
    notebookRows = rows
    guard sameRows else {
      sidebar.reload(["all"] + rows.map { String($0.id.rawValue) } + ["deleted"])
      return
    }
    // The same notebooks: rebind only the rows whose text changed, and "All notes".
    sidebar.splice(at: 0, removing: 1, inserting: ["all"])
    for (index, row) in rows.enumerated() where row != previous[index] {
      sidebar.splice(at: index + 1, removing: 1, inserting: [String(row.id.rawValue)])
    }
  }

  func showNotes(_ update: ListUpdate<NoteID>) {
    let list = session.list
    if listRevision < 0 || update.kind == .reloaded {
      notes.reload(list.rows.map { String($0.id.rawValue) })
    } else if update.revision > listRevision {
      notes.apply(
        update, name: { String($0.rawValue) }, all: { list.rows.map { String($0.id.rawValue) } },
        refresh: { id in
          guard let row = list.row(for: id) else { return }
          for view in noteRows.values where view.note == id { view.show(row) }
        })
    }
    listRevision = max(listRevision, update.revision)
  }
}
