internal import Foundation

/// The signal a push sends on its account's channel when it accepted something.
///
/// What a push tells its account's other listeners, as the text `pg_notify` carries.
///
/// ## Guarantees
///
/// - The payload is "<head> <sender> <device>": the account's new head, the sender (one
///   program's sync of one library, a random id it keeps while it runs) and the pushing
///   device's id. Ids and numbers only, never content.
/// - The device id comes last, so a listener of schema 7's first releases, which ignored a
///   payload ending in its own device id, still ignores its own pushes.
/// - A payload of those releases ("<head> <device>") reads with no sender.
/// - Why a sender as well as the device: copies of one library file (and several programs
///   on one file) share its device id. Ignoring every signal of one's own device, a copy
///   never heard the other's pushes, and its notes changed only when it synced for another
///   reason. The sender tells one's own pushes from theirs.
public struct PushSignal: Equatable, Sendable {
  /// The account's head after the push: its highest sequence number.
  public var head: Int64
  /// The sync that pushed: a random id one program keeps for one library while it runs,
  /// without spaces; `nil` in a signal of a release before senders.
  public var sender: String?
  /// The pushing device's id (the library's, shared by its copies).
  public var device: String

  /// Creates a signal.
  ///
  /// - Parameters:
  ///   - head: The account's head after the push.
  ///   - sender: The sync that pushed.
  ///   - device: The pushing device's id.
  public init(head: Int64, sender: String?, device: String) {
    self.head = head
    self.sender = sender
    self.device = device
  }

  /// Reads a payload as `pg_notify` delivered it; `nil` when it is not a push's signal.
  ///
  /// - Parameter payload: "<head> <sender> <device>", or "<head> <device>".
  public init?(payload: String) {
    let parts = payload.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3, let head = Int64(parts[0]),
      parts.dropFirst().allSatisfy({ !$0.isEmpty })
    else { return nil }
    self.head = head
    self.sender = parts.count == 3 ? String(parts[1]) : nil
    self.device = String(parts[parts.count - 1])
  }

  /// The text `pg_notify` carries.
  public var payload: String { "\(head)" + afterHead }

  /// The payload after the head: " <sender> <device>", for a statement that puts the head
  /// in front on the server.
  var afterHead: String { [sender, device].compactMap { $0 }.map { " " + $0 }.joined() }

  /// Whether the sync `sender` of device `device` sent this signal.
  ///
  /// A signal without a sender (an older release's) counts as sent by every sync of its
  /// device, as that release's listeners judged.
  ///
  /// - Parameters:
  ///   - sender: A sync's sender id.
  ///   - device: That sync's device id.
  /// - Returns: Whether the signal is that sync's own.
  public func isSent(by sender: String, device: String) -> Bool {
    guard device == self.device else { return false }
    return self.sender.map { $0 == sender } ?? true
  }

  /// A new random sender id: a lower-case UUID.
  public static func newSender() -> String { UUID().uuidString.lowercased() }
}
