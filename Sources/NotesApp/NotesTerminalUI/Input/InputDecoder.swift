/// Decodes terminal input into keys, recognizing bracketed paste.
///
/// ## Guarantees
///
/// - Platform-neutral: the terminal layer feeds it bytes (and the keys it already decoded,
///   such as arrows), one read at a time; tests feed it the same.
/// - Text bytes are decoded as UTF-8 (`UTF8Decoder`): a byte that is not UTF-8 is dropped
///   on its own. Control bytes become `Key.control(byte:)` keys.
/// - Bracketed paste: everything between `ESC [ 2 0 0 ~` and `ESC [ 2 0 1 ~` comes out as
///   `Key.paste` text, never as keys, even when the paste spans many reads. In pasted text a
///   carriage return or CR LF becomes a newline, tabs and newlines are kept, and every other
///   control character (an escape, a key the terminal decoded inside the paste) is dropped,
///   so pasted text can never act as a command or reach the terminal as an escape sequence.
/// - A read's keys come out together, in order, so the app can handle them as one batch;
///   an escape that starts no paste marker comes out as Escape, then the keys after it.
public struct InputDecoder: Sendable {
  /// The sequence a terminal sends before pasted text.
  public static let pasteStart = Array("\u{1B}[200~".unicodeScalars)
  /// The sequence a terminal sends after pasted text.
  public static let pasteEnd = Array("\u{1B}[201~".unicodeScalars)

  private var utf8 = UTF8Decoder()
  /// Scalars that may begin a paste marker, held until they match or cannot.
  private var pendingMarker: [Unicode.Scalar] = []
  /// Whether the input is inside a bracketed paste.
  public private(set) var isPasting = false
  /// Pasted text not yet handed out.
  private var pasted = ""
  /// Whether the last pasted scalar was a carriage return (so a following LF is dropped).
  private var afterCarriageReturn = false
  /// The keys decoded from the current read.
  private var keys: [Key] = []

  /// Creates a decoder with nothing pending.
  public init() {}

  /// Takes the next byte the terminal sent.
  ///
  /// - Parameter byte: A byte of text or of an escape sequence.
  public mutating func feed(byte: UInt8) {
    guard let scalar = utf8.feed(byte) else { return }
    feed(scalar: scalar)
  }

  /// Takes the bytes of one read.
  ///
  /// - Parameter bytes: The bytes, in order.
  public mutating func feed(bytes: some Sequence<UInt8>) {
    for byte in bytes { feed(byte: byte) }
  }

  /// Takes a key the terminal layer already decoded (such as an arrow key).
  ///
  /// Inside a paste it is dropped: pasted text is never a command.
  ///
  /// - Parameter key: The key.
  public mutating func feed(key: Key) {
    if isPasting {
      let held = pendingMarker
      pendingMarker = []
      for scalar in held { take(scalar) }
      return
    }
    flushMarker()
    keys.append(key)
  }

  /// Ends the current read and returns its keys, in order.
  ///
  /// Pasted text read so far comes out as one `Key.paste`; the paste goes on in the next
  /// read if its end marker has not arrived. Outside a paste, an unfinished marker comes
  /// out as the keys it consists of.
  ///
  /// - Returns: The keys of this read.
  public mutating func finishRead() -> [Key] {
    if isPasting {
      emitPaste()
    } else {
      flushMarker()
    }
    defer { keys = [] }
    return keys
  }

  private mutating func feed(scalar: Unicode.Scalar) {
    let marker = isPasting ? Self.pasteEnd : Self.pasteStart
    if !pendingMarker.isEmpty || scalar == marker[0] {
      pendingMarker.append(scalar)
      if pendingMarker == marker {
        pendingMarker = []
        if isPasting {
          emitPaste()
          isPasting = false
        } else {
          isPasting = true
          afterCarriageReturn = false
        }
        return
      }
      if marker.starts(with: pendingMarker) { return }
      // Not a marker after all: what was held is ordinary input, and so is `scalar`
      // unless it starts a marker itself.
      let held = pendingMarker.dropLast()
      pendingMarker = []
      for held in held { take(held) }
      if scalar == marker[0] {
        pendingMarker = [scalar]
      } else {
        take(scalar)
      }
      return
    }
    take(scalar)
  }

  /// Passes a scalar that is not part of a marker on, as pasted text or as a key.
  private mutating func take(_ scalar: Unicode.Scalar) {
    guard isPasting else {
      if let key = Key.typed(scalar) { keys.append(key) }
      return
    }
    let wasCarriageReturn = afterCarriageReturn
    afterCarriageReturn = scalar == "\r"
    switch scalar {
    case "\r": pasted.append("\n")
    case "\n": if !wasCarriageReturn { pasted.append("\n") }
    case "\t": pasted.append("\t")
    default:
      if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) { return }
      pasted.unicodeScalars.append(scalar)
    }
  }

  /// Outside a paste, hands out held marker scalars as the keys they are.
  private mutating func flushMarker() {
    guard !isPasting, !pendingMarker.isEmpty else { return }
    let held = pendingMarker
    pendingMarker = []
    for scalar in held { take(scalar) }
  }

  private mutating func emitPaste() {
    guard !pasted.isEmpty else { return }
    keys.append(.paste(pasted))
    pasted = ""
  }
}
