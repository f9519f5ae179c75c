import AirframeTesting
import NotesTerminalUI
import Testing

@Suite(.noLiveBindings)
struct TextEditingTests {
  @Test func insertAndDeleteMoveTheCursor() {
    var cursor = TextCursor(text: "ac", offset: 1)
    cursor.insert("b")
    #expect(cursor.text == "abc" && cursor.offset == 2)
    cursor.deleteBackward()
    #expect(cursor.text == "ac" && cursor.offset == 1)
    cursor.deleteForward()
    #expect(cursor.text == "a" && cursor.offset == 1)
    cursor.deleteForward()
    #expect(cursor.text == "a")
    cursor.move(by: -5)
    cursor.deleteBackward()
    #expect(cursor.text == "a" && cursor.offset == 0)
  }

  @Test func aCombiningMarkJoinsThePreviousCharacter() {
    var cursor = TextCursor(text: "e", offset: 1)
    cursor.insert("\u{301}")
    #expect(cursor.text == "é")
    #expect(cursor.offset == 1)
  }

  @Test func aCursorOutsideTheTextOrInsideACharacterIsMovedOntoABoundary() {
    #expect(TextCursor(text: "abc", utf8Offset: 99).offset == 3)
    #expect(TextCursor(text: "a漢b", utf8Offset: 2).offset == 1)
    #expect(TextCursor(text: "a漢b", utf8Offset: 4).offset == 2)
    #expect(TextCursor(text: "abc", offset: -3).offset == 0)
  }

  @Test func lineStartAndEnd() {
    var cursor = TextCursor(text: "one\ntwo words\nthree", offset: 6)
    cursor.moveToLineStart()
    #expect(cursor.offset == 4)
    cursor.moveToLineEnd()
    #expect(cursor.offset == 13)
  }

  @Test func layoutWrapsAtTheWidthInColumns() {
    let layout = TextLayout(text: "abcdef\n漢字漢字", width: 4, cursorUTF8Offset: 13)
    #expect(layout.lines.map { String($0.text) } == ["abcd", "ef", "漢字", "漢字"])
    #expect(layout.cursorRow == 3 && layout.cursorColumn == 0)
    let end = TextLayout(text: "abcd", width: 4, cursorUTF8Offset: 4)
    #expect(end.lines.map { String($0.text) } == ["abcd", ""])
    #expect(end.cursorRow == 1 && end.cursorColumn == 0)
  }

  @Test func verticalMovementKeepsTheColumn() {
    var cursor = TextCursor(text: "hello\nhi\nworld", offset: 4)
    cursor.moveVertically(by: 1, width: 20)
    #expect(cursor.offset == 8)  // end of "hi"
    cursor.moveVertically(by: 1, width: 20)
    #expect(cursor.offset == 11)  // "wo|rld"
    cursor.moveVertically(by: -5, width: 20)
    #expect(cursor.offset == 2)
  }

  @Test func layoutOfMixedTextKeepsEveryCharacterOnceWithinTheWidth() {
    let pieces = ["a", "b", " ", "\n", "\r\n", "é", "e\u{301}", "漢", "🎉", "\t", "z"]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let text = (0..<Int.random(in: 0...60, using: &generator))
        .map { _ in pieces.randomElement(using: &generator)! }.joined()
      let width = Int.random(in: 2...9, using: &generator)
      let layout = TextLayout(text: text, width: width, cursorUTF8Offset: text.utf8.count)
      for line in layout.lines {
        #expect(line.text.displayWidth <= width, "\(text.debugDescription) at \(width)")
        #expect(
          text.utf8.distance(from: text.startIndex, to: line.text.startIndex)
            == line.startUTF8Offset)
      }
      // The lines are the text cut at the width and at line breaks, which they drop.
      let joined = layout.lines.map { String($0.text) }.joined()
      let withoutBreaks = String(text.filter { $0 != "\n" })
      #expect(
        Array(joined.unicodeScalars) == Array(withoutBreaks.unicodeScalars),
        "\(text.debugDescription) at \(width)")
    }
  }
}
