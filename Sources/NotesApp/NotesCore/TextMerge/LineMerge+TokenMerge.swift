/// A region the line merge found in conflict, merged again token by token (words and
/// separators, see `Tokens`) against the same ancestor region, and accepted only when it is
/// provably clean (the rules are ``LineMerge``'s).
extension LineMerge {
  /// The most tokens a conflicting region may have, in any of its three versions, to be
  /// merged token by token.
  ///
  /// 2,000 tokens are about 1,000 words: several long paragraphs, more than one edit
  /// session of one paragraph touches. Past it the region is a rewrite more than an edit,
  /// the words that happen to match are mostly common ones ("the", ",", " "), and a conflict
  /// copy shows the user both versions whole; it also keeps the diffs' worst case
  /// (O((N + M)·D)) to a few million steps per region.
  @_spi(Instrumentation) public static let maximumRegionTokens = 2_000

  /// Why a region in conflict at the grain of lines stayed in conflict at the grain of
  /// tokens.
  @_spi(Instrumentation) public enum TokenFallback: String, CaseIterable, Sendable {
    /// A version of the region has more than ``LineMerge/maximumRegionTokens`` tokens.
    case tooLong
    /// Changes of the two sides overlap or touch, differently.
    case overlapping
    /// Changes touch only when placed elsewhere among equal tokens (repetitive text).
    case ambiguous
    /// The merged region, diffed against a side, was not exactly the other side's changes.
    case unverified
  }

  /// One side's change of tokens, placed leftmost, and the span it could slide over.
  struct TokenChange: Equatable, RegionChange {
    /// The change, placed leftmost among equal tokens.
    var hunk: Hunk
    /// The first ancestor token of the span, at the leftmost placement.
    var low: Int
    /// The ancestor token after the span, at the rightmost placement.
    var high: Int

    /// The span's start: the sweep groups changes by the span they could slide over.
    var regionStart: Int { low }
    /// The span's end.
    var regionEnd: Int { high }
    /// How many tokens the side has more than the ancestor because of this change.
    var growth: Int { hunk.growth }
  }

  /// The changes of a shortest edit script from `a` to `b`, each placed leftmost, with the
  /// span it could slide over.
  ///
  /// Only pure insertions and deletions slide, one token at a time, while the token they
  /// would give up equals the one they would take, and never closer than one matched token
  /// to their neighbours (placed as they are).
  ///
  /// - Parameters:
  ///   - a: The old tokens.
  ///   - b: The new tokens.
  /// - Returns: The changes, in order.
  static func tokenChanges(from a: [Int], to b: [Int]) -> [TokenChange] {
    let hunks = editScript(from: a, to: b)
    var changes: [TokenChange] = []
    changes.reserveCapacity(hunks.count)
    for (index, hunk) in hunks.enumerated() {
      let isDeletion = hunk.sideStart == hunk.sideEnd
      let isInsertion = hunk.ancestorStart == hunk.ancestorEnd
      guard isDeletion || isInsertion else {
        changes.append(TokenChange(hunk: hunk, low: hunk.ancestorStart, high: hunk.ancestorEnd))
        continue
      }
      // A slide by one: the first token of the run moves to its end, or back.
      func slides(_ hunk: Hunk, left: Bool) -> Bool {
        if left {
          return isDeletion
            ? a[hunk.ancestorStart - 1] == a[hunk.ancestorEnd - 1]
            : a[hunk.ancestorStart - 1] == b[hunk.sideEnd - 1]
        }
        return isDeletion
          ? a[hunk.ancestorStart] == a[hunk.ancestorEnd]
          : a[hunk.ancestorStart] == b[hunk.sideStart]
      }
      func shifted(_ hunk: Hunk, by step: Int) -> Hunk {
        Hunk(
          ancestorStart: hunk.ancestorStart + step, ancestorEnd: hunk.ancestorEnd + step,
          sideStart: hunk.sideStart + step, sideEnd: hunk.sideEnd + step)
      }
      let previousEnd = changes.last?.hunk.ancestorEnd ?? -1
      var left = hunk
      while left.ancestorStart > previousEnd + 1, slides(left, left: true) {
        left = shifted(left, by: -1)
      }
      let nextStart = index + 1 < hunks.count ? hunks[index + 1].ancestorStart : a.count + 1
      var right = hunk
      while right.ancestorEnd < nextStart - 1, slides(right, left: false) {
        right = shifted(right, by: 1)
      }
      changes.append(TokenChange(hunk: left, low: left.ancestorStart, high: right.ancestorEnd))
    }
    return changes
  }

  /// A conflicting region merged token by token, or why not.
  enum TokenOutcome {
    /// The merged region: its lines, each followed by "\n", and the cursor's offset in
    /// them if the cursor was in the region.
    case merged(bytes: [UInt8], cursor: Int?)
    /// The region stays in conflict.
    case fallback(TokenFallback)
  }

  /// Merges a region again, token by token, and checks the result.
  ///
  /// - Parameters:
  ///   - base: The ancestor's lines of the region.
  ///   - mine: Our lines of the region.
  ///   - other: Their lines of the region.
  ///   - cursor: The cursor's offset in `mine.bytes`, if the cursor is in the region.
  /// - Returns: The merged region, or why it stays in conflict.
  static func mergeTokens(
    base: Tokens, mine: Tokens, other: Tokens, cursor: Int?
  ) -> TokenOutcome {
    let limit = maximumRegionTokens
    guard base.count <= limit, mine.count <= limit, other.count <= limit else {
      return .fallback(.tooLong)
    }
    var table: [LineKey: Int] = [:]
    let baseIDs = base.ids(interning: &table)
    let mineIDs = mine.ids(interning: &table)
    let otherIDs = other.ids(interning: &table)
    let mineChanges = tokenChanges(from: baseIDs, to: mineIDs)
    let otherChanges = tokenChanges(from: baseIDs, to: otherIDs)

    var output = TokenOutput(mine: mine, other: other, mineIDs: mineIDs, otherIDs: otherIDs)
    // The changes the result, diffed against theirs, must show (ours'), and the other way.
    var mineExpected: [Placed] = []
    var otherExpected: [Placed] = []
    // Our tokens before this index are written.
    var mineDone = 0
    for region in Regions(mine: mineChanges, other: otherChanges) {
      output.appendMine(mineDone..<region.mine.lowerBound)
      mineDone = region.mine.upperBound
      if region.otherChanges.isEmpty {
        output.appendMine(region.mine)
        mineExpected += mineChanges[region.mineChanges].map {
          Placed($0.hunk, at: $0.hunk.ancestorStart + region.otherGrowth, inserting: mineIDs)
        }
      } else if region.mineChanges.isEmpty {
        output.appendOther(region.other, over: region.mine)
        otherExpected += otherChanges[region.otherChanges].map {
          Placed($0.hunk, at: $0.hunk.ancestorStart + region.mineGrowth, inserting: otherIDs)
        }
      } else if mineIDs[region.mine] == otherIDs[region.other] {
        output.appendMine(region.mine)
      } else {
        // Overlapping: some pair touches wherever each of the two is placed.
        func rightmostStart(_ change: TokenChange) -> Int {
          change.high - (change.hunk.ancestorEnd - change.hunk.ancestorStart)
        }
        let overlapping = mineChanges[region.mineChanges].contains { mine in
          otherChanges[region.otherChanges].contains { other in
            mine.hunk.ancestorEnd >= rightmostStart(other)
              && other.hunk.ancestorEnd >= rightmostStart(mine)
          }
        }
        return .fallback(overlapping ? .overlapping : .ambiguous)
      }
    }
    output.appendMine(mineDone..<mine.count)

    guard
      isClean(
        output.ids, mine: mineIDs, other: otherIDs, mineChanges: mineExpected,
        otherChanges: otherExpected),
      output.bytes.last.map({ $0 == 0x0A }) ?? true
    else { return .fallback(.unverified) }
    return .merged(bytes: output.bytes, cursor: cursor.map { output.mapped($0) })
  }

  /// The check after the fact: whether `result`, diffed against each side, shows exactly
  /// the other side's changes.
  ///
  /// - Parameters:
  ///   - result: The merged region's tokens.
  ///   - mine: Our tokens.
  ///   - other: Their tokens.
  ///   - mineChanges: Our changes that are not theirs too, placed in their tokens.
  ///   - otherChanges: Their changes that are not ours too, placed in our tokens.
  /// - Returns: Whether the diff from `other` to `result` is `mineChanges` and the diff
  ///   from `mine` to `result` is `otherChanges`.
  static func isClean(
    _ result: [Int], mine: [Int], other: [Int], mineChanges: [Placed], otherChanges: [Placed]
  ) -> Bool {
    let theirsToResult = tokenChanges(from: other, to: result).map {
      Placed($0.hunk, at: $0.hunk.ancestorStart, inserting: result)
    }
    guard theirsToResult == mineChanges else { return false }
    let oursToResult = tokenChanges(from: mine, to: result).map {
      Placed($0.hunk, at: $0.hunk.ancestorStart, inserting: result)
    }
    return oursToResult == otherChanges
  }

  /// A change as the check compares it: where it applies in the text it is applied to, how
  /// many tokens it removes there, and the tokens it inserts.
  struct Placed: Equatable {
    var position: Int
    var removed: Int
    var inserted: [Int]

    /// `hunk`, applied at `position`, inserting its tokens of `side`.
    init(_ hunk: Hunk, at position: Int, inserting side: [Int]) {
      self.position = position
      removed = hunk.ancestorEnd - hunk.ancestorStart
      inserted = Array(side[hunk.sideStart..<hunk.sideEnd])
    }
  }
}
