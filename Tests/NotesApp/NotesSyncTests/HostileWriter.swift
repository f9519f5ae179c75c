// HostileWriter: rows a buggy or hostile client writes straight into the server's tables,
// past the protocol, and what a library must hold after pulling them.

import Airframe
import Foundation
import NotesCore
import NotesServer
import NotesTestSupport

/// One kind of version that breaks the app's rules.
enum BadVersion: CaseIterable, Sendable, CustomStringConvertible {
  case emptyTitle
  case longTitle
  case bellAndRightToLeftOverride
  case hugeBody
  case textDate
  case notAnObject
  case notebookWithoutModified
  case missingNotebook
  case entityIDNotAUUID
  case notebookIDNotAUUID

  /// The entity kind it is written as.
  var kind: SyncEntityKind {
    switch self {
    case .notebookWithoutModified: .notebook
    default: .note
    }
  }

  /// Whether the server's own checks refuse it (the rest only a device can judge: lengths
  /// in characters as a person counts them, and references to other rows).
  var serverRefuses: Bool {
    switch self {
    case .longTitle, .hugeBody, .missingNotebook: false
    default: true
    }
  }

  /// What a device says of it (a part of its reason).
  var reason: String {
    switch self {
    case .emptyTitle: "The note title must not be empty."
    case .longTitle: "The note title must be at most 200 characters."
    case .bellAndRightToLeftOverride: "The note title must not contain control characters."
    case .hugeBody: "The note body must be at most 1000000 characters."
    case .textDate: "The note's “created” is a JSON string, not a number."
    case .notAnObject: "The version is not an object but a JSON array."
    case .notebookWithoutModified: "The notebook has no “modified”."
    case .missingNotebook: "which the server never had."
    case .entityIDNotAUUID: "The note id “note-12” is not a UUID."
    case .notebookIDNotAUUID: "The note's notebook id “12” is not a UUID."
    }
  }

  var description: String { "\(self.reason)" }

  /// The payload (JSON text) of such a version of an entity, in `notebook` for a note.
  func payload(notebook: String) -> String {
    var fields: [String: Any] = [
      "title": "Bad", "body": "", "pinned": false, "created": 800_000_000.0,
      "modified": 800_000_000.0,
    ]
    fields["notebook"] = kind == .note ? notebook : NSNull()
    switch self {
    case .emptyTitle: fields["title"] = ""
    case .longTitle: fields["title"] = String(repeating: "a", count: 500)
    case .bellAndRightToLeftOverride: fields["title"] = "Invoice\u{7}\u{202E}fdp.exe"
    case .hugeBody: fields["body"] = String(repeating: "x", count: 2_000_001)
    case .textDate: fields["created"] = "yesterday"
    case .notAnObject: return "[\"Bad\", 1]"
    case .notebookWithoutModified: fields["modified"] = nil
    case .missingNotebook: fields["notebook"] = UUID().uuidString.lowercased()
    case .entityIDNotAUUID: break
    case .notebookIDNotAUUID: fields["notebook"] = "12"
    }
    let data = try! JSONSerialization.data(withJSONObject: fields)
    return String(decoding: data, as: UTF8.self)
  }

  /// The entity id it is written under: `uid`, unless the id itself is what is wrong.
  func entityID(_ uid: String) -> String {
    self == .entityIDNotAUUID ? "note-12" : uid
  }
}

/// Writes versions straight into an account's rows as the superuser, as a client that
/// skips the protocol (or a server without its checks) would leave them.
struct HostileWriter: Sendable {
  let adminURL: String
  let account: String
  /// The hostile client's own device, registered to the account.
  let device = UUID().uuidString.lowercased()

  /// Drops the server's CHECK constraints on the versions: a server that does not check
  /// (an older one, or one whose operator removed them), so every bad kind can land.
  func dropServerChecks() throws {
    let connection = try PostgresConnection(url: adminURL)
    defer { connection.close() }
    for table in ["notes_changes", "notes_entities"] {
      try connection.execute("ALTER TABLE \(table) DROP CONSTRAINT IF EXISTS \(table)_version")
    }
  }

  /// Writes one version (`payload` JSON text, `nil` for a deletion) and makes it the
  /// entity's latest; returns its sequence number.
  @discardableResult
  func write(_ kind: SyncEntityKind, uid: String, payload: String?) throws -> Int64 {
    let connection = try PostgresConnection(url: adminURL)
    defer { connection.close() }
    try connection.execute(
      "INSERT INTO notes_devices (device_id, account) VALUES ($1::uuid, $2) ON CONFLICT DO NOTHING",
      [device, account])
    let seq = try connection.execute(
      """
      INSERT INTO notes_changes (account, change_id, device_id, entity, entity_id, payload)
      VALUES ($1, gen_random_uuid(), $2::uuid, $3, $4, $5::jsonb) RETURNING seq
      """, [account, device, kind.rawValue, uid, payload]
    ).singleValue
    try connection.execute(
      """
      INSERT INTO notes_entities (account, entity, entity_id, seq, payload)
      SELECT account, entity, entity_id, seq, payload FROM notes_changes WHERE seq = $1::bigint
      ON CONFLICT (account, entity, entity_id)
        DO UPDATE SET seq = excluded.seq, payload = excluded.payload
      """, [seq])
    return Int64(seq ?? "") ?? 0
  }

  /// The uids of the account's live notebooks and notes on the server, sorted.
  func liveEntities() throws -> (notebooks: [String], notes: [String]) {
    let connection = try PostgresConnection(url: adminURL)
    defer { connection.close() }
    let rows = try connection.execute(
      """
      SELECT entity, entity_id FROM notes_entities
      WHERE account = $1 AND jsonb_typeof(payload) = 'object' ORDER BY entity, entity_id
      """, [account])
    let pairs = rows.rows.compactMap { row in row[1].map { (row[0], $0) } }
    return (
      pairs.filter { $0.0 == "notebook" }.map(\.1), pairs.filter { $0.0 == "note" }.map(\.1)
    )
  }

  /// Writes a version of kind `bad` for a new entity (or, with `uid`, over an existing
  /// one), in `notebook` when it is a note; returns its sequence number.
  @discardableResult
  func write(_ bad: BadVersion, uid: String? = nil, notebook: String) throws -> Int64 {
    let id = bad.entityID(uid ?? UUID().uuidString.lowercased())
    return try write(bad.kind, uid: id, payload: bad.payload(notebook: notebook))
  }
}

/// What every library must hold, whoever wrote it: the app's rules.
enum LibraryInvariants {
  /// Every way `state` breaks the app's rules, one line each; empty when it keeps them.
  static func violations(in state: NotesState) -> [String] {
    var found: [String] = []
    var titleKeys: Set<String> = []
    for notebook in state.notebooks.elements {
      let issues = NotesRules.titleIssues(notebook.title, field: "notebook title")
      if !issues.isEmpty || NotesRules.normalizedTitle(notebook.title) != notebook.title {
        found.append("notebook \(notebook.id) has the title \(notebook.title.debugDescription)")
      }
      if !titleKeys.insert(NotesRules.notebookTitleKey(notebook.title)).inserted {
        found.append("two notebooks are titled \(notebook.title.debugDescription)")
      }
    }
    for note in state.notes.elements {
      if state.notebooks[note.notebookID] == nil {
        found.append("note \(note.id) is in notebook \(note.notebookID), which does not exist")
      }
      let issues =
        NotesRules.titleIssues(note.title, field: "note title") + NotesRules.bodyIssues(note.body)
      if !issues.isEmpty || NotesRules.normalizedTitle(note.title) != note.title {
        found.append("note \(note.id) breaks the rules: \(issues.map(\.message))")
      }
      if note.id.rawValue > state.lastAssignedID
        || !note.created.timeIntervalSinceReferenceDate.isFinite
      {
        found.append("note \(note.id) has an id or date out of range")
      }
    }
    return found
  }
}
