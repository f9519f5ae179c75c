/// One step the user can undo or redo: a name and the actions that revert it, in the order
/// they must run.
///
/// ## Guarantees
///
/// - Recording a new entry clears the redo stack.
/// - Entries recorded while a group is open join that group, and the group is one entry:
///   one undo reverts all of it.
/// - The depth is bounded: past `limit` entries the oldest is dropped.
/// - Coalescing: an entry recorded with a coalescing key equal to the key of the entry on
///   top of the undo stack, with nothing recorded, undone or redone in between, is merged
///   into it: the older inverse is kept (it reverts the whole run), the newer dropped.
public struct UndoEntry<State> {
  /// The name shown as "Undo <name>".
  public let name: String
  /// The inverse actions, in the order they run.
  let actions: [any Action<State>]
  /// What the step left in the rows and values it changed.
  var snapshot: StepSnapshot<State>
}

/// Undo and redo stacks with grouping.
struct UndoHistory<State> {
  private(set) var undoStack: [UndoEntry<State>] = []
  private(set) var redoStack: [UndoEntry<State>] = []
  private var openGroup:
    (
      name: String, key: AnyHashable?, inverses: [any Action<State>], snapshot: StepSnapshot<State>
    )?
  private var groupDepth = 0
  /// The coalescing key of the top undo entry while a run can still be extended.
  private var runKey: AnyHashable?
  let limit: Int

  init(limit: Int) { self.limit = limit }

  /// Records the inverse of a performed action; clears redo.
  mutating func record(
    name: String, inverse: any Action<State>, coalescingKey: AnyHashable?,
    snapshot: StepSnapshot<State>
  ) {
    redoStack.removeAll()
    if openGroup != nil {
      // Inverses of a group run newest first.
      openGroup?.inverses.insert(inverse, at: 0)
      openGroup?.snapshot.merge(snapshot)
    } else {
      pushRecorded(
        UndoEntry(name: name, actions: [inverse], snapshot: snapshot), coalescingKey: coalescingKey)
    }
  }

  mutating func beginGroup(named name: String, coalescingKey: AnyHashable?) {
    groupDepth += 1
    if groupDepth == 1 { openGroup = (name, coalescingKey, [], StepSnapshot()) }
  }

  mutating func endGroup() {
    precondition(groupDepth > 0, "endGroup() without beginGroup(named:)")
    groupDepth -= 1
    guard groupDepth == 0, let group = openGroup else { return }
    openGroup = nil
    if !group.inverses.isEmpty {
      pushRecorded(
        UndoEntry(name: group.name, actions: group.inverses, snapshot: group.snapshot),
        coalescingKey: group.key)
    }
  }

  mutating func popUndo() -> UndoEntry<State>? {
    runKey = nil
    return undoStack.popLast()
  }

  mutating func popRedo() -> UndoEntry<State>? {
    runKey = nil
    return redoStack.popLast()
  }

  mutating func pushUndo(_ entry: UndoEntry<State>) {
    runKey = nil
    push(entry, onto: &undoStack)
  }

  mutating func pushRedo(_ entry: UndoEntry<State>) {
    runKey = nil
    push(entry, onto: &redoStack)
  }

  /// Pushes a newly recorded entry, or merges it into the run on top of the stack (the
  /// older inverse stays; the newer snapshot is what the run now leaves).
  private mutating func pushRecorded(_ entry: UndoEntry<State>, coalescingKey: AnyHashable?) {
    if let coalescingKey, coalescingKey == runKey, !undoStack.isEmpty {
      undoStack[undoStack.count - 1].snapshot.merge(entry.snapshot)
      return
    }
    push(entry, onto: &undoStack)
    runKey = coalescingKey
  }

  private func push(_ entry: UndoEntry<State>, onto stack: inout [UndoEntry<State>]) {
    stack.append(entry)
    if stack.count > limit { stack.removeFirst(stack.count - limit) }
  }
}
