import NotesCore
import Testing

/// `LineMerge.differences(from:to:)`: what a kept version shows beside the current text.
struct LineDifferencesTests {
  @Test func keptRemovedAndAddedLinesComeInOrder() {
    #expect(
      LineMerge.differences(from: "milk\neggs\nbread", to: "milk\nbutter\nbread\njam")
        == [.kept("milk"), .removed("eggs"), .added("butter"), .kept("bread"), .added("jam")])
  }

  @Test func equalTextsAreAllKeptAndEmptyTextsAreOneEmptyLine() {
    #expect(LineMerge.differences(from: "a\nb", to: "a\nb") == [.kept("a"), .kept("b")])
    #expect(LineMerge.differences(from: "", to: "") == [.kept("")])
    #expect(LineMerge.differences(from: "", to: "x") == [.removed(""), .added("x")])
  }

  @Test func linesAreComparedByTheirBytesAndAFinalNewlineIsALine() {
    // "é" precomposed and decomposed look alike but are different bytes: a change.
    #expect(
      LineMerge.differences(from: "caf\u{E9}", to: "cafe\u{301}")
        == [.removed("caf\u{E9}"), .added("cafe\u{301}")])
    #expect(LineMerge.differences(from: "a", to: "a\n") == [.kept("a"), .added("")])
  }
}
