import AirframeTesting
import NotesTerminalUI
import Testing

/// The terminal's bytes become keys; a bracketed paste becomes text, never keys.
@Suite(.noLiveBindings)
struct InputDecoderTests {
  /// The keys of each read, one read per element.
  func decode(_ reads: [String]) -> [[Key]] {
    var decoder = InputDecoder()
    return reads.map { read in
      decoder.feed(bytes: Array(read.utf8))
      return decoder.finishRead()
    }
  }

  @Test func typedTextAndControlBytesAreKeys() {
    #expect(
      decode(["ab\r\u{1B}\u{7F}\u{12}"]) == [
        [.character("a"), .character("b"), .enter, .escape, .backspace, .control("r")]
      ])
  }

  @Test func aBracketedPasteIsOneTextKeyWithLineBreaksAsNewlines() {
    #expect(
      decode(["x\u{1B}[200~Line1\rLine2\r\nLine3\n\u{1B}[201~y"]) == [
        [.character("x"), .paste("Line1\nLine2\nLine3\n"), .character("y")]
      ])
  }

  @Test func controlCharactersInsideAPasteAreDroppedSoTheyCannotActAsKeys() {
    // An escape sequence inside pasted text: its ESC is dropped, the rest is text.
    #expect(
      decode(["\u{1B}[200~Trip\u{1B}[2JNotes\u{3}\ttab\u{1B}[201~"]) == [
        [.paste("Trip[2JNotes\ttab")]
      ])
    // A key the terminal decoded inside a paste is dropped too.
    var decoder = InputDecoder()
    decoder.feed(bytes: Array("\u{1B}[200~a".utf8))
    decoder.feed(key: .up)
    decoder.feed(bytes: Array("b\u{1B}[201~".utf8))
    #expect(decoder.finishRead() == [.paste("ab")])
  }

  @Test func aPasteSpanningReadsStaysTextEvenWhenItsEndMarkerIsSplit() {
    // The terminal sends the start marker with the text; the text and the end marker may
    // come in many reads.
    #expect(
      decode(["\u{1B}[200~one\r", "\ntwo\u{1B}[2", "01~q"]) == [
        [.paste("one\n")], [.paste("two")], [.character("q")],
      ])
    var decoder = InputDecoder()
    decoder.feed(bytes: Array("\u{1B}[200~abc".utf8))
    _ = decoder.finishRead()
    #expect(decoder.isPasting)
  }

  @Test func anEscapeThatStartsNoMarkerIsEscapeThenItsKeys() {
    #expect(
      decode(["\u{1B}[2x", "\u{1B}", "\u{1B}\u{1B}[200~z\u{1B}[201~"]) == [
        [.escape, .character("["), .character("2"), .character("x")], [.escape],
        [.escape, .paste("z")],
      ])
  }

  @Test func anInvalidByteIsDroppedOnItsOwnInsideAndOutsideAPaste() {
    var decoder = InputDecoder()
    decoder.feed(bytes: [0x61, 0xFF, 0x62] + Array("\u{1B}[200~".utf8) + [0xC3, 0x41])
    decoder.feed(bytes: Array("é\u{1B}[201~".utf8))
    #expect(decoder.finishRead() == [.character("a"), .character("b"), .paste("Aé")])
  }
}
