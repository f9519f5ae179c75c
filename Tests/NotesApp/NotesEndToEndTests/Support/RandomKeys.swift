import AirframeTesting
import Foundation

/// The seeded generator the randomized tests share (SplitMix64).
typealias SeededGenerator = SeededRandomNumberGenerator

/// Random key bytes.
///
/// They are seeded, for the terminal tests; `promptText(after:startingWith:)` models what a prompt
/// does with them.
///
/// ## Guarantees
///
/// - Deterministic: the same seed gives the same bytes on every machine (SplitMix64, not
///   the system generator), so a failure is reproduced by its seed.
/// - Each alphabet says which bytes it may produce; none produces a byte it excludes, also
///   not inside a multi-byte character or an escape sequence.
/// - `promptText(after:startingWith:)` follows the prompt's documented keys: a printable
///   character is appended, Backspace (^H, DEL) removes the last character, Ctrl-U clears
///   the field, every other control byte is ignored.
enum RandomKeys {
  /// The seeds every random test runs with; `NOTES_RANDOM_KEYS_SEED` in the environment
  /// adds one (to reproduce a failure, or to try a new one).
  static var seeds: [UInt64] {
    let variable = ProcessInfo.processInfo.environment["NOTES_RANDOM_KEYS_SEED"]
    let extra = variable.flatMap { text in
      text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }
    return [0x5EED_0001, 0xC0FF_EE42] + (extra.map { [$0] } ?? [])
  }

  /// Characters beyond ASCII that keys may type.
  ///
  /// Accented, wide (two columns) and a currency sign. None is a character the screen uses for its
  /// own structure (│ — · “ ”).
  static let unicodeCharacters: [String] = ["é", "ß", "ñ", "Ω", "€", "漢", "字"]

  /// Key sequences a terminal sends for named keys: arrows, Home, End, Page Up/Down,
  /// Delete, Shift-Tab and function keys, in both of the forms terminals use.
  static let keySequences: [[UInt8]] = [
    "\u{1B}OA", "\u{1B}OB", "\u{1B}OC", "\u{1B}OD", "\u{1B}[A", "\u{1B}[B", "\u{1B}[C",
    "\u{1B}[D", "\u{1B}[1~", "\u{1B}[4~", "\u{1B}[5~", "\u{1B}[6~", "\u{1B}[3~", "\u{1B}[Z",
    "\u{1B}OP", "\u{1B}OQ", "\u{1B}[15~", "\u{1B}[24~",
  ].map { Array($0.utf8) }

  /// A burst of random keys: printable ASCII, control bytes (Escape, Enter, Tab and the
  /// rest), named-key sequences, characters beyond ASCII, and now and then a byte that is
  /// not UTF-8 at all.
  ///
  /// - Parameters:
  ///   - random: The generator.
  ///   - keys: How many keys.
  ///   - excluded: Bytes never to send (such as the ones that quit).
  /// - Returns: The bytes.
  static func anyKeys(
    _ random: inout SeededGenerator, keys: Int, excluding excluded: Set<UInt8>
  ) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<keys {
      let kind = Int.random(in: 0..<100, using: &random)
      let candidate: [UInt8]
      switch kind {
      case 0..<45: candidate = [UInt8.random(in: 0x20...0x7E, using: &random)]
      case 45..<65:
        let control = UInt8.random(in: 0...32, using: &random)
        candidate = [control == 32 ? 0x7F : control]
      case 65..<85: candidate = keySequences.randomElement(using: &random)!
      case 85..<95: candidate = Array(unicodeCharacters.randomElement(using: &random)!.utf8)
      default: candidate = [UInt8.random(in: 0x80...0xFF, using: &random)]
      }
      if candidate.allSatisfy({ !excluded.contains($0) }) { bytes += candidate }
    }
    return bytes
  }

  /// A burst of keys a text field must treat as text or ignore: printable ASCII,
  /// characters beyond ASCII, Backspace, Ctrl-U and other control bytes, but never
  /// Escape, Enter (CR, LF) or a byte that is not UTF-8.
  ///
  /// - Parameters:
  ///   - random: The generator.
  ///   - keys: How many keys.
  ///   - excluded: Further bytes never to send (such as y and n in a confirmation).
  /// - Returns: The bytes.
  static func textKeys(
    _ random: inout SeededGenerator, keys: Int, excluding excluded: Set<UInt8> = []
  ) -> [UInt8] {
    let never = excluded.union([0x1B, 0x0A, 0x0D])
    var bytes: [UInt8] = []
    while bytes.count < keys {
      let kind = Int.random(in: 0..<100, using: &random)
      let candidate: [UInt8]
      switch kind {
      case 0..<65: candidate = [UInt8.random(in: 0x20...0x7E, using: &random)]
      case 65..<75: candidate = [[0x08, 0x7F].randomElement(using: &random)!]
      case 75..<78: candidate = [0x15]
      case 78..<90:
        let control = UInt8.random(in: 0...31, using: &random)
        candidate = [control]
      default: candidate = Array(unicodeCharacters.randomElement(using: &random)!.utf8)
      }
      if candidate.allSatisfy({ !never.contains($0) }) { bytes += candidate }
    }
    return bytes
  }

  /// What a prompt's field holds after `bytes`, typed into it holding `text`.
  ///
  /// - Parameters:
  ///   - bytes: Bytes from `textKeys` (valid UTF-8, no Escape, no Enter).
  ///   - text: The field's text before.
  /// - Returns: The field's text after.
  static func promptText(after bytes: [UInt8], startingWith text: String) -> String {
    var text = text
    for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
      switch scalar.value {
      case 0x08, 0x7F: if !text.isEmpty { text.removeLast() }
      case 0x15: text = ""
      case 0..<0x20: break
      default: text.append(Character(scalar))
      }
    }
    return text
  }

  /// The bytes as hex, for failure messages.
  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
  }
}
