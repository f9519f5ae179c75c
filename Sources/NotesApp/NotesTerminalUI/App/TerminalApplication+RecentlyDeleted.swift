// Recently Deleted in the terminal: the sidebar's last entry, whose notes the list pane
// shows while it is selected, with keys to restore them or delete them for good.

import Airframe
import NotesCore
import NotesPresentation

extension TerminalApplication {
  /// The highlighted note's index in Recently Deleted (0 when there are none).
  ///
  /// The highlight stays on its note while notes come and go around it (another process
  /// deletes one, which then heads the list); when its note leaves, the note now in its
  /// place, or the last one, is highlighted.
  public var highlightedDeletedIndex: Int {
    let count = session.recentlyDeletedCount
    if let note = deletedHighlight.note, let index = session.recentlyDeletedIndex(of: note) {
      return index
    }
    return max(0, min(deletedHighlight.index, count - 1))
  }

  /// Selects Recently Deleted in the sidebar (T) and gives its list the keyboard, with its
  /// most recently deleted note highlighted.
  func showRecentlyDeleted() {
    if case .prompt = interaction { interaction = .browsing }
    session.recentlyDeletedSelected()
    focus = .list
  }

  /// Handles a key in Recently Deleted's list; returns `false` for keys it leaves to the
  /// other panes' keys (Tab, undo, quit…).
  ///
  /// ↑ ↓ j k PgUp PgDn Home End highlight a note, Enter (or r) restores it, x (or d,
  /// Delete) asks whether to delete it for good, E whether to empty Recently Deleted. A key
  /// that needs a note says so when there is none.
  func handleRecentlyDeleted(_ key: Key) -> Bool {
    let count = session.recentlyDeletedCount
    let page = max(1, (lastSize.height - 4) / 4)
    let moves: [Key: Int] = [
      .up: -1, .character("k"): -1, .down: 1, .character("j"): 1, .pageUp: -page,
      .pageDown: page, .home: Int.min / 2, .end: Int.max / 2,
    ]
    if let delta = moves[key] {
      if count > 0 {
        let index = clamp(highlightedDeletedIndex, delta, count: count)
        deletedHighlight = (session.recentlyDeletedEntry(at: index).id, index)
      }
      return true
    }
    switch key {
    case .enter, .character("r"), .character("x"), .character("d"), .delete, .character("E"):
      break
    default: return false
    }
    guard count > 0 else {
      session.inform("Recently Deleted is empty.")
      return true
    }
    let index = highlightedDeletedIndex
    let id = session.recentlyDeletedEntry(at: index).id
    // Where the note was, for its neighbour to take its place once it leaves.
    deletedHighlight = (id, index)
    switch key {
    case .enter, .character("r"): session.deletedNoteRestored(id)
    case .character("E"): interaction = .deletedNotesQuestion(.empty)
    default: interaction = .deletedNotesQuestion(.deleteForGood(id))
    }
    return true
  }

  /// Answers a question of Recently Deleted: y deletes for good, any other key keeps.
  func handleDeletedNotesQuestion(_ key: Key, _ question: RecentlyDeletedQuestion) {
    interaction = .browsing
    guard key == .character("y") || key == .character("Y") else { return }
    switch question {
    case .deleteForGood(let id): session.deletedNoteDeletedForGood(id)
    case .empty: session.recentlyDeletedEmptied()
    }
  }

  /// The question, as the hint line asks it.
  func deletedNotesQuestionText(_ question: RecentlyDeletedQuestion) -> String {
    switch question {
    case .deleteForGood(let id):
      let title = session.recentlyDeletedEntry(id)?.note.title ?? ""
      return "Delete “\(BidiIsolation.isolate(title))” for good?"
    case .empty:
      let count = session.recentlyDeletedCount
      let notes = count == 1 ? "the note" : "all \(count) notes"
      return "Delete \(notes) in Recently Deleted for good?"
    }
  }
}
