import Foundation
import NotesPresentation
import Testing

/// What a presentation shows of the differences between a kept version and the text now.
struct VersionComparisonTests {
  @Test func theSameTextHasNoLines() {
    let comparison = VersionComparison(from: "a\nb", to: "a\nb")
    #expect(comparison.isUnchanged)
    #expect(comparison.lines.isEmpty)
  }

  @Test func aChangeIsShownWithTheLinesBesideItAndFarRunsWithAGapBetween() {
    let version = ["1", "2", "3", "4", "5", "6", "7", "8"].joined(separator: "\n")
    let now = ["1", "two", "3", "4", "5", "6", "7", "8", "9"].joined(separator: "\n")
    let comparison = VersionComparison(from: version, to: now)
    #expect(
      comparison.lines == [
        .kept("1"), .removed("2"), .added("two"), .kept("3"), .gap, .kept("8"), .added("9"),
      ])
    #expect(
      comparison.lines.map(\.marked) == ["  1", "- 2", "+ two", "  3", "…", "  8", "+ 9"])
  }

  @Test func runsWhoseContextTouchesHaveNoGap() {
    let comparison = VersionComparison(from: "a\nb\nc\nd", to: "A\nb\nc\nD")
    #expect(
      comparison.lines == [
        .removed("a"), .added("A"), .kept("b"), .kept("c"), .removed("d"), .added("D"),
      ])
  }

  @Test func anEmptyVersionIsAllAdded() {
    #expect(
      VersionComparison(from: "", to: "x\ny").lines == [.removed(""), .added("x"), .added("y")])
  }

  @Test func aReplacedLineMarksTheWordsThatChangedOnBothSides() {
    let comparison = VersionComparison(
      from: "Title\nBuy milk and eggs today", to: "Title\nBuy oat milk and bread today")
    #expect(comparison.lines.count == 3)
    #expect(
      comparison.lines[1].changedWords.map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty } == ["eggs"])
    #expect(
      comparison.lines[2].changedWords.map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty } == ["oat", "bread"])
    #expect(comparison.lines[0].changedWords.isEmpty)
  }

  @Test func aRunOfUnequalLengthMarksWholeLines() {
    let comparison = VersionComparison(from: "a b\nc d", to: "a x")
    #expect(comparison.lines.allSatisfy { $0.changedWords.isEmpty })
    #expect(comparison.lines.map(\.marked) == ["- a b", "- c d", "+ a x"])
  }
}
