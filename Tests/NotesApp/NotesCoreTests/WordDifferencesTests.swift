import AirframeTesting
import NotesCore
import Testing

/// Two lines compared word by word: runs kept, removed and added that give both lines back.
struct WordDifferencesTests {
  @Test func aReplacedWordIsRemovedThenAddedBetweenKeptRuns() {
    #expect(
      LineMerge.wordDifferences(from: "Buy milk and eggs today", to: "Buy milk and bread today")
        == [.kept("Buy milk and "), .removed("eggs"), .added("bread"), .kept(" today")])
  }

  @Test func equalLinesAreOneKeptRunAndEmptyOnesNone() {
    #expect(LineMerge.wordDifferences(from: "same", to: "same") == [.kept("same")])
    #expect(LineMerge.wordDifferences(from: "", to: "") == [])
    #expect(LineMerge.wordDifferences(from: "", to: "new") == [.added("new")])
  }

  @Test func wordsAreCutAsTheMergeCutsThem() {
    // An ideograph and an emoji are words of their own; a changed one leaves its
    // neighbours kept.
    #expect(
      LineMerge.wordDifferences(from: "三体 👩‍👩‍👧 ok", to: "三休 👩‍👩‍👧 ok")
        == [.kept("三"), .removed("体"), .added("休"), .kept(" 👩‍👩‍👧 ok")])
  }

  @Test(arguments: [1, 2, 3])
  func theRunsGiveBothLinesBack(seed: UInt64) {
    var random = SeededRandomNumberGenerator(seed: seed)
    let words = ["a", "bb", "ccc", " ", "  ", ",", "é", "e\u{301}", "🙂", "字", "\t", "_x1"]
    func line() -> String {
      (0..<Int.random(in: 0..<12, using: &random)).map { _ in
        words.randomElement(using: &random)!
      }.joined()
    }
    for _ in 0..<200 {
      let (old, new) = (line(), line())
      let runs = LineMerge.wordDifferences(from: old, to: new)
      var oldBack = ""
      var newBack = ""
      for run in runs {
        switch run {
        case .kept(let text):
          oldBack += text
          newBack += text
        case .removed(let text): oldBack += text
        case .added(let text): newBack += text
        }
      }
      #expect(Array(oldBack.utf8) == Array(old.utf8), "\(old) → \(new): \(runs)")
      #expect(Array(newBack.utf8) == Array(new.utf8), "\(old) → \(new): \(runs)")
      // No run is empty, and no two neighbours are of one kind.
      for (first, second) in zip(runs, runs.dropFirst()) {
        switch (first, second) {
        case (.kept, .kept), (.removed, .removed), (.added, .added):
          Issue.record("two neighbouring runs of one kind: \(runs)")
        default: break
        }
      }
      #expect(
        !runs.contains(.kept("")) && !runs.contains(.removed("")) && !runs.contains(.added("")))
    }
  }
}
