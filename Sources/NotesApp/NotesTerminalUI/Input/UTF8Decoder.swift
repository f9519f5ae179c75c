/// A UTF-8 decoder that takes one byte at a time and drops invalid bytes.
///
/// It turns the bytes a terminal sends into characters.
///
/// ## Guarantees
///
/// - Valid UTF-8 comes out as the scalars it encodes, in order, even when a character's
///   bytes arrive in separate reads.
/// - A byte that cannot be part of valid UTF-8 (a stray continuation byte, an overlong or
///   surrogate form, a value past U+10FFFF, a lead byte cut short) is dropped on its own:
///   the decoder resynchronizes at the next byte, so no valid key after it is lost.
public struct UTF8Decoder: Sendable {
  /// Continuation bytes still expected for the current character.
  private var remaining = 0
  /// The bits of the current character so far.
  private var value: UInt32 = 0
  /// The allowed range of the next continuation byte (narrower after E0, ED, F0 and F4).
  private var nextRange: ClosedRange<UInt8> = 0x80...0xBF

  /// Creates a decoder with nothing pending.
  public init() {}

  /// Whether a character has started but not finished.
  public var isPending: Bool { remaining > 0 }

  /// Takes one byte and returns the scalar it completes, if any.
  ///
  /// A byte that breaks a pending sequence drops that sequence and is then decoded on its
  /// own, so an ASCII key right after a broken character still comes out.
  ///
  /// - Parameter byte: The next byte from the terminal.
  /// - Returns: The scalar this byte completes, if any.
  public mutating func feed(_ byte: UInt8) -> Unicode.Scalar? {
    if remaining > 0 {
      if nextRange.contains(byte) {
        value = value << 6 | UInt32(byte & 0x3F)
        remaining -= 1
        nextRange = 0x80...0xBF
        return remaining == 0 ? Unicode.Scalar(value) : nil
      }
      // The sequence is broken: drop it and read this byte afresh.
      remaining = 0
    }
    switch byte {
    case 0x00...0x7F:
      return Unicode.Scalar(byte)
    case 0xC2...0xDF:
      start(value: UInt32(byte & 0x1F), remaining: 1, next: 0x80...0xBF)
    case 0xE0:
      start(value: 0, remaining: 2, next: 0xA0...0xBF)
    case 0xE1...0xEC, 0xEE...0xEF:
      start(value: UInt32(byte & 0x0F), remaining: 2, next: 0x80...0xBF)
    case 0xED:
      start(value: 0x0D, remaining: 2, next: 0x80...0x9F)
    case 0xF0:
      start(value: 0, remaining: 3, next: 0x90...0xBF)
    case 0xF1...0xF3:
      start(value: UInt32(byte & 0x07), remaining: 3, next: 0x80...0xBF)
    case 0xF4:
      start(value: 4, remaining: 3, next: 0x80...0x8F)
    default:
      break  // 0x80–0xC1 and 0xF5–0xFF never start a character
    }
    return nil
  }

  private mutating func start(value: UInt32, remaining: Int, next: ClosedRange<UInt8>) {
    self.value = value
    self.remaining = remaining
    nextRange = next
  }
}
