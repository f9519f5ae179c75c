extension FaultProxy {
  /// Cuts a client's byte stream into the protocol's messages.
  ///
  /// The client's side of the PostgreSQL protocol cut into whole messages, so the proxy can place a
  /// fault before or after a chosen one.
  ///
  /// ## Guarantees
  ///
  /// - Bytes come out exactly as they went in, whole messages only: a message split over
  ///   several reads is held until its last byte arrives (a client writes each message in
  ///   one go, so this adds no wait in practice).
  /// - The start of a connection is read as the protocol has it: untyped packets (length
  ///   first) while the client asks for TLS or GSS encryption or starts up, typed messages
  ///   (a type byte, then the length) afterwards. Anything it cannot read as either (an
  ///   encrypted stream, a length that makes no sense) is passed on as it comes, unread.
  struct FrontendMessages {
    private var pending: [UInt8] = []
    private var isStartingUp = true
    private var isOpaque = false

    /// The request codes of untyped packets after which the client still starts up.
    private static let encryptionRequests: Set<UInt32> = [80_877_103, 80_877_104]
    /// The longest message read as one; longer means the stream is not what it seems.
    private static let longestMessage = 1 << 30

    /// Adds `bytes` and returns the messages they complete, in order (or the bytes
    /// themselves, as one piece, once the stream cannot be read).
    mutating func add(_ bytes: [UInt8]) -> [[UInt8]] {
      if isOpaque { return [bytes] }
      pending += bytes
      var messages: [[UInt8]] = []
      while let length = nextLength() {
        guard length >= 4, length <= Self.longestMessage else {
          isOpaque = true
          messages.append(pending)
          pending = []
          return messages
        }
        let total = isStartingUp ? length : 1 + length
        guard pending.count >= total else { break }
        let message = Array(pending[..<total])
        pending.removeFirst(total)
        if isStartingUp {
          let code = Self.integer(message, at: 4)
          if !Self.encryptionRequests.contains(code) { isStartingUp = false }
        }
        messages.append(message)
      }
      return messages
    }

    /// The length field of the next message, once its header has arrived.
    private func nextLength() -> Int? {
      // A startup packet's length is followed by its code, which says what comes next.
      guard pending.count >= (isStartingUp ? 8 : 5) else { return nil }
      return Int(Self.integer(pending, at: isStartingUp ? 0 : 1))
    }

    /// The big-endian 32-bit integer at `offset`.
    private static func integer(_ bytes: [UInt8], at offset: Int) -> UInt32 {
      guard bytes.count >= offset + 4 else { return 0 }
      return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
  }
}
