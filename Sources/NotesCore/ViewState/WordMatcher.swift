// WordMatcher: finds one search word in a text, ignoring case and diacritics, fast enough
// to search 100,000 notes on every key.
//
// Guarantees
// - `matches` is exactly "the text contains the word, ignoring case and diacritics"
//   (Foundation's `range(of:options: [.caseInsensitive, .diacriticInsensitive])`).
// - Fast path: an ASCII word is looked for byte by byte in the text's UTF-8, with ASCII
//   case folded, without allocating. A match found that way is a match. Only a text with
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
  private static func search(_ word: [UInt8], in text: UnsafeBufferPointer<UInt8>) -> Bool? {
    let count = word.count
    var isASCII = true
    guard count <= text.count else {
      return text.allSatisfy { $0 < 0x80 } ? false : nil
    }
    let first = word[0]
    return word.withUnsafeBufferPointer { word -> Bool? in
      var index = 0
      let last = text.count - count
      while index < text.count {
        let byte = text[index]
        if byte >= 0x80 { isASCII = false }
        if index <= last, lowercased(byte) == first {
          var offset = 1
          while offset < count, lowercased(text[index + offset]) == word[offset] { offset += 1 }
          if offset == count { return true }
        }
        index += 1
      }
      return isASCII ? false : nil
    }
  }

  /// An ASCII letter in lower case; any other byte as it is.
  @inline(__always)
  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
  }
}
