extension ListUpdate {
  /// Fills `removed`, `inserted`, `moved` and `updated`: sorts the rows a lens took out
  /// and put back into the four kinds of change.
  ///
  /// - A row taken out and not put back is removed; put back and not taken out, inserted.
  /// - A row taken out and put back is updated in place only if it has the same number of
  ///   untouched rows before it in the old and the new list, and its order relative to the
  ///   other in-place rows is unchanged; otherwise it is moved. So the rows that stay (the
  ///   untouched and the in-place ones) are in the same relative order before and after,
  ///   which is what makes the update applicable by deletions and insertions.
  /// - Cost: O(k log k) for k rows, with no look-up of the list itself. It is inlinable,
  ///   so a lens's client compiles it for its own id type.
  ///
  /// - Parameters:
  ///   - departed: The rows taken out, with their old index (`from`), ascending.
  ///   - landed: The rows put in, with their new index (`to`), ascending.
  @inlinable
  mutating func describe(departed: [ListRowChange<ID>], landed: [ListRowChange<ID>]) {
    guard !landed.isEmpty else {
      removed = departed
      return
    }
    guard !departed.isEmpty else {
      inserted = landed
      return
    }
    // The rank of each departed row among the departed rows, by id.
    var ranks: [ID: Int] = [:]
    if departed.count > 8 {
      ranks.reserveCapacity(departed.count)
      for rank in departed.indices { ranks[departed[rank].id] = rank }
    }
    func rank(of id: ID) -> Int? {
      if !ranks.isEmpty { return ranks[id] }
      return departed.firstIndex { $0.id == id }
    }
    var stays = [Bool](repeating: false, count: departed.count)
    var candidates: [ListRowChange<ID>] = []
    for landedRank in landed.indices {
      let change = landed[landedRank]
      guard let departedRank = rank(of: change.id), let to = change.to,
        let from = departed[departedRank].from
      else {
        inserted.append(change)
        continue
      }
      stays[departedRank] = true
      let both = ListRowChange(id: change.id, from: from, to: to)
      // Untouched rows before it: its index minus the touched rows before it.
      if from - departedRank == to - landedRank {
        candidates.append(both)
      } else {
        moved.append(both)
      }
    }
    for departedRank in departed.indices where !stays[departedRank] {
      removed.append(departed[departedRank])
    }
    // Keep in place the candidates whose new indices increase in old-index order.
    if candidates.count > 1 { candidates.sort { ($0.from ?? 0) < ($1.from ?? 0) } }
    var lastKept = -1
    var displaced = false
    for candidate in candidates {
      let to = candidate.to ?? 0
      if to > lastKept {
        updated.append(candidate)
        lastKept = to
      } else {
        moved.append(candidate)
        displaced = true
      }
    }
    if displaced || !moved.isEmpty { moved.sort { ($0.to ?? 0) < ($1.to ?? 0) } }
  }
}
