import Airframe

/// How the note list is sorted after pinned notes.
public enum NoteSort: String, Sendable, CaseIterable, Codable {
  /// Most recently modified first.
  case modified
  /// By title, ignoring case.
  case title

  /// The list's order for this sort: pinned notes first, then this sort, then the id.
  ///
  /// Formed here, outside the main actor, so its closures are nonisolated and calling them
  /// for every row makes no isolation check.
  var listOrder: ListOrder<NoteRow> {
    // Each order starts with an integer key (pinned notes first, then most of the second
    // key) so sorting compares integers; closures rather than key paths refine ties,
    // because a key path applied per comparison goes through the runtime.
    switch self {
    case .modified:
      // 1 + 63 bits: the pinned bit, then the date (newest first) but for its last bit;
      // then that bit and the id, so the integer keys decide every pair. Notes imported
      // together share their date: were the id compared through a closure, a call per
      // comparison would decide most pairs of such notes.
      .by(integerKey: { $0.pinnedBit | $0.newestFirstBits >> 1 })
        .then(integerKey: {
          $0.newestFirstBits << 63 | UInt64(bitPattern: $0.id.rawValue) & ~(1 << 63)
        })
    case .title:
      // 1 + 127 bits: the pinned bit, then the title's first 16 bytes but for the last bit.
      .by(integerKey: { $0.pinnedBit | $0.sortPrefix.high >> 1 })
        .then(integerKey: { $0.sortPrefix.high << 63 | $0.sortPrefix.low >> 1 })
        .then({ $0.sortTitle })
    }
  }
}
