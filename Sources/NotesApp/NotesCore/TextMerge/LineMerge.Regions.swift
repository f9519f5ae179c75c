extension LineMerge {
  /// A change the region sweep groups: the span of the ancestor it may occupy, and how many
  /// items it adds to its side.
  protocol RegionChange {
    /// The first ancestor item the change may occupy.
    var regionStart: Int { get }
    /// The ancestor item after the last one the change may occupy; `regionStart` for an
    /// insertion that cannot move.
    var regionEnd: Int { get }
    /// How many items its side has more than the ancestor because of this change.
    var growth: Int { get }
  }

  /// The regions of two sides' changes against one ancestor, in order: the sweep that
  /// groups hunks of lines in the line merge and changes of tokens in the token merge.
  ///
  /// ## Guarantees
  /// - Changes of the two sides that overlap or touch form one region. Touching counts, as
  ///   in git and GNU diff3: a change that starts where a region ends joins it, so edits of
  ///   adjacent items, an insertion right before or after an item the other side changed,
  ///   and two insertions at the same place are one region. Changes separated by at least
  ///   one item that neither side changed are separate regions.
  /// - Every change is in exactly one region, and the regions come in ancestor order, apart
  ///   from each other; items between them are unchanged on both sides.
  /// - Each side's changes must come in ancestor order, apart from each other, as a
  ///   shortest edit script gives them.
  struct Regions<Change: RegionChange>: Sequence, IteratorProtocol {
    /// One region: the ancestor's items it spans, the changes in it, and each side's
    /// items in place of those ancestor items.
    struct Region {
      /// The ancestor's items the region spans.
      let ancestor: Range<Int>
      /// The indices of our changes in the region; empty when only theirs changed it.
      let mineChanges: Range<Int>
      /// The indices of their changes in the region; empty when only ours changed it.
      let otherChanges: Range<Int>
      /// Our items in place of `ancestor`.
      let mine: Range<Int>
      /// Their items in place of `ancestor`.
      let other: Range<Int>

      /// How many items we have more than the ancestor before the region.
      var mineGrowth: Int { mine.lowerBound - ancestor.lowerBound }
      /// How many items they have more than the ancestor before the region.
      var otherGrowth: Int { other.lowerBound - ancestor.lowerBound }
    }

    /// Our changes, in order.
    private let mine: [Change]
    /// Their changes, in order.
    private let other: [Change]
    /// Our first change not yet in a region.
    private var nextMine = 0
    /// Their first change not yet in a region.
    private var nextOther = 0
    /// How many items we have more than the ancestor before the next region.
    private var mineGrowth = 0
    /// How many items they have more than the ancestor before the next region.
    private var otherGrowth = 0

    /// The regions of `mine` and `other`, each a side's changes of one ancestor.
    ///
    /// - Parameters:
    ///   - mine: Our changes, in ancestor order.
    ///   - other: Their changes, in ancestor order.
    init(mine: [Change], other: [Change]) {
      self.mine = mine
      self.other = other
    }

    /// The next region, or `nil` after the last.
    mutating func next() -> Region? {
      guard nextMine < mine.count || nextOther < other.count else { return nil }
      let start = Swift.min(
        nextMine < mine.count ? mine[nextMine].regionStart : Int.max,
        nextOther < other.count ? other[nextOther].regionStart : Int.max)
      var end = start
      let firstMine = nextMine
      let firstOther = nextOther
      var mineRegionGrowth = 0
      var otherRegionGrowth = 0
      // `<=`: a change that starts where the region ends touches it and joins it.
      while true {
        if nextMine < mine.count, mine[nextMine].regionStart <= end {
          end = Swift.max(end, mine[nextMine].regionEnd)
          mineRegionGrowth += mine[nextMine].growth
          nextMine += 1
        } else if nextOther < other.count, other[nextOther].regionStart <= end {
          end = Swift.max(end, other[nextOther].regionEnd)
          otherRegionGrowth += other[nextOther].growth
          nextOther += 1
        } else {
          break
        }
      }
      let region = Region(
        ancestor: start..<end, mineChanges: firstMine..<nextMine,
        otherChanges: firstOther..<nextOther,
        mine: (start + mineGrowth)..<(end + mineGrowth + mineRegionGrowth),
        other: (start + otherGrowth)..<(end + otherGrowth + otherRegionGrowth))
      mineGrowth += mineRegionGrowth
      otherGrowth += otherRegionGrowth
      return region
    }
  }
}
