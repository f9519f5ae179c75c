// LineMerge.Output: the merged text as it is written, and the cursor of `ours` mapped into
// it.
//
// Guarantees
// - The cursor of `ours` stays on the same character when its line came from `ours` (or is
//   unchanged); a cursor in lines that `theirs` replaced moves to the start of the
//   replacement. A theirs-only insertion never captures it.

extension LineMerge {
  /// The merged text as it is written, and where the cursor of `ours` lands in it.
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
