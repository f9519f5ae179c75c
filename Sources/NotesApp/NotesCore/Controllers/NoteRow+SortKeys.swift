import Foundation

/// The bit-packed integer keys the note list sorts by (see ``NoteSort``).
///
/// Each order compares integers first, so most pairs of rows are decided without reading a
/// date or a string; only a tie of every integer key goes on to a closure.
extension NoteRow {
  /// The top bit of an order's integer key: clear for pinned notes, so they sort first.
  var pinnedBit: UInt64 { isPinned ? 0 : 1 << 63 }

  /// The bits of the row's modification date, in the order newest first.
  var newestFirstBits: UInt64 {
    ~Self.orderedBits(modified.timeIntervalSinceReferenceDate)
  }

  /// The first sixteen bytes of `sortTitle`'s UTF-8 as two integers, most significant
  /// first, zero-padded.
  static func sortPrefix(of sortTitle: String) -> (high: UInt64, low: UInt64) {
    var prefix: (high: UInt64, low: UInt64) = (0, 0)
    for (index, byte) in sortTitle.utf8.prefix(16).enumerated() {
      let shift = UInt64(56 - 8 * (index % 8))
      if index < 8 {
        prefix.high |= UInt64(byte) << shift
      } else {
        prefix.low |= UInt64(byte) << shift
      }
    }
    return prefix
  }

  /// The bits of `value` as an unsigned integer in the order of the values: a smaller
  /// number gives a smaller integer.
  private static func orderedBits(_ value: Double) -> UInt64 {
    let bits = (value == 0 ? 0 : value).bitPattern  // -0 and 0 are one date
    return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
  }
}
