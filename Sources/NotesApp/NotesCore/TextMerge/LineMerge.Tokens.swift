extension LineMerge {
  /// A conflicting region's lines cut into tokens (words and separators), so the region can
  /// be merged again at that grain (`mergeTokens`).
  ///
  /// ## Guarantees
  /// - The tokens of a region are its bytes, cut and never changed: joined, they give the
  ///   region's lines, each followed by "\n", byte for byte. Every line ends in its own "\n"
  ///   token, so the line structure is part of what is merged and a zero-line region
  ///   differs from a region of one empty line.
  /// - Cuts fall on grapheme boundaries (Swift's `Character`) within a line. A word is a
  ///   run of letters, digits (with their combining marks, which belong to their character)
  ///   and "_"; a run of white space (spaces, tabs, "\r", trailing white space) is one
  ///   token; any other character is a token of its own: punctuation, symbols, an emoji
  ///   grapheme (family and flag sequences included), and each CJK ideograph or kana, since
  ///   those scripts do not put spaces between words.
  /// - Tokens are equal when their bytes are equal, as lines are (see `Lines`).
  struct Tokens {
    /// The region's bytes: its lines, each followed by "\n".
    private(set) var bytes: [UInt8] = []
    /// Where each token starts, then `bytes.count`: token `i` is
    /// `bytes[starts[i]..<starts[i + 1]]`.
    private(set) var starts: [Int] = [0]

    /// Cuts lines `range` of `lines` into tokens.
    ///
    /// - Parameters:
    ///   - lines: A text's lines.
    ///   - range: The lines of the region.
    init(_ lines: Lines, _ range: Range<Int>) {
      starts = []
      for index in range {
        let line = lines.line(index)
        var offset = bytes.count
        var run: Kind?
        for character in String(decoding: line, as: UTF8.self) {
          let kind = Self.kind(of: character)
          if kind == .single || kind != run { starts.append(offset) }
          run = kind == .single ? nil : kind
          offset += character.utf8.count
        }
        bytes.append(contentsOf: line)
        starts.append(bytes.count)
        bytes.append(0x0A)
      }
      starts.append(bytes.count)
    }

    /// The number of tokens.
    var count: Int { starts.count - 1 }

    /// The bytes of token `index`.
    func token(_ index: Int) -> ArraySlice<UInt8> {
      bytes[starts[index]..<starts[index + 1]]
    }

    /// The token a byte offset (less than `bytes.count`) is in.
    func token(atOffset offset: Int) -> Int {
      var low = 0
      var high = count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if starts[middle] <= offset { low = middle } else { high = middle - 1 }
      }
      return low
    }

    /// Each token's number in `table`, adding tokens it lacks: equal bytes, equal numbers.
    func ids(interning table: inout [LineKey: Int]) -> [Int] {
      (0..<count).map { index in
        let key = LineKey(bytes: token(index))
        if let id = table[key] { return id }
        let id = table.count
        table[key] = id
        return id
      }
    }

    /// What a character is to the cutting.
    enum Kind {
      /// Part of a word: runs of these are one token.
      case word
      /// White space: runs of these are one token.
      case space
      /// A token of its own.
      case single
    }

    /// What `character` is to the cutting.
    static func kind(of character: Character) -> Kind {
      if character.isWhitespace { return .space }
      guard character.isLetter || character.isNumber || character == "_" else { return .single }
      guard let scalar = character.unicodeScalars.first else { return .single }
      if scalar.properties.isEmojiPresentation { return .single }
      switch scalar.value {
      // CJK ideographs (unified, extension A, compatibility, extensions B and on), and kana.
      case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
        0xFF66...0xFF9F, 0x20000...0x3FFFF:
        return .single
      default:
        return .word
      }
    }
  }
}
