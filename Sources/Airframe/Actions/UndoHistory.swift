// UndoHistory: the undo and redo stacks, as a value.
//
// Guarantees
// - Recording a new entry clears the redo stack.
// - Entries recorded while a group is open join that group, and the group is one entry:
//   one undo reverts all of it.
// - The depth is bounded: past `limit` entries the oldest is dropped.

/// One step the user can undo or redo: a name and the actions that revert it, in the order
/// they must run.
public struct UndoEntry<State> {
  /// The name shown as "Undo <name>".
  public let name: String
  /// The inverse actions, in the order they run.
  let actions: [any Action<State>]
}

/// Undo and redo stacks with grouping.
struct UndoHistory<State> {
  private(set) var undoStack: [UndoEntry<State>] = []
  private(set) var redoStack: [UndoEntry<State>] = []
  private var openGroup: (name: String, inverses: [any Action<State>])?
  private var groupDepth = 0
  let limit: Int

  init(limit: Int) { self.limit = limit }

  /// Records the inverse of a performed action; clears redo.
  mutating func record(name: String, inverse: any Action<State>) {
    redoStack.removeAll()
    if openGroup != nil {
      // Inverses of a group run newest first.
      openGroup?.inverses.insert(inverse, at: 0)
    } else {
      push(UndoEntry(name: name, actions: [inverse]), onto: &undoStack)
    }
  }

  mutating func beginGroup(named name: String) {
    groupDepth += 1
    if groupDepth == 1 { openGroup = (name, []) }
  }

  mutating func endGroup() {
    precondition(groupDepth > 0, "endGroup() without beginGroup(named:)")
    groupDepth -= 1
    guard groupDepth == 0, let group = openGroup else { return }
    openGroup = nil
    if !group.inverses.isEmpty {
      push(UndoEntry(name: group.name, actions: group.inverses), onto: &undoStack)
    }
  }

  mutating func popUndo() -> UndoEntry<State>? { undoStack.popLast() }
  mutating func popRedo() -> UndoEntry<State>? { redoStack.popLast() }
  mutating func pushUndo(_ entry: UndoEntry<State>) { push(entry, onto: &undoStack) }
  mutating func pushRedo(_ entry: UndoEntry<State>) { push(entry, onto: &redoStack) }

  private func push(_ entry: UndoEntry<State>, onto stack: inout [UndoEntry<State>]) {
    stack.append(entry)
    if stack.count > limit { stack.removeFirst(stack.count - limit) }
  }
}
