/// A version the server sent that breaks the app's rules: kept aside, never applied.
public struct RefusedVersion: Equatable, Sendable {
  /// Notebook or note.
  public var kind: SyncEntityKind
  /// The entity's id as the server sent it (shortened to ``uidLimit`` characters and with
  /// control characters replaced, so it can be printed).
  public var uid: String
  /// The server's sequence number of the version.
  public var seq: Int64
  /// The id of the change that wrote it.
  public var changeID: String
  /// Why it was refused, one sentence each.
  public var reasons: [String]

  /// The longest uid a refused version keeps.
  public static let uidLimit = 80

  /// Creates a refused version.
  ///
  /// - Parameters:
  ///   - kind: Notebook or note.
  ///   - uid: The entity's id as sent; shortened and made printable here.
  ///   - seq: Its sequence number.
  ///   - changeID: The change that wrote it.
  ///   - reasons: Why it is refused.
  public init(
    kind: SyncEntityKind, uid: String, seq: Int64, changeID: String, reasons: [String]
  ) {
    self.kind = kind
    self.uid = Self.printable(uid)
    self.seq = seq
    self.changeID = Self.printable(changeID)
    self.reasons = reasons
  }

  /// `text` shortened to ``uidLimit`` characters, each control character as U+FFFD.
  static func printable(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.prefix(uidLimit).unicodeScalars {
      let isControl = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
      scalars.append(isControl ? "\u{FFFD}" : scalar)
    }
    return String(scalars)
  }

  /// One line for the user, such as "note 0190… (version 7): The note title must not be
  /// empty.".
  public var summary: String {
    "\(kind.rawValue) \(uid) (version \(seq)): " + reasons.joined(separator: " ")
  }
}

/// One version as a device receives it: accepted, or refused with its reasons.
///
/// What a device makes of one version the server sent — a record to apply, or a version kept aside
/// with the reasons it breaks the app's rules.
///
/// ## Guarantees
///
/// - A version is accepted only if every check passed: its shape (what the server's row
///   holds), its ids, and the same rules the actions apply to what a user types
///   (`SyncRules`). Anything else is refused with every reason found, each a sentence.
/// - A refused version carries what identifies it (kind, uid, sequence number, change id)
///   so it can be reported and kept aside; never its content.
public enum PulledVersion: Equatable, Sendable {
  /// A version that passed every check.
  case accepted(PulledRecord)
  /// A version that did not, and why.
  case refused(RefusedVersion)

  /// The server's sequence number of the version.
  public var seq: Int64 {
    switch self {
    case .accepted(let record): record.seq
    case .refused(let refused): refused.seq
    }
  }

  /// The version's entity kind.
  public var kind: SyncEntityKind {
    switch self {
    case .accepted(let record): record.record.kind
    case .refused(let refused): refused.kind
    }
  }

  /// The version's entity, as the server names it.
  public var uid: String {
    switch self {
    case .accepted(let record): record.record.uid
    case .refused(let refused): refused.uid
    }
  }

  /// Checks a version whose shape was read: refused if `shapeProblems` is not empty or
  /// the record breaks `SyncRules`, accepted otherwise.
  ///
  /// - Parameters:
  ///   - record: The version as read (`uid` as the server sent it).
  ///   - seq: Its sequence number.
  ///   - changeID: The change that wrote it.
  ///   - shapeProblems: What reading it found wrong (a field missing or of the wrong type),
  ///     one sentence each; `record.fields` is not checked further when there are any.
  /// - Returns: The verdict.
  public static func checking(
    _ record: SyncRecord, seq: Int64, changeID: String, shapeProblems: [String] = []
  ) -> PulledVersion {
    var reasons = SyncRules.uidIssues(record.uid, kind: record.kind)
    if shapeProblems.isEmpty {
      reasons += SyncRules.issues(in: record)
    } else {
      reasons += shapeProblems
    }
    guard reasons.isEmpty else {
      return .refused(
        RefusedVersion(
          kind: record.kind, uid: record.uid, seq: seq, changeID: changeID, reasons: reasons))
    }
    return .accepted(PulledRecord(seq: seq, changeID: changeID, record: record))
  }
}
