extension LineMerge {
  /// A text's bytes and where its lines are; its lines are interned as numbers (`ids`) so
  /// the diff compares integers.
  ///
  /// ## Guarantees
  /// - Lines: a text is split at every "\n" (byte 0x0A) and nowhere else, so a text with n
  ///   newlines has n + 1 lines; the last one has no newline and may be empty. "\r" belongs
  ///   to its line. The merged text is its lines joined with "\n", so a final newline, or
  ///   the lack of one, comes through every merge byte for byte. Adding or removing the
  ///   final newline changes lines at the end (it inserts or deletes the empty last line),
  ///   so, as in git, it conflicts with the other side's edit of the last line but not with
  ///   edits further up.
  /// - Lines are equal when their UTF-8 bytes are equal. Swift's `==` on strings (canonical
  ///   equivalence) is deliberately not used: "é" changed to "e\u{301}" is a change, and
  ///   the merged text is made of the inputs' own bytes. Any Unicode works; offsets are in
  ///   UTF-8.
  struct Lines {
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
  struct LineKey: Hashable {
    let bytes: ArraySlice<UInt8>

    func hash(into hasher: inout Hasher) {
      bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
  }
}
