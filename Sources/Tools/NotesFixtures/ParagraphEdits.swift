public import AirframeTesting

/// Random paragraphs and pairs of edits of them.
///
/// They are seeded, for the word merge's property test (LineMergeTokenTests) and its benchmark
/// figure (figure 18, notes-merge).
///
/// ## Guarantees
///
/// - The same seed gives the same cases, on every platform (`SeededRandomNumberGenerator`,
///   SplitMix64; no `Hasher`).
/// - A paragraph is 1–3 lines of 4–24 words with separators between them (" ", ", ", ". ",
///   "\t", "; ", " — "), some lines ending in trailing white space. About a third of the
///   words are common ones that repeat ("the", "a", "and", "of", "to"); the others are
///   unique (a word with a number), some with a combining mark, in CJK (no space around it),
///   or with an emoji. Every inserted word is fresh: it appears nowhere else.
/// - Each side makes 1–2 edits: replace a word by a fresh one, delete a word with one
///   separator next to it, or insert a fresh word (with a space) after a word. When the two
///   sides' edits are apart — at least one word neither side touched between them — the
///   case says what merging must give (`expected`): both sides' edits applied to the
///   ancestor.
public enum ParagraphEdits {
  /// One case: an ancestor paragraph, two edited versions, and what is known of the merge.
  public struct Case: Sendable {
    /// The version both sides edited.
    public var ancestor: String
    /// One side's version.
    public var ours: String
    /// The other side's version.
    public var theirs: String
    /// What the merge must give when the edits are apart, `nil` when they touch or overlap.
    public var expected: String?
    /// The fresh words the sides inserted (each in no other place).
    public var inserted: [String]
    /// The unique words of the ancestor that a side replaced or deleted.
    public var removed: [String]
    /// The unique words of the ancestor that no side touched.
    public var kept: [String]
  }

  /// A word of the paragraph and the separator after it.
  struct Slot {
    var word: String
    var separator: String
    var unique: Bool
  }

  /// An edit of one side, at a word.
  enum Edit {
    case replace(Int, String)
    case delete(Int)
    case insert(after: Int, String)

    var word: Int {
      switch self {
      case .replace(let index, _), .delete(let index), .insert(after: let index, _): index
      }
    }

    /// The words the edit touches (an insertion touches the words on both sides).
    var touched: ClosedRange<Int> {
      switch self {
      case .replace(let index, _), .delete(let index): index...index
      case .insert(after: let index, _): index...(index + 1)
      }
    }
  }

  static let common = ["the", "a", "and", "of", "to"]
  static let stems = ["fig", "kiwi", "cafe\u{301}", "na\u{EF}ve", "Ω", "plan", "note", "day"]
  static let cjk = Array("日本語東京晴雨雪山川花")
  static let separators = [" ", " ", " ", " ", ", ", ". ", "\t", "; ", " — "]
  static let trailing = ["", "", "", "  ", "\t", " "]

  /// A random case; `apart` forces the two sides' edits apart (or lets them fall anywhere
  /// when `false`).
  ///
  /// - Parameters:
  ///   - random: The generator.
  ///   - apart: Whether the edits must be apart.
  /// - Returns: The case.
  public static func make(
    using random: inout SeededRandomNumberGenerator, apart: Bool
  ) -> Case {
    var counter = 0
    func fresh(_ side: String) -> String {
      counter += 1
      let emoji = ["", "", "🎉", "👨‍👩‍👧"].randomElement(using: &random)!
      return "\(side)\(counter)x\(emoji)"
    }
    var lines: [[Slot]] = []
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      var slots: [Slot] = []
      let count = Int.random(in: 4...24, using: &random)
      for position in 0..<count {
        counter += 1
        let word: String
        var unique = true
        switch Int.random(in: 0..<12, using: &random) {
        case 0..<4:
          word = common.randomElement(using: &random)!
          unique = false
        case 4:
          word = String((0..<2).map { _ in cjk.randomElement(using: &random)! }) + "\(counter)q"
        case 5:
          word = "n\(counter)q🙂"
        default:
          word = stems.randomElement(using: &random)! + "\(counter)q"
        }
        let separator =
          position == count - 1
          ? trailing.randomElement(using: &random)! : separators.randomElement(using: &random)!
        slots.append(Slot(word: word, separator: separator, unique: unique))
      }
      lines.append(slots)
    }
    let slots = lines.flatMap { $0 }
    let lineEnds = lines.reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1.count) }

    func edits(_ side: String, avoiding other: [Edit]) -> [Edit] {
      var made: [Edit] = []
      for _ in 0..<Int.random(in: 1...2, using: &random) {
        for _ in 0..<20 {
          let index = Int.random(in: 0..<slots.count, using: &random)
          let edit: Edit
          switch Int.random(in: 0..<3, using: &random) {
          case 0: edit = .replace(index, fresh(side))
          case 1: edit = .delete(index)
          default: edit = .insert(after: index, fresh(side))
          }
          // One side's own edits never touch each other; with `apart`, nor the other's.
          let near = { (edits: [Edit], gap: Int) in
            edits.contains {
              edit.touched.lowerBound - gap <= $0.touched.upperBound
                && $0.touched.lowerBound - gap <= edit.touched.upperBound
            }
          }
          if near(made, 1) || (apart && near(other, 1)) { continue }
          // Both deleting one word, or equal words (one of "to to" each), can be the same
          // change on both sides, which the merge takes once; the audit counts words.
          if case .delete(let word) = edit,
            other.contains(where: {
              if case .delete(let theirs) = $0 {
                slots[theirs].word == slots[word].word
              } else {
                false
              }
            })
          {
            continue
          }
          made.append(edit)
          break
        }
      }
      return made
    }
    let oursEdits = edits("o", avoiding: [])
    let theirsEdits = edits("t", avoiding: oursEdits)
    let isApart = oursEdits.allSatisfy { mine in
      theirsEdits.allSatisfy { theirs in
        mine.touched.upperBound + 1 < theirs.touched.lowerBound
          || theirs.touched.upperBound + 1 < mine.touched.lowerBound
      }
    }

    /// The paragraph with `edits` applied.
    func render(_ edits: [Edit]) -> String {
      var words = slots.map { Optional($0.word) }
      var separators = slots.map(\.separator)
      var after = [String](repeating: "", count: slots.count)
      for edit in edits {
        switch edit {
        case .replace(let index, let word): words[index] = word
        case .delete(let index):
          words[index] = nil
          // The word goes with the separator after it, or, last in its line, before it.
          if lineEnds.contains(index + 1) {
            if index > 0, !lineEnds.contains(index) { separators[index - 1] = "" }
          } else {
            separators[index] = ""
          }
        case .insert(after: let index, let word): after[index] = " " + word
        }
      }
      var text = ""
      for index in slots.indices {
        text += (words[index] ?? "") + after[index] + separators[index]
        if lineEnds.contains(index + 1), index + 1 < slots.count { text += "\n" }
      }
      return text
    }
    let all = oursEdits + theirsEdits
    var inserted: [String] = []
    var removedIndices = Set<Int>()
    for edit in all {
      switch edit {
      case .replace(let index, let word):
        inserted.append(word)
        removedIndices.insert(index)
      case .insert(after: _, let word): inserted.append(word)
      case .delete(let index): removedIndices.insert(index)
      }
    }
    return Case(
      ancestor: render([]), ours: render(oursEdits), theirs: render(theirsEdits),
      expected: isApart ? render(all) : nil, inserted: inserted,
      removed: removedIndices.filter { slots[$0].unique }.map { slots[$0].word },
      kept: slots.indices.filter { slots[$0].unique && !removedIndices.contains($0) }.map {
        slots[$0].word
      })
  }

  /// What a merged text did to the case's identifiable words: each inserted word and each
  /// kept word must be in it exactly once, and no removed word at all.
  public struct Audit: Equatable, Sendable {
    /// Inserted or kept words that are missing.
    public var lost = 0
    /// Inserted or kept words that are there more than once (counted once per extra copy).
    public var duplicated = 0
    /// Removed words that are still there.
    public var resurrected = 0

    /// Counts of zero.
    public init() {}

    /// Whether nothing was lost, duplicated or resurrected.
    public var isClean: Bool { self == Audit() }
  }

  /// Audits `merged`, the merge of `testCase`'s sides.
  ///
  /// - Parameters:
  ///   - testCase: The case merged.
  ///   - merged: The merged text.
  /// - Returns: The counts.
  public static func audit(_ testCase: Case, merged: String) -> Audit {
    let text = Array(merged.utf8)
    func occurrences(_ word: String) -> Int {
      let needle = Array(word.utf8)
      guard !needle.isEmpty, needle.count <= text.count else { return 0 }
      var count = 0
      for start in 0...(text.count - needle.count)
      where text[start] == needle[0] && text[start..<(start + needle.count)].elementsEqual(needle) {
        count += 1
      }
      return count
    }
    var audit = Audit()
    for word in testCase.inserted + testCase.kept {
      let count = occurrences(word)
      if count == 0 { audit.lost += 1 }
      audit.duplicated += max(0, count - 1)
    }
    for word in testCase.removed where occurrences(word) > 0 { audit.resurrected += 1 }
    return audit
  }
}
