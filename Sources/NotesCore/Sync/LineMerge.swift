// LineMerge: the three-way merge of two versions of a note's body against the version both
// were edited from (diff3), line by line. Sync uses it when this device and another both
// changed a body (`SyncMerge`).
//
// Guarantees
// - Lines: a text is split at every "\n" (byte 0x0A) and nowhere else, so a text with n
//   newlines has n + 1 lines; the last one has no newline and may be empty. "\r" belongs to
//   its line. The merged text is its lines joined with "\n", so a final newline, or the lack
//   of one, comes through every merge byte for byte. Adding or removing the final newline
//   changes lines at the end (it inserts or deletes the empty last line), so, as in git, it
//   conflicts with the other side's edit of the last line but not with edits further up.
// - Lines are equal when their UTF-8 bytes are equal. Swift's `==` on strings (canonical
//   equivalence) is deliberately not used: "é" changed to "e\u{301}" is a change, and the
//   merged text is made of the inputs' own bytes. Any Unicode works; offsets are in UTF-8.
// - Shortcuts, byte for byte: `ours == theirs` gives that text, `ours == ancestor` gives
//   `theirs`, `theirs == ancestor` gives `ours`. The general merge gives the same results;
//   the shortcuts only save time.
// - Matching: each side is diffed against the ancestor with Myers' shortest edit script
//   (linear-space variant, after trimming the common prefix and suffix). The diff is a list
//   of hunks: a run of ancestor lines (empty for an insertion) that the side replaced by a
//   run of its own lines (empty for a deletion). One side's hunks are always separated by at
//   least one line it kept.
// - Regions: hunks of the two sides that overlap or touch form one region. Touching counts,
//   as in git and GNU diff3: edits of adjacent lines, an insertion right before or after a
//   line the other side changed, and two insertions at the same place are one region. Edits
//   separated by at least one line that neither side changed are separate regions.
// - A region only one side changed takes that side's lines. A region both sides changed
//   takes their lines if both sides' lines for the whole region are identical; otherwise
//   the merge is a conflict: no partial result and no conflict markers. Hence deleting a
//   line on one side and editing it on the other conflicts, and so do different insertions
//   at the same place. Lines outside every region are unchanged on both sides and are kept.
// - The cursor of `ours` stays on the same character when its line came from `ours` (or is
//   unchanged); a cursor in lines that `theirs` replaced moves to the start of the
//   replacement. A theirs-only insertion never captures it.
// - Cost: O(N) to split and compare lines (N: bytes of the three texts), then per side
//   O((L + M)·D) time and O(L + M) memory for the diff (L, M: lines, D: lines that differ),
//   so small edits in big notes cost little. The merge is a pure function of its inputs.

/// A three-way merge of texts, line by line, against their common ancestor (diff3).
///
/// Lines are split at "\n" and compared by their bytes. A region of lines changed by only
/// one side takes that side's version; a region both sides changed identically takes it
/// once; any other region both sides changed, including edits of adjacent lines, is a
/// conflict (git's rule).
///
/// ```swift
/// let outcome = LineMerge.merge(ancestor: "a\nb\nc\n", ours: "A\nb\nc\n", theirs: "a\nb\nC\n")
/// // outcome == .merged("A\nb\nC\n")
/// ```
public enum LineMerge {
  /// What merging produced.
  ///
  /// A merge either fits every change of both sides into one text or reports a conflict;
  /// there is no partial result.
  public enum Outcome: Equatable, Sendable {
    /// Every change of both sides fits: the merged text.
    case merged(String)
    /// Both sides changed the same lines differently (or inserted different text at the same place).
    case conflict
  }

  /// Merges `ours` and `theirs`, both edited from `ancestor`.
  ///
  /// Changes of different lines both survive, as long as at least one line neither side
  /// changed lies between them; changes of the same or of adjacent lines survive only if
  /// both sides made the identical change.
  ///
  /// - Parameters:
  ///   - ancestor: The version both sides were edited from.
  ///   - ours: This side's version.
  ///   - theirs: The other side's version.
  /// - Returns: The merged text, or `.conflict`.
  public static func merge(ancestor: String, ours: String, theirs: String) -> Outcome {
    if ours.utf8.elementsEqual(theirs.utf8) || theirs.utf8.elementsEqual(ancestor.utf8) {
      return .merged(ours)
    }
    if ours.utf8.elementsEqual(ancestor.utf8) {
      return .merged(theirs)
    }
    guard let result = threeWay(ancestor: ancestor, ours: ours, theirs: theirs, cursor: nil)
    else { return .conflict }
    return .merged(result.text)
  }

  /// Merges like ``merge(ancestor:ours:theirs:)`` and maps a cursor in `ours` into the result.
  ///
  /// `cursor` is a UTF-8 offset into `ours`, on a character boundary; values outside
  /// `0...ours.utf8.count` are clamped. In a line that comes from `ours` or is unchanged,
  /// the mapped cursor sits on the same character of that line. In lines that `theirs`
  /// changed (and `ours` did not), it sits at the start of what `theirs` put there, or, when
  /// `theirs` deleted them, at the start of the next line (the end of the text if none).
  ///
  /// - Parameters:
  ///   - ancestor: The version both sides were edited from.
  ///   - ours: This side's version, the one the cursor is in.
  ///   - theirs: The other side's version.
  ///   - cursor: A UTF-8 offset into `ours`.
  /// - Returns: The merged text and the cursor's UTF-8 offset in it, or `nil` on conflict.
  public static func merge(
    ancestor: String, ours: String, theirs: String, cursor: Int
  ) -> (text: String, cursor: Int)? {
    let cursor = min(max(cursor, 0), ours.utf8.count)
    if ours.utf8.elementsEqual(theirs.utf8) || theirs.utf8.elementsEqual(ancestor.utf8) {
      return (ours, cursor)
    }
    return threeWay(ancestor: ancestor, ours: ours, theirs: theirs, cursor: cursor)
  }

  /// The merge itself, without the shortcuts for unchanged or equal sides.
  ///
  /// - Parameters:
  ///   - ancestor: The version both sides were edited from.
  ///   - ours: This side's version.
  ///   - theirs: The other side's version.
  ///   - cursor: A UTF-8 offset into `ours` (at most `ours.utf8.count`), or `nil`.
  /// - Returns: The merged text and the mapped cursor (0 if `cursor` is `nil`), or `nil` on
  ///   conflict.
  static func threeWay(
    ancestor: String, ours: String, theirs: String, cursor: Int?
  ) -> (text: String, cursor: Int)? {
    let base = Lines(ancestor)
    let mine = Lines(ours)
    let other = Lines(theirs)
    var table: [LineKey: Int] = [:]
    let baseIDs = base.ids(interning: &table)
    let mineIDs = mine.ids(interning: &table)
    let otherIDs = other.ids(interning: &table)
    let mineHunks = editScript(from: baseIDs, to: mineIDs)
    let otherHunks = editScript(from: baseIDs, to: otherIDs)

    var output = Output(cursor: cursor.map { mine.position(ofOffset: $0) })
    var nextMine = 0
    var nextOther = 0
    // How many lines each side has more than the ancestor before the current point.
    var mineGrowth = 0
    var otherGrowth = 0
    // The ancestor lines before this index are merged.
    var done = 0
    while nextMine < mineHunks.count || nextOther < otherHunks.count {
      let start = min(
        nextMine < mineHunks.count ? mineHunks[nextMine].ancestorStart : Int.max,
        nextOther < otherHunks.count ? otherHunks[nextOther].ancestorStart : Int.max)
      var end = start
      let firstMine = nextMine
      let firstOther = nextOther
      var mineRegionGrowth = 0
      var otherRegionGrowth = 0
      // `<=`: a hunk that starts where the region ends touches it and joins it.
      while true {
        if nextMine < mineHunks.count, mineHunks[nextMine].ancestorStart <= end {
          end = max(end, mineHunks[nextMine].ancestorEnd)
          mineRegionGrowth += mineHunks[nextMine].growth
          nextMine += 1
        } else if nextOther < otherHunks.count, otherHunks[nextOther].ancestorStart <= end {
          end = max(end, otherHunks[nextOther].ancestorEnd)
          otherRegionGrowth += otherHunks[nextOther].growth
          nextOther += 1
        } else {
          break
        }
      }
      // Unchanged lines before the region: the same bytes on every side; take ours.
      output.appendOurs(mine, (done + mineGrowth)..<(start + mineGrowth))
      let mineRange = (start + mineGrowth)..<(end + mineGrowth + mineRegionGrowth)
      let otherRange = (start + otherGrowth)..<(end + otherGrowth + otherRegionGrowth)
      mineGrowth += mineRegionGrowth
      otherGrowth += otherRegionGrowth
      if nextOther == firstOther {
        output.appendOurs(mine, mineRange)
      } else if nextMine == firstMine {
        output.appendTheirs(other, otherRange, over: mineRange)
      } else if mineIDs[mineRange] == otherIDs[otherRange] {
        output.appendOurs(mine, mineRange)
      } else {
        return nil
      }
      done = end
    }
    output.appendOurs(mine, (done + mineGrowth)..<mine.count)
    return (String(decoding: output.bytes, as: UTF8.self), output.finalCursor)
  }

  /// A run of ancestor lines that one side replaced by a run of its own lines.
  struct Hunk: Equatable {
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
    var differ = Differ(a: a, b: b)
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

extension LineMerge {
  /// A text's bytes and where its lines are.
  private struct Lines {
    /// The text's UTF-8 bytes.
    let bytes: [UInt8]
    /// Where each line starts, then one past the end of the text plus one: line `i` is
    /// `bytes[bounds[i]..<bounds[i + 1] - 1]`.
    let bounds: [Int]

    init(_ text: String) {
      bytes = Array(text.utf8)
      var bounds = [0]
      for (index, byte) in bytes.enumerated() where byte == 0x0A {
        bounds.append(index + 1)
      }
      bounds.append(bytes.count + 1)
      self.bounds = bounds
    }

    /// The number of lines, at least 1.
    var count: Int { bounds.count - 1 }

    /// The bytes of line `index`, without its newline.
    func line(_ index: Int) -> ArraySlice<UInt8> {
      bytes[bounds[index]..<(bounds[index + 1] - 1)]
    }

    /// The line a UTF-8 offset (at most `bytes.count`) is in, and its offset in that line.
    func position(ofOffset offset: Int) -> (line: Int, column: Int) {
      // The last line whose start is at or before `offset`.
      var low = 0
      var high = count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if bounds[middle] <= offset { low = middle } else { high = middle - 1 }
      }
      return (low, offset - bounds[low])
    }

    /// Each line's number in `table`, adding lines it lacks: equal bytes, equal numbers.
    func ids(interning table: inout [LineKey: Int]) -> [Int] {
      var ids: [Int] = []
      ids.reserveCapacity(count)
      for index in 0..<count {
        let key = LineKey(bytes: line(index))
        if let id = table[key] {
          ids.append(id)
        } else {
          let id = table.count
          table[key] = id
          ids.append(id)
        }
      }
      return ids
    }
  }

  /// A line as a dictionary key: equal when the bytes are equal, hashed in one call.
  private struct LineKey: Hashable {
    let bytes: ArraySlice<UInt8>

    func hash(into hasher: inout Hasher) {
      bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
  }

  /// The merged text as it is written, and where the cursor of `ours` lands in it.
  private struct Output {
    /// The merged text's bytes.
    var bytes: [UInt8] = []
    /// How many lines are written.
    var lineCount = 0
    /// The cursor's line in `ours` and its offset in that line.
    let cursor: (line: Int, column: Int)?
    /// Where the cursor lands, once known.
    var mapped: Int?
    /// Whether the cursor lands at the start of the next line written.
    var pending = false

    init(cursor: (line: Int, column: Int)?) {
      self.cursor = cursor
    }

    /// The cursor's offset in the merged text (0 without a cursor).
    var finalCursor: Int { mapped ?? (pending ? bytes.count : 0) }

    /// Writes lines of `ours`; the cursor, if in one of them, stays on its character.
    mutating func appendOurs(_ lines: Lines, _ range: Range<Int>) {
      for index in range {
        startLine()
        if let cursor, cursor.line == index { mapped = bytes.count + cursor.column }
        bytes.append(contentsOf: lines.line(index))
      }
    }

    /// Writes lines of `theirs` in place of the lines `replaced` of `ours`; the cursor, if
    /// in those, goes to the start of what is written next.
    mutating func appendTheirs(_ lines: Lines, _ range: Range<Int>, over replaced: Range<Int>) {
      if let cursor, replaced.contains(cursor.line) { pending = true }
      for index in range {
        startLine()
        bytes.append(contentsOf: lines.line(index))
      }
    }

    /// Writes the newline before a line after the first, and places a pending cursor.
    private mutating func startLine() {
      if lineCount > 0 { bytes.append(0x0A) }
      lineCount += 1
      if pending {
        mapped = bytes.count
        pending = false
      }
    }
  }

  /// Myers' O((N+M)·D) diff in linear space (the bisection of Neil Fraser's diff-match-patch).
  private struct Differ {
    let a: [Int]
    let b: [Int]
    /// The matched pairs `(index in a, index in b)`, in increasing order.
    var matches: [(Int, Int)] = []

    init(a: [Int], b: [Int]) {
      self.a = a
      self.b = b
    }

    /// Appends the matches of a shortest edit script from `a[aLow..<aHigh]` to
    /// `b[bLow..<bHigh]`.
    mutating func diff(_ aLow: Int, _ aHigh: Int, _ bLow: Int, _ bHigh: Int) {
      var aLow = aLow
      var bLow = bLow
      while aLow < aHigh, bLow < bHigh, a[aLow] == b[bLow] {
        matches.append((aLow, bLow))
        aLow += 1
        bLow += 1
      }
      var aEnd = aHigh
      var bEnd = bHigh
      while aEnd > aLow, bEnd > bLow, a[aEnd - 1] == b[bEnd - 1] {
        aEnd -= 1
        bEnd -= 1
      }
      if aLow < aEnd, bLow < bEnd, let point = split(aLow, aEnd, bLow, bEnd) {
        diff(aLow, point.x, bLow, point.y)
        diff(point.x, aEnd, point.y, bEnd)
      }
      for offset in 0..<(aHigh - aEnd) {
        matches.append((aEnd + offset, bEnd + offset))
      }
    }

    /// A point on a shortest edit path through the given ranges where the forward and the
    /// reverse searches meet, strictly inside the ranges; `nil` only if none is found.
    ///
    /// The ranges are non-empty and their first elements differ, as do their last.
    private func split(
      _ aLow: Int, _ aHigh: Int, _ bLow: Int, _ bHigh: Int
    ) -> (x: Int, y: Int)? {
      let n = aHigh - aLow
      let m = bHigh - bLow
      let maxD = (n + m + 1) / 2
      let offset = maxD
      let length = 2 * maxD + 2
      // For each diagonal k (x - y), the furthest x reached: forward from the start, and
      // backward from the end (x counted from the end).
      var forward = [Int](repeating: -1, count: length)
      var backward = forward
      forward[offset + 1] = 0
      backward[offset + 1] = 0
      let delta = n - m
      // With an odd delta the paths meet in a forward step, otherwise in a backward one.
      let meetForward = delta % 2 != 0
      var forwardStart = 0
      var forwardEnd = 0
      var backwardStart = 0
      var backwardEnd = 0
      for d in 0..<maxD {
        var k = -d + forwardStart
        while k <= d - forwardEnd {
          let index = offset + k
          var x =
            k == -d || (k != d && forward[index - 1] < forward[index + 1])
            ? forward[index + 1] : forward[index - 1] + 1
          var y = x - k
          while x < n, y < m, a[aLow + x] == b[bLow + y] {
            x += 1
            y += 1
          }
          forward[index] = x
          if x > n {
            forwardEnd += 2
          } else if y > m {
            forwardStart += 2
          } else if meetForward {
            let other = offset + delta - k
            if other >= 0, other < length, backward[other] != -1, x >= n - backward[other] {
              return (aLow + x, bLow + y)
            }
          }
          k += 2
        }
        k = -d + backwardStart
        while k <= d - backwardEnd {
          let index = offset + k
          var x =
            k == -d || (k != d && backward[index - 1] < backward[index + 1])
            ? backward[index + 1] : backward[index - 1] + 1
          var y = x - k
          while x < n, y < m, a[aHigh - 1 - x] == b[bHigh - 1 - y] {
            x += 1
            y += 1
          }
          backward[index] = x
          if x > n {
            backwardEnd += 2
          } else if y > m {
            backwardStart += 2
          } else if !meetForward {
            let other = offset + delta - k
            if other >= 0, other < length, forward[other] != -1 {
              let forwardX = forward[other]
              let forwardY = offset + forwardX - other
              if forwardX >= n - x {
                return (aLow + forwardX, bLow + forwardY)
              }
            }
          }
          k += 2
        }
      }
      return nil
    }
  }
}
