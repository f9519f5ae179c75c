import AirframeTesting
import NotesCore
import Testing

/// What a text view replaces to show a new version of its text: only what changed.
struct LineMergeReplacementsTests {
  /// `old` with `replacements` applied, last first.
  static func applying(_ replacements: [LineMerge.Replacement], to old: String) -> String {
    var bytes = Array(old.utf8)
    for change in replacements.reversed() {
      bytes.replaceSubrange(change.range, with: Array(change.text.utf8))
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test(arguments: [
    ("", ""), ("", "new"), ("old", ""), ("a\nb", "a\nc"), ("a\nb\n", "a\n"), ("a", "a\n"),
    ("one\ntwo\nthree", "ONE\ntwo\nthree!"), ("é\n", "e\u{301}\n"), ("x🙂y", "x🙃y"),
    ("same", "same"), ("\n\n\n", "\n"), ("a\r\nb", "a\nb"),
  ])
  func applyingTheReplacementsGivesTheNewTextByteForByte(old: String, new: String) {
    let changes = LineMerge.replacements(from: old, to: new)
    #expect(Array(Self.applying(changes, to: old).utf8) == Array(new.utf8))
    if Array(old.utf8) == Array(new.utf8) { #expect(changes.isEmpty) }
  }

  @Test func editsAtBothEndsLeaveTheLinesBetweenUntouched() {
    let middle = (1...50).map { "line \($0)" }.joined(separator: "\n")
    let old = "title\n" + middle + "\nlast"
    let new = "Title!\n" + middle + "\nlast line"
    let changes = LineMerge.replacements(from: old, to: new)
    #expect(
      changes == [
        .init(range: 0..<5, text: "Title!"),
        .init(range: (old.utf8.count)..<(old.utf8.count), text: " line"),
      ])
    // Nothing between the first and the last line is inside a replaced range: a cursor
    // there stays.
    let middleRange = ("title\n".utf8.count)..<("title\n".utf8.count + middle.utf8.count)
    #expect(changes.allSatisfy { !$0.range.overlaps(middleRange) })
    #expect(Self.applying(changes, to: old) == new)
  }

  @Test func anOffsetMovesWithTheTextAroundIt() {
    let old = "alpha\nbeta\ngamma"
    let new = "ALPHA!\nbeta\nnew\ngamma"
    let changes = LineMerge.replacements(from: old, to: new)
    func mapped(before text: String) -> String {
      let at = Array(old.utf8).firstRange(of: Array(text.utf8))!.lowerBound
      let moved = LineMerge.offset(at, mappedThrough: changes)
      return String(decoding: Array(new.utf8)[moved...], as: UTF8.self)
    }
    #expect(mapped(before: "beta") == "beta\nnew\ngamma")
    #expect(mapped(before: "gamma") == "gamma")
    // Inside a replaced part: after what replaced it.
    #expect(LineMerge.offset(2, mappedThrough: changes) == "ALPHA!".utf8.count)
    #expect(LineMerge.offset(old.utf8.count, mappedThrough: changes) == new.utf8.count)
    #expect(LineMerge.offset(0, mappedThrough: changes) == 0)
    // Text inserted where the offset is comes after it (unless it is whole lines, which go
    // above the offset's line); a replacement ending there moves it.
    let inserted = LineMerge.replacements(from: "ab", to: "aXb")
    #expect(LineMerge.offset(1, mappedThrough: inserted) == 1)
    #expect(LineMerge.offset(2, mappedThrough: inserted) == 3)
    let shortened = LineMerge.replacements(from: "Ship it", to: "Ship")
    #expect(LineMerge.offset(7, mappedThrough: shortened) == 4)
  }

  @Test func rangesAreInOrderApartAndOnScalarBoundaries() {
    var random = SeededRandomNumberGenerator(seed: 27)
    let words = ["a", "b", "é", "🙂", "語", "\n", " ", "word", "\r\n"]
    for _ in 0..<2_000 {
      let old = (0..<Int.random(in: 0..<30, using: &random)).map { _ in
        words.randomElement(using: &random)!
      }.joined()
      var new = Array(old.unicodeScalars)
      for _ in 0..<Int.random(in: 0..<4, using: &random) {
        let at = Int.random(in: 0...new.count, using: &random)
        if Bool.random(using: &random), at < new.count {
          new.remove(at: at)
        } else {
          new.insert(contentsOf: words.randomElement(using: &random)!.unicodeScalars, at: at)
        }
      }
      var scalars = String.UnicodeScalarView()
      scalars.append(contentsOf: new)
      let newText = String(scalars)
      let changes = LineMerge.replacements(from: old, to: newText)
      #expect(
        Array(Self.applying(changes, to: old).utf8) == Array(newText.utf8), "\(old) → \(newText)")
      let boundaries = Set(
        old.unicodeScalars.indices.map { old.utf8.distance(from: old.startIndex, to: $0) }
          + [old.utf8.count])
      for (index, change) in changes.enumerated() {
        #expect(
          boundaries.contains(change.range.lowerBound)
            && boundaries.contains(change.range.upperBound))
        if index > 0 { #expect(changes[index - 1].range.upperBound < change.range.lowerBound) }
      }
    }
  }
}
