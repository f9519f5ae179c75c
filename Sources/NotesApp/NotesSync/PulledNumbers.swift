// PulledNumbers: what a device checks of the sequence numbers one pull brings, and what it
// tells the user when they are impossible.

internal import NotesCore
internal import NotesServer

/// The sequence numbers of one pull, checked against what the server's log allows.
///
/// ## Guarantees
/// - A pull's versions of one kind come in increasing order, each numbered after the
///   pull's start and no later than its head (schema 8 makes any other impossible: the
///   numbers come from the log and are unique per kind). A version that breaks this is
///   still applied, held to the app's rules like any other, and counted here: a device
///   never skips a version because of its number.
/// - Versions the server holds past its log's head (`SyncServer.LogHead`) are counted
///   too; they are not pulled, and are replaced on the server by their entities' next
///   change.
/// - ``notices`` says each kind of finding once, in words, with what to do: the engine
///   keeps them among the library's notices, where `notes sync` and `notes sync status`
///   show them.
struct PulledNumbers {
  /// The cursor the pull started after.
  let start: Int64
  /// The pull's head.
  let head: Int64
  /// Versions numbered past the head, as the server counted them.
  let pastHead: Int
  /// Versions whose number was not after the one before (one number twice, or out of
  /// order).
  private(set) var repeated = 0
  /// Versions numbered at or before the start, or past the head.
  private(set) var outOfRange = 0
  /// The last note number seen, across pages.
  private var lastNote: Int64

  /// A check of a pull from `start` to `head`, past which the server holds `pastHead`.
  init(start: Int64, head: SyncServer.LogHead) {
    self.start = start
    self.head = head.seq
    self.pastHead = head.versionsPastHead
    lastNote = start
  }

  /// Checks one page: its notes continue the pull's; its notebooks are checked on the
  /// first page only (every page carries the same ones).
  mutating func check(_ page: PulledPage, isFirst: Bool) {
    if isFirst {
      var last = start
      for version in page.notebooks { check(version.seq, after: &last) }
    }
    var last = lastNote
    for version in page.notes { check(version.seq, after: &last) }
    lastNote = last
  }

  private mutating func check(_ seq: Int64, after last: inout Int64) {
    if seq <= start || seq > head {
      outOfRange += 1
    } else if seq <= last {
      repeated += 1
    }
    last = max(last, seq)
  }

  /// What to tell the user: one line per kind of finding, none when the numbers were right.
  ///
  /// A line names no number that changes from one sync to the next, so the library keeps
  /// one notice for a condition every sync finds.
  var notices: [String] {
    var notices: [String] = []
    if pastHead > 0 {
      notices.append(
        "the server holds \(Self.versions(pastHead)) numbered past the last change of its log:"
          + " they were not pulled, and are replaced when their notes change again;"
          + " ask the server's operator to check the server")
    }
    if repeated > 0 {
      notices.append(
        "the server sent \(Self.versions(repeated)) under a number it had used already in the"
          + " same sync: they were applied, but the server's numbers are not unique; ask the"
          + " server's operator to check the server")
    }
    if outOfRange > 0 {
      notices.append(
        "the server sent \(Self.versions(outOfRange)) numbered outside the changes this"
          + " device asked for: they were applied; ask the server's operator to check the"
          + " server")
    }
    return notices
  }

  private static func versions(_ count: Int) -> String {
    count == 1 ? "1 version" : "\(count) versions"
  }
}
