import Airframe

/// The app's rules for a version pulled from the sync server.
///
/// The app's rules applied to a version another writer made, before it reaches the library or the
/// model.
///
/// ## Guarantees
///
/// - The same validators the actions run on what a user types (`NotesRules`): a title not
///   empty once trimmed, at most 200 characters, without control characters, bidirectional
///   controls, invisible characters or noncharacters, and stored trimmed (as every action
///   stores it); a body of at most 1,000,000 characters without control characters other
///   than tabs and line breaks.
/// - Ids are lower-case UUIDs, as every device makes them: the entity's, and a note's
///   notebook's.
/// - Dates are finite numbers of seconds since 2001 within ±10¹⁴ (about three million
///   years, beyond any date `notes import` reads), so nothing downstream meets a date it
///   cannot handle.
/// - Every issue is reported, each a sentence naming the field; none stops the others.
public enum SyncRules {
  /// The largest date, in seconds either side of 2001, a version may hold.
  public static let dateLimit = 1e14

  /// Every issue of `record`'s fields (none for a deletion).
  ///
  /// - Parameter record: A version another writer made.
  /// - Returns: The issues' messages, in the order of the fields.
  public static func issues(in record: SyncRecord) -> [String] {
    guard let fields = record.fields else { return [] }
    var issues: [ValidationIssue] = []
    switch record.kind {
    case .notebook:
      issues += titleIssues(fields.title, field: "notebook title")
    case .note:
      issues += titleIssues(fields.title, field: "note title")
      issues += NotesRules.bodyIssues(fields.body)
      if let notebook = fields.notebook {
        if !isUID(notebook) {
          issues.append(
            ValidationIssue(
              field: "notebook",
              message:
                "The note's notebook id “\(RefusedVersion.printable(notebook))” is not a UUID."))
        }
      } else {
        issues.append(ValidationIssue(field: "notebook", message: "The note has no notebook."))
      }
    }
    for (name, date) in [("created", fields.created), ("modified", fields.modified)] {
      if !date.isFinite || abs(date) > dateLimit {
        issues.append(
          ValidationIssue(
            field: name, message: "The “\(name)” date is not a date this app can hold."))
      }
    }
    return issues.map(\.message)
  }

  /// The issues of a pulled title: the actions' rules, and the stored form (trimmed).
  private static func titleIssues(_ title: String, field: String) -> [ValidationIssue] {
    var issues = NotesRules.titleIssues(title, field: field)
    if issues.isEmpty, NotesRules.normalizedTitle(title) != title {
      issues.append(
        ValidationIssue(
          field: field, message: "The \(field) must not begin or end with white space."))
    }
    return issues
  }

  /// The issues of an entity id.
  ///
  /// - Parameters:
  ///   - uid: The id, as sent.
  ///   - kind: The entity's kind, for the message.
  /// - Returns: One message if `uid` is not a lower-case UUID.
  public static func uidIssues(_ uid: String, kind: SyncEntityKind) -> [String] {
    isUID(uid) ? [] : ["The \(kind.rawValue) id “\(RefusedVersion.printable(uid))” is not a UUID."]
  }

  /// Whether `text` is a lower-case UUID (8-4-4-4-12 hexadecimal digits).
  ///
  /// - Parameter text: Text that should be an id.
  /// - Returns: Whether it is one.
  public static func isUID(_ text: String) -> Bool {
    let bytes = text.utf8
    guard bytes.count == 36 else { return false }
    for (index, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == UInt8(ascii: "-") else { return false }
      } else {
        let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        let isHex = (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        guard isDigit || isHex else { return false }
      }
    }
    return true
  }
}
