import Foundation

/// One word of a search, ready to be looked for in many rows.
///
/// Finds one search word in a note row, ignoring case and diacritics, fast enough to search 100,000
/// notes on every key.
///
/// ## Guarantees
///
/// - `matches` is exactly "the row's title or body contains the word, ignoring case and
///   diacritics" (Foundation's `range(of:options: [.caseInsensitive, .diacriticInsensitive])`
///   on each).
/// - Fast path: an ASCII word is looked for in the title's and the body's UTF-8, eight bytes
///   at a time with ASCII case folded, without allocating. A match found that way is a
///   match; no match in an all-ASCII row is no match. Only a row with non-ASCII text in
///   which the byte search found nothing goes to Foundation (an "é" may still match an "e"
///   of the word).
/// - Gram signatures first: in an all-ASCII row, a word whose letters and digits (alone and
///   in adjacent pairs) are not all in the row's signature is not there, and one of one or
///   two letters or digits is there exactly when they are; only the rows left are read. The
///   signature lives with the row's texts, in the chunk (see NoteTexts.swift).
/// - A non-ASCII word is folded once (case and diacritics, as Foundation folds them): in an
///   all-ASCII row it is looked for as that folded form (ASCII, such as "strass" for
///   "straß"), or found nowhere when the folded form is not ASCII ("三体"); rows with
///   non-ASCII text go to Foundation. At 100,000 notes, asking Foundation about every row
///   made each key of a word such as "étude" take seconds.
struct WordMatcher: Sendable {
  /// The word.
  let word: String
  /// The word's bytes, lowercased, if it is ASCII.
  private let asciiLowercased: [UInt8]?
  /// For a non-ASCII word, how it appears in an all-ASCII text: its case- and
  /// diacritic-folded form, lowercased, when that is ASCII and not empty; `[]` when it
  /// can appear in no ASCII text (its folded form is not ASCII); `nil` to ask Foundation.
  private let inASCIIText: [UInt8]?
  /// The grams an all-ASCII row needs to contain the word as it appears there
  /// (`asciiLowercased` or `inASCIIText`); none (always met) if it has no letter or digit
  /// there.
  private let grams: GramSignature.Requirement

  /// Prepares `word`.
  ///
  /// - Parameter word: A non-empty search word.
  init(_ word: String) {
    self.word = word
    let isASCII = word.utf8.allSatisfy { $0 < 0x80 }
    asciiLowercased = isASCII ? word.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 } : nil
    if isASCII {
      inASCIIText = nil
    } else {
      let folded = word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
      if folded.isEmpty {
        inASCIIText = nil
      } else if folded.utf8.allSatisfy({ $0 < 0x80 }) {
        inASCIIText = folded.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }
      } else {
        inASCIIText = []
      }
    }
    grams = GramSignature.Requirement(word: asciiLowercased ?? inASCIIText ?? [])
  }

  /// Whether the row's title or body contains the word, ignoring case and diacritics.
  ///
  /// - Parameter row: A note row.
  /// - Returns: `true` if the word occurs in its title or its body.
  /// - Complexity: O(*n*) byte comparisons for the fast path in practice (a text of *n*
  ///   bytes), O(*n* × *m*) at worst (a word of *m*).
  func matches(_ row: NoteRow) -> Bool {
    // An all-ASCII row without the word's grams cannot contain it; with them, a word of
    // one or two letters or digits is there.
    if row.isASCII, !grams.grams.isEmpty {
      guard row.has(grams) else { return false }
      if grams.isExact { return true }
    }
    if let asciiLowercased {
      let found = asciiLowercased.withUnsafeBufferPointer { word in
        Self.contains(word, in: row.title) || Self.contains(word, in: row.body)
      }
      if found { return true }
      if row.isASCII { return false }
    } else if row.isASCII, let inASCIIText {
      guard !inASCIIText.isEmpty else { return false }
      return inASCIIText.withUnsafeBufferPointer { word in
        Self.contains(word, in: row.title) || Self.contains(word, in: row.body)
      }
    }
    return contains(row.title) || contains(row.body)
  }

  /// Foundation's answer for one text.
  private func contains(_ text: String) -> Bool {
    text.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) != nil
  }

  /// Whether the lowercased ASCII `word` occurs in `text`, ignoring ASCII case.
  private static func contains(_ word: UnsafeBufferPointer<UInt8>, in text: String) -> Bool {
    var text = text
    return text.withUTF8 { find(word, in: $0) }
  }

  /// Whether the lowercased ASCII `word` occurs in `text`, ignoring ASCII case.
  ///
  /// Reads the text eight bytes at a time, testing each position for the word's first
  /// byte and, in the same step, the position `m - 1` further on for its last byte (each
  /// folded with `| 0x20` when it is a letter, which can only add candidates, and the test
  /// for a zero byte after XOR, which may add candidates above a true one but never loses
  /// one); only positions where both match are compared in full, so a common first letter
  /// costs little more than a rare one.
  static func find(_ word: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    let count = word.count
    guard count > 0 else { return true }
    guard let start = text.baseAddress, count <= text.count else { return false }
    let last = text.count - count  // the last position the word can start at
    func matches(at offset: Int) -> Bool {
      var index = 0
      while index < count, lowercased(start[offset + index]) == word[index] { index += 1 }
      return index == count
    }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    let first = word[0]
    let final = word[count - 1]
    let firstFold: UInt64 = first &- 0x61 < 26 ? 0x2020_2020_2020_2020 : 0
    let finalFold: UInt64 = final &- 0x61 < 26 ? 0x2020_2020_2020_2020 : 0
    let firstPattern = UInt64(first) &* ones
    let finalPattern = UInt64(final) &* ones
    let raw = UnsafeRawPointer(start)
    var index = 0
    // Both loads stay inside the text: the second reads bytes index + count - 1 ... + 7.
    while index + 8 <= last + 1 {
      let head = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let tail = UInt64(
        littleEndian: raw.loadUnaligned(fromByteOffset: index + count - 1, as: UInt64.self))
      let firstDifference = (head | firstFold) ^ firstPattern
      let finalDifference = (tail | finalFold) ^ finalPattern
      var candidates =
        (firstDifference &- ones) & ~firstDifference & (finalDifference &- ones)
        & ~finalDifference & highBits
      while candidates != 0 {
        if matches(at: index + candidates.trailingZeroBitCount / 8) { return true }
        candidates &= candidates &- 1
      }
      index += 8
    }
    while index <= last {
      if matches(at: index) { return true }
      index += 1
    }
    return false
  }

  /// An ASCII letter in lower case; any other byte as it is.
  @inline(__always)
  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
  }
}
