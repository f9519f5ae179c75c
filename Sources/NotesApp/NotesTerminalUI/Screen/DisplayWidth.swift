// DisplayWidth: how many terminal columns a character takes, and what a terminal is sent
// to draw it in exactly that many.

import Airframe

extension Character {
  /// The number of terminal columns the character takes: 1 or 2, or 0 for an isolation
  /// mark (0 also for the empty cluster, which a `String` never holds).
  ///
  /// ## Guarantees
  ///
  /// - Pure and locale-independent, so render tests give the same lines on every machine.
  /// - Widths follow grapheme clusters (Swift's `Character`): a cluster is drawn in one cell
  ///   of its base's width — 2 for East Asian wide and fullwidth characters and for emoji
  ///   shown as pictures, 1 otherwise — whatever follows the base: combining marks, a
  ///   variation selector, an emoji modifier (skin tone), a zero-width joiner sequence
  ///   (👩‍👩‍👧) or tag characters. A pair of regional indicators (a flag, 🇺🇸) takes 2.
  /// - A character that draws nothing on its own — a control or format character (such as
  ///   U+200B, U+202E or U+FEFF), a lone combining mark, a noncharacter (such as U+FFFF) or
  ///   a lone regional indicator — takes 1 column and is drawn as U+FFFD
  ///   (`terminalGlyph`), so it is visible and cannot reorder or hide the text around it.
  /// - The two marks that isolate user text inside the app's own (U+2068 and U+2069, see
  ///   `BidiIsolation`) take no column: the screen buffer keeps them beside the characters
  ///   they enclose and sends them only in pairs (`ScreenBuffer`), so column arithmetic is
  ///   the same with them as without.
  public var displayWidth: Int {
    if asciiValue != nil { return 1 }
    if isIsolationMark { return 0 }
    return Self.width(of: unicodeScalars)
  }

  /// Whether the character is U+2068 or U+2069, which isolate user text inside the app's
  /// own text (`BidiIsolation`); each is a character of its own.
  public var isIsolationMark: Bool {
    let scalars = unicodeScalars
    return scalars.count == 1 && BidiIsolation.isIsolationMark(scalars.first!)
  }

  /// What a terminal is sent to draw the character in `displayWidth` columns.
  ///
  /// ## Guarantees
  ///
  /// - Only what every terminal draws at that width: the base and its combining marks.
  ///   Variation selectors, emoji modifiers and everything from a zero-width joiner on are
  ///   left out, because terminals disagree about them (tmux 3.3 draws ❤️ in 1 column and 👍🏽
  ///   in 4), and a disagreement would shift the rest of the row. So a row never shifts; a
  ///   joined emoji shows as its first picture.
  public var terminalGlyph: String {
    if let ascii = asciiValue {
      return ascii < 0x20 || ascii == 0x7F ? "\u{FFFD}" : String(self)
    }
    let scalars = unicodeScalars
    guard let base = scalars.first, Self.drawsOnItsOwn(scalars) else { return "\u{FFFD}" }
    if base.isRegionalIndicator { return String(self) }
    var glyph = String.UnicodeScalarView()
    glyph.append(base)
    for scalar in scalars.dropFirst() where !scalar.properties.isVariationSelector {
      guard scalar.isCombiningMark else { break }
      glyph.append(scalar)
    }
    return String(glyph)
  }

  /// The width of a cluster from its scalars.
  private static func width(of scalars: String.UnicodeScalarView) -> Int {
    guard let base = scalars.first else { return 0 }
    guard drawsOnItsOwn(scalars) else { return 1 }
    if base.isRegionalIndicator { return 2 }
    return base.columns
  }

  /// Whether a cluster has a base that draws something (see `displayWidth`).
  private static func drawsOnItsOwn(_ scalars: String.UnicodeScalarView) -> Bool {
    guard let base = scalars.first else { return false }
    if base.value < 0x20 || (0x7F..<0xA0).contains(base.value) { return false }
    if base.properties.isNoncharacterCodePoint { return false }
    switch base.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .spacingMark, .format, .control, .surrogate,
      .lineSeparator, .paragraphSeparator:
      return false
    default: break
    }
    if base.isRegionalIndicator {
      // A flag is a pair; a lone indicator draws differently from terminal to terminal.
      return scalars.dropFirst().first?.isRegionalIndicator == true
    }
    return true
  }
}

extension Unicode.Scalar {
  /// The columns a base scalar takes: 2 for wide characters and emoji pictures, else 1.
  fileprivate var columns: Int {
    let value = value
    if value < 0x1100 { return 1 }
    if Self.wideRanges.contains(where: { $0.contains(value) }) { return 2 }
    if properties.isEmojiPresentation { return 2 }
    return 1
  }

  /// Whether the scalar is one of the 26 regional indicators that make up flags.
  fileprivate var isRegionalIndicator: Bool { (0x1F1E6...0x1F1FF).contains(value) }

  /// Whether the scalar is a combining mark drawn in its base's cell.
  fileprivate var isCombiningMark: Bool {
    let category = properties.generalCategory
    return category == .nonspacingMark || category == .enclosingMark
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
