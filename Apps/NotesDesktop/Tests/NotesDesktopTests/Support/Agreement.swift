// Agreement: what the window must show for a library, worked out from the database alone
// (not from the session), so a test can check after every step that every presentation —
// title, sidebar, note list, editor, status bar — agrees with the others and with the file.

import Airframe
import Foundation
import NotesCore

/// `text` between the marks that isolate a user's text from the app's own (U+2068 …
/// U+2069), as the window shows every title inside its own text.
func isolated(_ text: String) -> String { "\u{2068}" + text + "\u{2069}" }

/// The left-to-right mark (U+200E) that starts a label line of the window's that does not
/// start with one of its words: the line reads left to right whatever the title in it.
let leftToRightMark = "\u{200E}"

/// A notebook's row in the sidebar: its title isolated, then its count.
func sidebarRow(_ title: String, _ count: Int) -> String {
  leftToRightMark + isolated(title) + "  \(count)"
}

/// The first line of a note's row: its title isolated, after a star if it is pinned.
func noteRow(_ title: String, pinned: Bool = false) -> String {
  leftToRightMark + (pinned ? "★ " : "") + isolated(title)
}

/// The window's title for its notebook and note titles: each isolated, "Notes" for none.
func windowTitle(_ titles: String...) -> String {
  titles.isEmpty ? "Notes" : leftToRightMark + titles.map(isolated).joined(separator: " — ")
}

/// The differences between what the window shows and what the library holds.
///
/// - Parameters:
///   - tree: The window's accessible tree.
///   - state: The library, read from the file.
///   - search: The search text the list is filtered by, if any (the list then shows a
///     subset of the notebook's notes).
/// - Returns: One line per difference; empty when everything agrees.
func disagreements(_ tree: AccessibleNode, _ state: NotesState, search: String = "") -> [String] {
  var problems: [String] = []
  let notebooks = state.notebooks.elements.sorted {
    ($0.title.lowercased(), $0.id.rawValue) < ($1.title.lowercased(), $1.id.rawValue)
  }
  func count(_ notebook: NotebookID) -> Int {
    state.notes.elements.filter { $0.notebookID == notebook }.count
  }
  // The sidebar: "All notes" and every notebook (isolated) with its count, in title order,
  // then Recently Deleted with its count.
  let sidebar = tree.first("list", named: "Notebooks")
  let expectedSidebar =
    ["All notes  \(state.notes.count)"]
    + notebooks.map { sidebarRow($0.title, count($0.id)) }
    + ["Recently Deleted  \(state.recentlyDeleted.count)"]
  if sidebar?.rowLabels != expectedSidebar {
    problems.append("sidebar \(sidebar?.rowLabels ?? []) ≠ \(expectedSidebar)")
  }
  let selectedNotebook = notebooks.first {
    sidebar?.selectedRow == sidebarRow($0.title, count($0.id))
  }
  // The note list: the selected notebook's notes (all of them under "All notes").
  let list = tree.first("list", named: "Notes")
  let listed = state.notes.elements.filter { note in
    (selectedNotebook == nil || note.notebookID == selectedNotebook?.id)
      && (search.isEmpty
        || (note.title + "\n" + note.body).lowercased().contains(search.lowercased()))
  }
  let expectedRows = Set(listed.map { noteRow($0.title, pinned: $0.isPinned) })
  let rows = list?.rowLabels ?? []
  if Set(rows) != expectedRows || rows.count != listed.count {
    problems.append("note list \(rows) ≠ \(expectedRows.sorted())")
  }
  let pinned = leftToRightMark + "★ "
  let pinnedFirst = rows.drop { $0.hasPrefix(pinned) }.allSatisfy { !$0.hasPrefix(pinned) }
  if !pinnedFirst { problems.append("pinned notes are not first: \(rows)") }
  // The editor: the selected note's title and text, as stored.
  let selectedRow = list?.selectedRow
  let note = listed.first { noteRow($0.title, pinned: $0.isPinned) == selectedRow }
  let titleEntry = tree.all.first { $0.role == "text" && $0.name == "Note title" }?.text
  let body = tree.first("text", named: "Note text")?.text
  if let note {
    if titleEntry != note.title {
      problems.append("title entry \(titleEntry ?? "-") ≠ \(note.title)")
    }
    if body != note.body { problems.append("editor text ≠ the stored body of \(note.title)") }
  } else if !listed.isEmpty {
    problems.append("no note is selected, though the list has \(listed.count)")
  }
  // The window title: the notebook (the selected one, else the note's) and the note, each
  // isolated.
  let notebookTitle =
    selectedNotebook?.title ?? note.flatMap { state.notebooks[$0.notebookID]?.title }
  let titles = [notebookTitle, note?.title].compactMap { $0 }
  let expectedTitle =
    titles.isEmpty ? "" : leftToRightMark + titles.map(isolated).joined(separator: " — ")
  let frame = tree.first("frame")?.name
  if frame != (expectedTitle.isEmpty ? "Notes" : expectedTitle) {
    problems.append("window title \(frame ?? "-") ≠ \(expectedTitle)")
  }
  // The status bar: the counts.
  let counts =
    (state.notebooks.count == 1 ? "1 notebook" : "\(state.notebooks.count) notebooks") + " · "
    + (state.notes.count == 1 ? "1 note" : "\(state.notes.count) notes")
  if !tree.all.contains(where: { $0.role == "label" && $0.name.hasPrefix(counts + " · ") }) {
    problems.append("no status bar starts with \(counts)")
  }
  return problems
}
