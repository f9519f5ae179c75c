extension LineMerge {
  /// The merged text as it is written, and where the cursor of `ours` lands in it.
  ///
  /// ## Guarantees
  /// - The cursor of `ours` stays on the same character when its line came from `ours` (or
  ///   is unchanged); a cursor in lines that `theirs` replaced moves to the start of the
  ///   replacement. A theirs-only insertion never captures it.
  /// - In a region merged token by token, the same at the grain of tokens: on the same
  ///   character of a token that came from `ours` or is unchanged, at the start of the
  ///   replacement of a token `theirs` replaced (`TokenOutput`).
  struct Output {
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

    /// Writes a region merged token by token: `region` is its lines, each followed by "\n".
    ///
    /// `regionCursor`, the cursor's offset in `region` if the cursor was in the region,
    /// lands on that byte; in a region that merged to no lines, at the start of the next
    /// line written.
    mutating func appendRegion(_ region: [UInt8], cursor regionCursor: Int?) {
      if region.isEmpty, regionCursor != nil { pending = true }
      var lineStart = 0
      for (index, byte) in region.enumerated() where byte == 0x0A {
        startLine()
        if let regionCursor, regionCursor >= lineStart, regionCursor <= index {
          mapped = bytes.count + regionCursor - lineStart
        }
        bytes.append(contentsOf: region[lineStart..<index])
        lineStart = index + 1
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
}

extension LineMerge {
  /// A region's merged tokens as they are written, and where each token of `ours` lands.
  struct TokenOutput {
    /// Our tokens of the region.
    let mine: Tokens
    /// Their tokens of the region.
    let other: Tokens
    /// Our tokens' numbers.
    let mineIDs: [Int]
    /// Their tokens' numbers.
    let otherIDs: [Int]
    /// The merged region's bytes.
    private(set) var bytes: [UInt8] = []
    /// The merged region's token numbers.
    private(set) var ids: [Int] = []
    /// For each of our tokens, where it starts in the merged bytes, or, if theirs replaced
    /// it, where the replacement starts.
    private var positions: [Int]
    /// For each of our tokens, whether it is in the merged bytes (not replaced by theirs).
    private var kept: [Bool]

    init(mine: Tokens, other: Tokens, mineIDs: [Int], otherIDs: [Int]) {
      self.mine = mine
      self.other = other
      self.mineIDs = mineIDs
      self.otherIDs = otherIDs
      positions = [Int](repeating: 0, count: mine.count)
      kept = [Bool](repeating: false, count: mine.count)
    }

    /// Writes our tokens `range`.
    mutating func appendMine(_ range: Range<Int>) {
      for index in range {
        positions[index] = bytes.count
        kept[index] = true
        bytes.append(contentsOf: mine.token(index))
        ids.append(mineIDs[index])
      }
    }

    /// Writes their tokens `range` in place of our tokens `replaced`.
    mutating func appendOther(_ range: Range<Int>, over replaced: Range<Int>) {
      for index in replaced { positions[index] = bytes.count }
      for index in range {
        bytes.append(contentsOf: other.token(index))
        ids.append(otherIDs[index])
      }
    }

    /// Where an offset in our region bytes (less than their count) lands in the merged
    /// bytes: on the same character of a token of ours, at the start of the replacement of
    /// a token theirs replaced.
    func mapped(_ offset: Int) -> Int {
      let token = mine.token(atOffset: offset)
      return kept[token] ? positions[token] + offset - mine.starts[token] : positions[token]
    }
  }
}
