/// Derived values waiting for their inputs, lowest rank first, and in the order they were
/// scheduled within a rank: a binary min-heap on (rank, order).
///
/// Unretained: a waiting node stays linked to its inputs until the pass ends. Slots are
/// reused from pass to pass (a count, not removals), so a pass allocates nothing.
@MainActor
struct RankQueue {
  /// `rank << 32 | order`, where `order` counts insertions in this pass.
  private var keys: ContiguousArray<Int> = []
  private var nodes: ContiguousArray<Unmanaged<GraphNode>> = []
  private var count = 0
  private var nextOrder = 0

  mutating func insert(_ link: Unmanaged<GraphNode>) {
    let key = link.withNode { $0.rank } << 32 | nextOrder
    nextOrder += 1
    if count == keys.count {
      keys.append(key)
      nodes.append(link)
    } else {
      keys[count] = key
      nodes[count] = link
    }
    var child = count
    count += 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard keys[child] < keys[parent] else { break }
      keys.swapAt(child, parent)
      nodes.swapAt(child, parent)
      child = parent
    }
  }

  mutating func popFirst() -> Unmanaged<GraphNode>? {
    guard count > 0 else { return nil }
    let first = nodes[0]
    count -= 1
    guard count > 0 else {
      nextOrder = 0
      return first
    }
    keys[0] = keys[count]
    nodes[0] = nodes[count]
    var parent = 0
    while true {
      var smallest = parent
      let left = 2 * parent + 1
      if left < count, keys[left] < keys[smallest] { smallest = left }
      if left + 1 < count, keys[left + 1] < keys[smallest] { smallest = left + 1 }
      guard smallest != parent else { break }
      keys.swapAt(smallest, parent)
      nodes.swapAt(smallest, parent)
      parent = smallest
    }
    return first
  }
}
