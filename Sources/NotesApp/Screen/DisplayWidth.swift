// DisplayWidth: how many terminal columns a character takes.
//
// Guarantees
// - Pure and locale-independent, so render tests give the same lines on every machine.
// - A character (grapheme cluster) takes the width of its first scalar: 2 for East Asian
//   wide and fullwidth characters and for emoji shown as pictures, 0 for a lone combining
//   mark or a control character, 1 otherwise. A character with an emoji presentation
//   selector (U+FE0F) takes 2.

extension Character {
  /// The number of terminal columns the character takes: 0, 1 or 2.
  public var displayWidth: Int {
    if let ascii = asciiValue { return ascii < 0x20 || ascii == 0x7F ? 0 : 1 }
    let scalars = unicodeScalars
    guard let first = scalars.first else { return 0 }
    if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
    if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    return first.displayWidth
  }
}

extension Unicode.Scalar {
  /// The number of terminal columns the scalar takes on its own: 0, 1 or 2.
  var displayWidth: Int {
    let value = value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if Self.wideRanges.contains(where: { $0.contains(value) }) { return 2 }
    if properties.isEmojiPresentation { return 2 }
    return 1
  }

  /// East Asian wide and fullwidth blocks.
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]
}

extension StringProtocol {
  /// The number of terminal columns the text takes.
  public var displayWidth: Int {
    var total = 0
    for character in self { total += character.displayWidth }
    return total
  }
}
