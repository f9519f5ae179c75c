import AirframeTesting
import NotesTerminalUI
import Testing

@Suite(.noLiveBindings)
struct UTF8DecoderTests {
  func decode(_ bytes: [UInt8]) -> String {
    var decoder = UTF8Decoder()
    var text = ""
    for byte in bytes {
      if let scalar = decoder.feed(byte) { text.unicodeScalars.append(scalar) }
    }
    return text
  }

  @Test(arguments: ["plain", "é", "漢字", "🎉", "a\u{10FFFF}b", "\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}"])
  func validUTF8DecodesToItsScalars(_ text: String) {
    #expect(decode(Array(text.utf8)) == text)
  }

  @Test func everyScalarRoundTrips() {
    var decoder = UTF8Decoder()
    for value in stride(from: UInt32(0), through: 0x10FFFF, by: 97) {
      guard let scalar = Unicode.Scalar(value) else { continue }
      var decoded: [Unicode.Scalar] = []
      for byte in String(Character(scalar)).utf8 {
        if let out = decoder.feed(byte) { decoded.append(out) }
      }
      #expect(decoded == [scalar], "U+\(String(value, radix: 16))")
    }
  }

  @Test func invalidBytesAreDroppedAndTheNextKeyIsKept() {
    #expect(decode([0x61, 0xFF, 0x62]) == "ab")
    #expect(decode([0x61, 0x80, 0x62]) == "ab")  // a stray continuation byte
    #expect(decode([0xE6, 0xBC, 0x61]) == "a")  // a character cut short
    #expect(decode([0xC0, 0xAF, 0x61]) == "a")  // an overlong "/"
    #expect(decode([0xED, 0xA0, 0x80, 0x61]) == "a")  // a surrogate
    #expect(decode([0xF4, 0x90, 0x80, 0x80, 0x61]) == "a")  // past U+10FFFF
    #expect(decode([0xE6, 0xBC, 0xE5, 0xAD, 0x97]) == "字")  // a new lead byte resyncs
  }

  @Test func aCharacterSplitAcrossReadsStillDecodes() {
    var decoder = UTF8Decoder()
    #expect(decoder.feed(0xE6) == nil)
    #expect(decoder.isPending)
    #expect(decoder.feed(0xBC) == nil)
    #expect(decoder.feed(0xA2) == "漢")
    #expect(!decoder.isPending)
  }
}
