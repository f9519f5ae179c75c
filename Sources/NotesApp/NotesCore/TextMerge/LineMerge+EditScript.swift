extension LineMerge {
  /// A run of ancestor lines that one side replaced by a run of its own lines: one side's
  /// changes against the ancestor are a list of hunks.
  ///
  /// ## Guarantees
  /// - Matching: each side is diffed against the ancestor with Myers' shortest edit script
  ///   (`MyersDiff`, linear space, after trimming the common prefix and suffix). The diff is
  ///   a list of hunks: a run of ancestor lines (empty for an insertion) that the side
  ///   replaced by a run of its own lines (empty for a deletion). One side's hunks are
  ///   always separated by at least one line it kept.
  struct Hunk: Equatable, RegionChange {
    /// The first ancestor line replaced.
    var ancestorStart: Int
    /// The ancestor line after the last one replaced; equal to `ancestorStart` for an
    /// insertion.
    var ancestorEnd: Int
    /// The first line of the side that replaces them.
    var sideStart: Int
    /// The side's line after the last one that replaces them; equal to `sideStart` for a
    /// deletion.
    var sideEnd: Int

    /// How many lines the side has more than the ancestor because of this hunk.
    var growth: Int { (sideEnd - sideStart) - (ancestorEnd - ancestorStart) }
    /// The first ancestor line replaced, where the region sweep places the hunk.
    var regionStart: Int { ancestorStart }
    /// The ancestor line after the last one replaced.
    var regionEnd: Int { ancestorEnd }
  }

  /// The hunks of a shortest edit script that turns `a` into `b`, in order.
  ///
  /// Consecutive hunks are separated by at least one line matched between `a` and `b`.
  ///
  /// - Parameters:
  ///   - a: The old sequence.
  ///   - b: The new sequence.
  /// - Returns: The hunks; empty if `a == b`.
  static func editScript(from a: [Int], to b: [Int]) -> [Hunk] {
    var differ = MyersDiff(a: a, b: b)
    differ.diff(0, a.count, 0, b.count)
    var hunks: [Hunk] = []
    var nextA = 0
    var nextB = 0
    for (x, y) in differ.matches {
      if x > nextA || y > nextB {
        hunks.append(Hunk(ancestorStart: nextA, ancestorEnd: x, sideStart: nextB, sideEnd: y))
      }
      nextA = x + 1
      nextB = y + 1
    }
    if a.count > nextA || b.count > nextB {
      hunks.append(
        Hunk(ancestorStart: nextA, ancestorEnd: a.count, sideStart: nextB, sideEnd: b.count))
    }
    return hunks
  }
}
