// WordMatcher: finds one search word in a text, ignoring case and diacritics, fast enough
// to search 100,000 notes on every key.
//
// Guarantees
// - `matches` is exactly "the text contains the word, ignoring case and diacritics"
//   (Foundation's `range(of:options: [.caseInsensitive, .diacriticInsensitive])`).
// - Fast path: an ASCII word is looked for in the text's UTF-8, eight bytes at a time,
//   with ASCII case folded, without allocating. A match found that way is a match. Only a text with
//   non-ASCII bytes in which the byte search found nothing goes to Foundation (an "é" in
//   the text may still match an "e" of the word); a non-ASCII word always does.

import Foundation

/// One word of a search, ready to be looked for in many texts.
struct WordMatcher: Sendable {
  /// The word.
  let word: String
  /// The word's bytes, lowercased, if it is ASCII.
  private let asciiLowercased: [UInt8]?

  /// Prepares `word`.
  ///
  /// - Parameter word: A non-empty search word.
  init(_ word: String) {
    self.word = word
    asciiLowercased =
      word.utf8.allSatisfy { $0 < 0x80 } ? word.utf8.map { Self.lowercased($0) } : nil
  }

  /// Whether `text` contains the word, ignoring case and diacritics.
  ///
  /// - Parameter text: A title or body.
  /// - Returns: `true` if the word occurs in it.
  /// - Complexity: O(*n* × *m*) byte comparisons at worst for the fast path (a text of *n*
  ///   bytes, a word of *m*), usually close to O(*n*).
  func matches(_ text: String) -> Bool {
    if let asciiLowercased {
      var text = text
      let found = text.withUTF8 { Self.search(asciiLowercased, in: $0) }
      if let found { return found }
    }
    return text.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) != nil
  }

  /// `true` if `word` occurs in `text` ignoring ASCII case; `false` if it does not and
  /// `text` is all ASCII; `nil` if it does not and `text` has other bytes.
  ///
  /// Reads the text eight bytes at a time: one step finds every byte that may be the
  /// word's first (its case folded with `| 0x20` when it is a letter, which can only add
  /// candidates, never lose one) and notes any non-ASCII byte; each candidate is then
  /// checked byte by byte.
  private static func search(_ word: [UInt8], in text: UnsafeBufferPointer<UInt8>) -> Bool? {
    let count = word.count
    guard let start = text.baseAddress, count <= text.count else {
      return text.allSatisfy { $0 < 0x80 } ? false : nil
    }
    return word.withUnsafeBufferPointer { word -> Bool? in
      let first = word[0]
      let last = text.count - count
      // Whether the word starts at `offset` (a candidate may not even start with its first
      // byte: folding and the zero-byte test both add false candidates).
      func matches(at offset: Int) -> Bool {
        var index = 0
        while index < count, lowercased(text[offset + index]) == word[index] { index += 1 }
        return index == count
      }
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highBits: UInt64 = 0x8080_8080_8080_8080
      let fold: UInt64 = first &- 0x61 < 26 ? 0x2020_2020_2020_2020 : 0
      let pattern = UInt64(first) &* ones
      let raw = UnsafeRawPointer(start)
      var nonASCII: UInt64 = 0
      var index = 0
      while index + 8 <= text.count {
        let chunk = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        nonASCII |= chunk
        let difference = (chunk | fold) ^ pattern
        // A set high bit for every zero byte of `difference` (and possibly for some bytes
        // above one): the candidates, lowest first.
        var candidates = (difference &- ones) & ~difference & highBits
        while candidates != 0 {
          let offset = index + candidates.trailingZeroBitCount / 8
          if offset > last { break }
          if matches(at: offset) { return true }
          candidates &= candidates &- 1
        }
        index += 8
      }
      while index < text.count {
        let byte = text[index]
        nonASCII |= UInt64(byte)
        if index <= last, matches(at: index) { return true }
        index += 1
      }
      return nonASCII & highBits == 0 ? false : nil
    }
  }

  /// An ASCII letter in lower case; any other byte as it is.
  @inline(__always)
  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
  }
}
