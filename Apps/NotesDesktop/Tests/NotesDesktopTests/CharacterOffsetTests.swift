// The editor maps the session's UTF-8 offsets to GTK's character (Unicode scalar) offsets
// on every keystroke; the mapping needs no window.

import Testing

@testable import NotesDesktopWindow

@Suite
struct CharacterOffsetTests {
  @Test func utf8OffsetsBecomeScalarOffsets() {
    let text = "aé👩‍👩‍👧b\nz"
    // Every scalar boundary, the same way the slow road counts it.
    var expected: [Int] = []
    var offsets: [Int] = []
    var bytes = 0
    for (index, scalar) in text.unicodeScalars.enumerated() {
      offsets.append(bytes)
      expected.append(index)
      bytes += String(scalar).utf8.count
    }
    offsets.append(bytes)
    expected.append(text.unicodeScalars.count)
    #expect(DesktopWindow.characterOffsets(ofUTF8: offsets, in: text) == expected)
    // Past the end counts to the end; an offset repeated gives the same answer.
    #expect(
      DesktopWindow.characterOffsets(ofUTF8: [3, 3, 1_000], in: text)
        == [2, 2, text.unicodeScalars.count])
    #expect(DesktopWindow.characterOffsets(ofUTF8: [], in: text).isEmpty)
    let long = String(repeating: "ünïcödé line\n", count: 2_000)
    #expect(
      DesktopWindow.characterOffsets(ofUTF8: [long.utf8.count], in: long)
        == [long.unicodeScalars.count])
  }
}
