import Testing

@_spi(Instrumentation) @testable import NotesCore

/// The three-way line merge: its rules one by one, the cursor mapping, the diff under it,
/// and seeded random edits split between the sides.
struct LineMergeTests {
  // MARK: - Helpers

  /// A seeded generator (SplitMix64), so every random case replays.
  struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// The merge of the public API, checked against the general merge (no shortcuts) and the
  /// cursor variant, which must give the same bytes.
  static func merge(_ ancestor: String, _ ours: String, _ theirs: String) -> [UInt8]? {
    let outcome = LineMerge.merge(ancestor: ancestor, ours: ours, theirs: theirs)
    let general = LineMerge.threeWay(ancestor: ancestor, ours: ours, theirs: theirs, cursor: nil)
    let withCursor = LineMerge.merge(ancestor: ancestor, ours: ours, theirs: theirs, cursor: 0)
    let swapped = LineMerge.threeWay(ancestor: ancestor, ours: theirs, theirs: ours, cursor: nil)
    switch outcome {
    case .merged(let text):
      #expect(general.map { Array($0.text.utf8) } == Array(text.utf8))
      #expect(withCursor.map { Array($0.text.utf8) } == Array(text.utf8))
      // The merge is symmetric in its two sides.
      #expect(swapped.map { Array($0.text.utf8) } == Array(text.utf8))
      return Array(text.utf8)
    case .conflict:
      #expect(general == nil)
      #expect(withCursor == nil)
      #expect(swapped == nil)
      return nil
    }
  }

  /// Expects the merge to give exactly `expected`, byte for byte.
  static func expectMerged(
    _ ancestor: String, _ ours: String, _ theirs: String, _ expected: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      merge(ancestor, ours, theirs) == Array(expected.utf8), sourceLocation: sourceLocation)
  }

  /// Expects the merge to be a conflict.
  static func expectConflict(
    _ ancestor: String, _ ours: String, _ theirs: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(merge(ancestor, ours, theirs) == nil, sourceLocation: sourceLocation)
    #expect(
      LineMerge.merge(ancestor: ancestor, ours: ours, theirs: theirs) == .conflict,
      sourceLocation: sourceLocation)
  }

  /// Expects the line merge alone to conflict (git's rule at the grain of lines) and the
  /// merge, which merges that region again token by token, to give exactly `expected`.
  static func expectLineConflictMerged(
    _ ancestor: String, _ ours: String, _ theirs: String, _ expected: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      LineMerge.threeWay(
        ancestor: ancestor, ours: ours, theirs: theirs, cursor: nil, refining: false) == nil,
      sourceLocation: sourceLocation)
    expectMerged(ancestor, ours, theirs, expected, sourceLocation: sourceLocation)
  }

  /// The UTF-8 offset of `needle`'s first occurrence in `text`.
  static func offset(of needle: String, in text: String) -> Int {
    let bytes = Array(text.utf8)
    let target = Array(needle.utf8)
    for start in 0...(bytes.count - target.count)
    where Array(bytes[start..<(start + target.count)]) == target {
      return start
    }
    Issue.record("\(needle) is not in \(text)")
    return -1
  }

  /// The text of `text` from UTF-8 offset `offset` on.
  static func suffix(_ text: String, from offset: Int) -> String {
    String(decoding: Array(text.utf8)[offset...], as: UTF8.self)
  }

  /// `lines` as a text: joined with newlines, with a final newline if `trailing` (and any
  /// line at all).
  static func text(_ lines: [String], trailing: Bool) -> String {
    lines.isEmpty ? "" : lines.joined(separator: "\n") + (trailing ? "\n" : "")
  }

  /// The UTF-8 offset where line `index` of `lines` starts in `text(lines, …)`, or the end of
  /// the text for `index == lines.count`.
  static func lineStart(_ lines: [String], _ index: Int, trailing: Bool) -> Int {
    let start = lines[..<index].reduce(0) { $0 + $1.utf8.count + 1 }
    return min(start, text(lines, trailing: trailing).utf8.count)
  }

  // MARK: - Shortcuts and unchanged texts

  @Test func nothingChangedGivesTheTextByteForByte() {
    let texts = [
      "", "\n", "\n\n", "a", "a\n", "a\nb", "a\nb\n", "\r\n", "a\r\nb\r\n", "x\n\n\ny\n\n",
      "caf\u{E9}\n", "cafe\u{301}",
    ]
    for text in texts {
      Self.expectMerged(text, text, text, text)
    }
  }

  @Test func equalSidesGiveThatText() {
    Self.expectMerged("a\nb\n", "a\nB\nc", "a\nB\nc", "a\nB\nc")
    Self.expectMerged("a\nb\nc\n", "", "", "")
    Self.expectMerged("", "x\ny\n", "x\ny\n", "x\ny\n")
  }

  @Test func anUnchangedSideGivesTheOtherSide() {
    Self.expectMerged("a\nb\nc\n", "a\nb\nc\n", "x\n", "x\n")
    Self.expectMerged("a\nb\nc\n", "x", "a\nb\nc\n", "x")
    Self.expectMerged("a\nb\nc", "a\nb\nc", "a\nb\nc\n", "a\nb\nc\n")
    Self.expectMerged("a\nb\nc\n", "a\nb\nc", "a\nb\nc\n", "a\nb\nc")
  }

  @Test func linesAreComparedByTheirBytesNotByCanonicalEquivalence() {
    let composed = "caf\u{E9}\nbar\n"
    let decomposed = "cafe\u{301}\nbar\n"
    // Swift calls these equal; the merge keeps the side that changed the bytes.
    #expect(composed == decomposed)
    Self.expectMerged(composed, composed, decomposed, decomposed)
    Self.expectMerged(composed, decomposed, composed, decomposed)
    // A change of encoding on one side and an edit far away on the other both survive.
    Self.expectMerged(
      "caf\u{E9}\n1\n2\nend\n", "cafe\u{301}\n1\n2\nend\n", "caf\u{E9}\n1\n2\nEND\n",
      "cafe\u{301}\n1\n2\nEND\n")
    // Both sides re-encoding the same line differently is a conflict.
    Self.expectConflict("caf\u{E9}\nx\n", "cafe\u{301}\nx\n", "caf\u{E9}\u{300}\nx\n")
  }

  // MARK: - Changes on one or both sides

  @Test func editsFarApartBothSurvive() {
    let ancestor = "one\ntwo\nthree\nfour\nfive\nsix\n"
    Self.expectMerged(
      ancestor, "ONE\ntwo\nthree\nfour\nfive\nsix\n", "one\ntwo\nthree\nfour\nfive\nSIX\n",
      "ONE\ntwo\nthree\nfour\nfive\nSIX\n")
    // Insertion on one side, deletion on the other.
    Self.expectMerged(
      ancestor, "one\nnew\ntwo\nthree\nfour\nfive\nsix\n", "one\ntwo\nthree\nfour\nsix\n",
      "one\nnew\ntwo\nthree\nfour\nsix\n")
    // Several regions interleaved between the sides.
    Self.expectMerged(
      ancestor + "seven\n", "1\ntwo\nthree\nfour\n5\nsix\nseven\n",
      "one\ntwo\n3\nfour\nfive\nsix\n7\n", "1\ntwo\n3\nfour\n5\nsix\n7\n")
  }

  @Test func oneUnchangedLineBetweenIsEnough() {
    Self.expectMerged("a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n", "A\nb\nC\n")
    Self.expectMerged("a\nb\nc\n", "a\nb\nc\nd\n", "x\na\nb\nc\n", "x\na\nb\nc\nd\n")
    Self.expectMerged("a\nb\nc", "a\nb", "b\nc", "b")
  }

  @Test func bothSidesMakingTheSameChangeTakeItOnce() {
    let ancestor = "a\nb\nc\nd\ne\nf\n"
    Self.expectMerged(ancestor, "a\nb\nC\nd\ne\nF\n", "a\nb\nC\nd\ne\nf\n", "a\nb\nC\nd\ne\nF\n")
    Self.expectMerged(ancestor, "a\nb\nd\ne\nf\n", "a\nb\nd\ne\nF\n", "a\nb\nd\ne\nF\n")
    Self.expectMerged(
      ancestor, "A\nb\nx\nc\nd\ne\nf\n", "a\nb\nx\nc\nd\ne\nf\n", "A\nb\nx\nc\nd\ne\nf\n")
    // Agreeing on part of a region is not enough for lines: the whole region must be
    // identical. Token by token, the shared change is taken once and ours' other one kept.
    Self.expectLineConflictMerged(
      ancestor, "a\nB\nC\nd\ne\nf\n", "a\nB\nc\nd\ne\nf\n", "a\nB\nC\nd\ne\nf\n")
    Self.expectConflict(ancestor, "a\nB\nC\nd\ne\nf\n", "a\nB\nc!\nd\ne\nf\n")
  }

  @Test func editsOfAdjacentLinesConflictAsLinesAndMergeAsTokens() {
    let ancestor = "a\nb\nc\nd\n"
    // The newline between two edited lines is a token neither side changed.
    Self.expectLineConflictMerged(ancestor, "a\nB\nc\nd\n", "a\nb\nC\nd\n", "a\nB\nC\nd\n")
    Self.expectLineConflictMerged(ancestor, "a\nb\nC\nd\n", "a\nB\nc\nd\n", "a\nB\nC\nd\n")
    Self.expectLineConflictMerged(ancestor, "A\nb\nc\nd\n", "a\nB\nc\nd\n", "A\nB\nc\nd\n")
    // A whole line inserted or deleted could be placed on either side of a newline, so it
    // touches an edit of the line next to it: these stay conflicts.
    // An insertion right after or right before a line the other side changed.
    Self.expectConflict(ancestor, "a\nB\nc\nd\n", "a\nb\nnew\nc\nd\n")
    Self.expectConflict(ancestor, "a\nB\nc\nd\n", "a\nnew\nb\nc\nd\n")
    // A deletion next to an edit.
    Self.expectConflict(ancestor, "a\nc\nd\n", "a\nb\nC\nd\n")
    // A chain of touching edits alternating between the sides is one region of lines,
    // whose edits are apart as tokens.
    Self.expectLineConflictMerged(ancestor, "A\nb\nC\nd\n", "a\nB\nc\nD\n", "A\nB\nC\nD\n")
  }

  @Test func editsOfTheSameLineConflict() {
    Self.expectConflict("a\nb\nc\n", "a\nB\nc\n", "a\nbee\nc\n")
    Self.expectConflict("only", "ours", "theirs")
    Self.expectConflict("a\nb\nc\n", "a\nB1\nB2\nc\n", "a\nB1\nc\n")
  }

  @Test func deletingALineTheOtherSideEditedConflicts() {
    Self.expectConflict("a\nb\nc\n", "a\nc\n", "a\nB\nc\n")
    Self.expectConflict("a\nb\nc\n", "a\nB\nc\n", "a\nc\n")
    Self.expectConflict("a\nb\nc\nd\n", "a\nd\n", "a\nb\nC\nd\n")
    // Deleting the same line on both sides is the same change.
    Self.expectMerged("a\nb\nc\nd\ne\n", "a\nc\nd\nE\n", "a\nc\nd\ne\n", "a\nc\nd\nE\n")
  }

  @Test func insertionsAtTheSamePlace() {
    let ancestor = "a\nb\nc\n"
    Self.expectConflict(ancestor, "a\nours\nb\nc\n", "a\ntheirs\nb\nc\n")
    Self.expectConflict(ancestor, "ours\na\nb\nc\n", "theirs\na\nb\nc\n")
    Self.expectConflict(ancestor, "a\nb\nc\nours\n", "a\nb\nc\ntheirs\n")
    Self.expectConflict(ancestor, "a\nx\nb\nc\n", "a\nx\ny\nb\nc\n")
    // The same insertion on both sides is taken once.
    Self.expectMerged(ancestor, "a\nnew\nb\nc\nd\n", "a\nnew\nb\nc\n", "a\nnew\nb\nc\nd\n")
    // Insertions one line apart both survive.
    Self.expectMerged(ancestor, "a\nours\nb\nc\n", "a\nb\ntheirs\nc\n", "a\nours\nb\ntheirs\nc\n")
  }

  // MARK: - Final newlines, empty texts, Unicode

  @Test func theFinalNewlineComesThrough() {
    // One side adds the final newline, the other edits a line further up.
    Self.expectMerged("a\nb\nc", "a\nb\nc\n", "A\nb\nc", "A\nb\nc\n")
    // One side removes it.
    Self.expectMerged("a\nb\nc\n", "A\nb\nc\n", "a\nb\nc", "A\nb\nc")
    // Lines appended to a text without a final newline, an edit further up.
    Self.expectMerged("a\nb\nc", "a\nb\nc\nd", "A\nb\nc", "A\nb\nc\nd")
    Self.expectMerged("a\nb\nc", "a\nb\nc\nd\n", "A\nb\nc", "A\nb\nc\nd\n")
    // Without a final newline on any side, nothing gains one.
    Self.expectMerged("a\nb\nc\nd", "A\nb\nc\nd", "a\nb\nc\nD", "A\nb\nc\nD")
    // Trailing empty lines are lines.
    Self.expectMerged("a\nb\nc\n\n\n", "A\nb\nc\n\n\n", "a\nb\nc\n\n", "A\nb\nc\n\n")
    // As in git, a change of the final newline touches an edit of the last line.
    Self.expectConflict("a\nb\nc", "a\nb\nc\n", "a\nb\nC")
    Self.expectConflict("a\nb\nc\n", "a\nb\nc", "a\nb\nC\n")
    // Different lines appended on both sides.
    Self.expectConflict("a\nb\n", "a\nb\nc\n", "a\nb\nd\n")
  }

  @Test func emptyTexts() {
    Self.expectMerged("", "", "", "")
    Self.expectMerged("", "a", "", "a")
    Self.expectMerged("", "", "a\n", "a\n")
    Self.expectMerged("a\nb\nc", "", "a\nb\nc", "")
    Self.expectMerged("a", "", "", "")
    Self.expectConflict("", "a", "b")
    Self.expectConflict("a\nb\nc", "", "a\nB\nc")
    Self.expectConflict("a\nb\nc", "a\nb\nC", "")
  }

  @Test func unicodeLines() {
    let ancestor = "🙂 smile\n日本語のテキスト\nمرحبا\nfamily 👨‍👩‍👧‍👦\nZ̤͔ͧ̑̓ä͖̭̈̇lgo\nend\n"
    Self.expectMerged(
      ancestor,
      "🙃 upside down\n日本語のテキスト\nمرحبا\nfamily 👨‍👩‍👧‍👦\nZ̤͔ͧ̑̓ä͖̭̈̇lgo\nend\n",
      "🙂 smile\n日本語のテキスト\nمرحبا\nfamily 👨‍👩‍👧‍👦\nZ̤͔ͧ̑̓ä͖̭̈̇lgo!\nend\n",
      "🙃 upside down\n日本語のテキスト\nمرحبا\nfamily 👨‍👩‍👧‍👦\nZ̤͔ͧ̑̓ä͖̭̈̇lgo!\nend\n")
    let ours = ancestor.replacing("مرحبا", with: "سلام")
    Self.expectConflict(ancestor, ours, ancestor.replacing("مرحبا", with: "أهلا"))
  }

  @Test func carriageReturnsStayInTheirLines() {
    let ancestor = "a\r\nb\r\nc\r\nd\r\n"
    Self.expectMerged(
      ancestor, "A\r\nb\r\nc\r\nd\r\n", "a\r\nb\r\nc\r\nD\r\n", "A\r\nb\r\nc\r\nD\r\n")
    // "c" and "c\r" are different lines.
    Self.expectConflict(ancestor, "a\r\nb\r\nc\nd\r\n", "a\r\nb\r\nC\r\nd\r\n")
  }

  // MARK: - Big notes

  @Test func aBigNoteWithScatteredEditsOnBothSides() {
    let ancestor = (0..<5_000).map { "line \($0)" }
    var ours = ancestor
    var theirs = ancestor
    var expected = ancestor
    for index in stride(from: 0, to: 5_000, by: 100) {
      ours[index] = "ours \(index)"
      expected[index] = "ours \(index)"
      theirs[index + 50] = "theirs \(index + 50)"
      expected[index + 50] = "theirs \(index + 50)"
    }
    ours.insert("inserted by ours", at: 2_501)
    expected.insert("inserted by ours", at: 2_501)
    theirs.remove(at: 4_999)
    expected.remove(at: 5_000)
    let join = { (lines: [String]) in lines.joined(separator: "\n") + "\n" }
    Self.expectMerged(join(ancestor), join(ours), join(theirs), join(expected))
  }

  @Test func aRewrittenNoteAgainstASmallEdit() {
    let ancestor = (0..<1_000).map { "line \($0)" }.joined(separator: "\n")
    let ours = (0..<1_000).map { "rewritten \($0)" }.joined(separator: "\n")
    let theirs = ancestor.replacing("line 500\n", with: "line five hundred\n")
    Self.expectConflict(ancestor, ours, theirs)
  }

  // MARK: - Cursor

  @Test func aCursorBeforeARegionTheirsChangedStaysOnItsCharacter() throws {
    let ancestor = "alpha\nbeta\ngamma\ndelta\n"
    let ours = "alpha\nbeta ours\ngamma\ndelta\n"
    let theirs = "alpha\nbeta\ngamma\nDELTA\nepsilon\n"
    let cursor = Self.offset(of: "ta ours", in: ours)
    let result = try #require(
      LineMerge.merge(ancestor: ancestor, ours: ours, theirs: theirs, cursor: cursor))
    #expect(result.text == "alpha\nbeta ours\ngamma\nDELTA\nepsilon\n")
    #expect(result.cursor == cursor)
    #expect(Self.suffix(result.text, from: result.cursor).hasPrefix("ta ours\n"))
  }

  @Test func aCursorAfterARegionTheirsChangedStaysOnItsCharacter() throws {
    let ancestor = "alpha\nbeta\ngamma\ndelta\n"
    let ours = "alpha\nbeta\ngamma\ndélta ours\n"
    let theirs = "ALPHA 🙂\ninserted\nbeta\ngamma\ndelta\n"
    let cursor = Self.offset(of: "lta ours", in: ours)
    let result = try #require(
      LineMerge.merge(ancestor: ancestor, ours: ours, theirs: theirs, cursor: cursor))
    #expect(result.text == "ALPHA 🙂\ninserted\nbeta\ngamma\ndélta ours\n")
    #expect(result.cursor == Self.offset(of: "lta ours", in: result.text))
    // In an unchanged line after theirs' change, too.
    let inGamma = Self.offset(of: "mma", in: ours)
    let moved = try #require(
      LineMerge.merge(ancestor: ancestor, ours: ours, theirs: theirs, cursor: inGamma))
    #expect(moved.cursor == Self.offset(of: "mma", in: moved.text))
  }

  @Test func aCursorAtTheStartOrEndOfALineStaysThere() throws {
    let ancestor = "a\nb\nc\nd\n"
    let ours = "a\nb\nc ours\nd\n"
    let theirs = "x\ny\na\nb\nc\nd\n"
    let lineStart = Self.offset(of: "c ours", in: ours)
    let start = try #require(
      LineMerge.merge(ancestor: ancestor, ours: ours, theirs: theirs, cursor: lineStart))
    #expect(start.cursor == Self.offset(of: "c ours", in: start.text))
    let lineEnd = lineStart + "c ours".utf8.count
    let end = try #require(
      LineMerge.merge(ancestor: ancestor, ours: ours, theirs: theirs, cursor: lineEnd))
    #expect(Self.suffix(end.text, from: end.cursor) == "\nd\n")
    let textEnd = try #require(
      LineMerge.merge(ancestor: ancestor, ours: ours, theirs: theirs, cursor: ours.utf8.count))
    #expect(textEnd.cursor == textEnd.text.utf8.count)
  }

  @Test func aCursorInLinesTheirsChangedGoesToTheStartOfTheirChange() throws {
    let ancestor = "a\nb\nc\nd\ne\n"
    let ours = "A\nb\nc\nd\ne\n"
    let replaced = try #require(
      LineMerge.merge(
        ancestor: ancestor, ours: ours, theirs: "a\nb\nsee\nsea\nd\ne\n",
        cursor: Self.offset(of: "c", in: ours) + 1))
    #expect(replaced.text == "A\nb\nsee\nsea\nd\ne\n")
    #expect(replaced.cursor == Self.offset(of: "see", in: replaced.text))
    let inD = Self.offset(of: "d", in: ours)
    let deleted = try #require(
      LineMerge.merge(ancestor: ancestor, ours: ours, theirs: "a\nb\ne\n", cursor: inD))
    #expect(deleted.text == "A\nb\ne\n")
    #expect(deleted.cursor == Self.offset(of: "e", in: deleted.text))
    let deletedAtEnd = try #require(
      LineMerge.merge(ancestor: "a\nb\nc\nd", ours: "A\nb\nc\nd", theirs: "a\nb", cursor: 7))
    #expect(deletedAtEnd.text == "A\nb")
    #expect(deletedAtEnd.cursor == 3)
  }

  @Test func aCursorWhenOursIsUnchangedOrEqualToTheirs() throws {
    let ancestor = "a\nb\nc\n"
    let unchanged = try #require(
      LineMerge.merge(ancestor: ancestor, ours: ancestor, theirs: "new\na\nb\nc\n", cursor: 3))
    #expect(unchanged.text == "new\na\nb\nc\n")
    #expect(Self.suffix(unchanged.text, from: unchanged.cursor) == "\nc\n")
    let equal = try #require(
      LineMerge.merge(ancestor: ancestor, ours: "x\ny\n", theirs: "x\ny\n", cursor: 2))
    #expect(equal.text == "x\ny\n")
    #expect(equal.cursor == 2)
  }

  @Test func aCursorOutsideTheTextIsClampedAndAConflictGivesNil() throws {
    let ancestor = "a\nb\nc\n"
    let ours = "A\nb\nc\n"
    let theirs = "a\nb\nC\n"
    let before = try #require(
      LineMerge.merge(ancestor: ancestor, ours: ours, theirs: theirs, cursor: -5))
    #expect(before.cursor == 0)
    let after = try #require(
      LineMerge.merge(ancestor: ancestor, ours: ours, theirs: theirs, cursor: 99))
    #expect(after.cursor == after.text.utf8.count)
    #expect(LineMerge.merge(ancestor: ancestor, ours: ours, theirs: "B\nb\nc\n", cursor: 1) == nil)
  }

  // MARK: - The diff

  /// The length of a longest common subsequence, by the textbook table.
  static func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
    var previous = [Int](repeating: 0, count: b.count + 1)
    for x in a {
      var current = [0]
      for (j, y) in b.enumerated() {
        current.append(x == y ? previous[j] + 1 : max(previous[j + 1], current[j]))
      }
      previous = current
    }
    return previous[b.count]
  }

  @Test func theEditScriptIsValidAndShortest() {
    var random = SplitMix64(seed: 0x5EED_D1FF)
    for iteration in 0..<400 {
      let maxLength = iteration < 360 ? 30 : 300
      let symbols = Int.random(in: 1...5, using: &random)
      let a = (0..<Int.random(in: 0...maxLength, using: &random)).map { _ in
        Int.random(in: 0..<symbols, using: &random)
      }
      var b = a
      for _ in 0..<Int.random(in: 0...(maxLength / 3), using: &random) {
        let index = Int.random(in: 0...b.count, using: &random)
        if Bool.random(using: &random) || index == b.count {
          b.insert(Int.random(in: 0..<symbols, using: &random), at: index)
        } else {
          b.remove(at: index)
        }
      }
      if iteration % 10 == 0 {
        b = (0..<Int.random(in: 0...maxLength, using: &random)).map { _ in
          Int.random(in: 0..<symbols, using: &random)
        }
      }
      let hunks = LineMerge.editScript(from: a, to: b)
      var rebuilt: [Int] = []
      var nextA = 0
      var nextB = 0
      var cost = 0
      for (number, hunk) in hunks.enumerated() {
        #expect(hunk.ancestorStart - nextA == hunk.sideStart - nextB)
        #expect(number == 0 || hunk.ancestorStart > nextA)
        #expect(hunk.ancestorStart <= hunk.ancestorEnd && hunk.sideStart <= hunk.sideEnd)
        #expect(hunk.ancestorEnd > hunk.ancestorStart || hunk.sideEnd > hunk.sideStart)
        #expect(a[nextA..<hunk.ancestorStart] == b[nextB..<hunk.sideStart])
        rebuilt += a[nextA..<hunk.ancestorStart]
        rebuilt += b[hunk.sideStart..<hunk.sideEnd]
        cost += (hunk.ancestorEnd - hunk.ancestorStart) + (hunk.sideEnd - hunk.sideStart)
        nextA = hunk.ancestorEnd
        nextB = hunk.sideEnd
      }
      #expect(a[nextA...] == b[nextB...])
      rebuilt += a[nextA...]
      #expect(rebuilt == b)
      #expect(cost == a.count + b.count - 2 * Self.lcsLength(a, b), "iteration \(iteration)")
    }
  }

  // MARK: - Random edits

  /// Which side edits a region.
  enum Side: CaseIterable {
    case ours
    case theirs
    case both
  }

  /// Random texts edited in separate regions, and what merging them must give.
  struct Scenario {
    var ancestor: [String] = []
    var ours: [String] = []
    var theirs: [String] = []
    var expected: [String] = []
    var trailing = false
    /// For each line of `ours`, where a cursor in it lands: on the same character of
    /// `expected[line]` (`sameCharacter`), or at the start of `expected[line]`.
    var cursorTargets: [(line: Int, sameCharacter: Bool)] = []

    /// Texts of 0–40 distinct lines, edited in regions that one side (or both, identically)
    /// changes, regions of different sides at least one unchanged line apart.
    ///
    /// Every line is unique (a word of a small alphabet and a number), so the diff of
    /// each side finds exactly the edits made; with repeated lines an edit can be
    /// attributed to a neighbouring equal line, which is a matter of diff3, not a bug.
    init(using random: inout SplitMix64) {
      let words = ["fig", "kiwi", "é", "e\u{301}", "日本", "🙂", "", " ", "a\r", "Ω", "👨‍👩‍👧"]
      let count = Int.random(in: 0...40, using: &random)
      ancestor = (0..<count).map { "\(words.randomElement(using: &random)!)\($0)" }
      trailing = count > 0 && Bool.random(using: &random)
      var fresh = 0
      var index = 0
      var last: (side: Side, end: Int)?
      var theirsRegionStart = 0
      while index <= count {
        let side = Side.allCases.randomElement(using: &random)!
        let allowed = last.map { $0.side == side || index > $0.end } ?? true
        if allowed, Int.random(in: 0..<10, using: &random) < 3 {
          let removed =
            index < count && Int.random(in: 0..<3, using: &random) > 0
            ? Int.random(in: 1...min(3, count - index), using: &random) : 0
          let added =
            removed == 0 || Bool.random(using: &random) ? Int.random(in: 1...3, using: &random) : 0
          let old = Array(ancestor[index..<(index + removed)])
          let new = (0..<added).map { _ in
            fresh += 1
            return "\(words.randomElement(using: &random)!)+\(side)\(fresh)"
          }
          let touchesLast = last.map { $0.side == side && $0.end == index } ?? false
          if side == .theirs, !touchesLast { theirsRegionStart = expected.count }
          switch side {
          case .ours, .both:
            cursorTargets += new.indices.map { (expected.count + $0, true) }
            ours += new
          case .theirs:
            cursorTargets += old.map { _ in (theirsRegionStart, false) }
            ours += old
          }
          theirs += side == .ours ? old : new
          expected += new
          index += removed
          last = (side, index)
        } else if index < count {
          cursorTargets.append((expected.count, true))
          ours.append(ancestor[index])
          theirs.append(ancestor[index])
          expected.append(ancestor[index])
          index += 1
        } else {
          break
        }
      }
    }

    func text(_ lines: [String]) -> String { LineMergeTests.text(lines, trailing: trailing) }
  }

  @Test func editsInSeparateRegionsAllSurvive() throws {
    for seed in UInt64(1)...600 {
      var random = SplitMix64(seed: seed)
      let scenario = Scenario(using: &random)
      let ancestor = scenario.text(scenario.ancestor)
      let ours = scenario.text(scenario.ours)
      let theirs = scenario.text(scenario.theirs)
      let expected = scenario.text(scenario.expected)
      #expect(Self.merge(ancestor, ours, theirs) == Array(expected.utf8), "seed \(seed)")

      // A cursor on a character of a random line of ours (or after the final newline).
      guard !scenario.ours.isEmpty else { continue }
      let cursor: Int
      let target: Int
      // After the final newline is a line too, one no side changes.
      let last = scenario.trailing ? scenario.ours.count : scenario.ours.count - 1
      let line = Int.random(in: 0...last, using: &random)
      if line == scenario.ours.count {
        cursor = ours.utf8.count
        target = expected.utf8.count
      } else {
        let characters = Array(scenario.ours[line])
        let column = String(characters[..<Int.random(in: 0...characters.count, using: &random)])
          .utf8.count
        cursor = Self.lineStart(scenario.ours, line, trailing: scenario.trailing) + column
        let (expectedLine, sameCharacter) = scenario.cursorTargets[line]
        target =
          Self.lineStart(scenario.expected, expectedLine, trailing: scenario.trailing)
          + (sameCharacter ? column : 0)
      }
      let result = try #require(
        LineMerge.merge(ancestor: ancestor, ours: ours, theirs: theirs, cursor: cursor))
      #expect(result.cursor == target, "seed \(seed)")
      let general = try #require(
        LineMerge.threeWay(ancestor: ancestor, ours: ours, theirs: theirs, cursor: cursor))
      #expect(general.cursor == target, "seed \(seed)")
    }
  }

  /// A random text of up to 12 lines from a tiny alphabet, so lines repeat.
  static func repetitiveText(using random: inout SplitMix64) -> String {
    let words = ["a", "b", "", "a b", "é", "🙂", "\r"]
    let lines = (0..<Int.random(in: 0...12, using: &random)).map { _ in
      words.randomElement(using: &random)!
    }
    return text(lines, trailing: Bool.random(using: &random))
  }

  @Test func anUnchangedSideOrEqualSidesGiveTheOtherText() throws {
    var random = SplitMix64(seed: 0xD1FF_3000)
    for iteration in 0..<500 {
      let ancestor = Self.repetitiveText(using: &random)
      let x = Self.repetitiveText(using: &random)
      let y = Self.repetitiveText(using: &random)
      let expected = Array(x.utf8)
      #expect(Self.merge(ancestor, x, ancestor) == expected, "iteration \(iteration)")
      #expect(Self.merge(ancestor, ancestor, x) == expected, "iteration \(iteration)")
      #expect(Self.merge(ancestor, x, x) == expected, "iteration \(iteration)")
      // Any three texts: a result (or a conflict), the same whichever side is which.
      _ = Self.merge(ancestor, x, y)
      // Without the shortcuts, a cursor in x stays where it is when x is the result.
      let cursor = Self.lineStartOfRandomCharacter(in: x, using: &random)
      let alone = try #require(
        LineMerge.threeWay(ancestor: ancestor, ours: x, theirs: ancestor, cursor: cursor))
      #expect(alone.cursor == cursor, "iteration \(iteration)")
      let same = try #require(
        LineMerge.threeWay(ancestor: ancestor, ours: x, theirs: x, cursor: cursor))
      #expect(same.cursor == cursor, "iteration \(iteration)")
    }
  }

  /// The UTF-8 offset of a random character boundary of `text`.
  static func lineStartOfRandomCharacter(in text: String, using random: inout SplitMix64) -> Int {
    let characters = Array(text)
    return String(characters[..<Int.random(in: 0...characters.count, using: &random)]).utf8.count
  }
}
