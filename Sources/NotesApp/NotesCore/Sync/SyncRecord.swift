/// What kind of entity a sync record describes.
public enum SyncEntityKind: String, Sendable, CaseIterable {
  /// A notebook.
  case notebook
  /// A note.
  case note
}

/// The synced fields of a notebook or a note, as every device stores them.
///
/// A notebook uses only ``title`` and ``created``; its other fields stay at their
/// defaults.
public struct SyncFields: Equatable, Sendable {
  /// The title.
  public var title: String
  /// A note's text; empty for a notebook.
  public var body: String
  /// The uid of a note's notebook; `nil` for a notebook.
  public var notebook: String?
  /// Whether a note is pinned; `false` for a notebook.
  public var isPinned: Bool
  /// When the entity was created, in seconds since 2001.
  public var created: Double
  /// When a note last changed, in seconds since 2001; equal to ``created`` for a notebook.
  public var modified: Double

  /// Creates the fields of a note or, with the defaults, of a notebook.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - body: A note's text.
  ///   - notebook: A note's notebook uid.
  ///   - isPinned: Whether a note is pinned.
  ///   - created: Creation time, seconds since 2001.
  ///   - modified: Last change, seconds since 2001; `created` if `nil`.
  public init(
    title: String, body: String = "", notebook: String? = nil, isPinned: Bool = false,
    created: Double, modified: Double? = nil
  ) {
    self.title = title
    self.body = body
    self.notebook = notebook
    self.isPinned = isPinned
    self.created = created
    self.modified = modified ?? created
  }
}

/// One entity as sync moves it: its kind, uid and fields, `nil` fields for a deletion.
///
/// What sync moves between a library and the server — an entity's kind, its globally unique id, and
/// its fields (or none, for a deletion).
///
/// ## Guarantees
///
/// - Devices name entities only by `uid`, a UUID that no two devices ever give twice; the
///   numbers a library uses locally (`NoteID`, `NotebookID`) never leave it.
/// - Dates travel as seconds since 2001 (`Date`'s reference date) in `Double`, so a date
///   reads back bit for bit on every device.
/// - Two records are equal exactly when every synced field is equal: equality is what
///   decides whether a side changed an entity.
public struct SyncRecord: Equatable, Sendable {
  /// Notebook or note.
  public var kind: SyncEntityKind
  /// The entity's globally unique id.
  public var uid: String
  /// The fields, or `nil` if the entity is deleted.
  public var fields: SyncFields?

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - kind: Notebook or note.
  ///   - uid: The entity's globally unique id.
  ///   - fields: Its fields, `nil` for a deletion.
  public init(kind: SyncEntityKind, uid: String, fields: SyncFields?) {
    self.kind = kind
    self.uid = uid
    self.fields = fields
  }
}

/// One change this library pushes: the entity's new version and what it was based on.
public struct OutgoingChange: Equatable, Sendable {
  /// The id the server remembers, so the same change is never applied twice.
  public var changeID: String
  /// The server sequence number of the version this change was made from; 0 for a new entity.
  public var baseSeq: Int64
  /// The entity's new version (`fields` nil for a deletion).
  public var record: SyncRecord

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - changeID: The change's id.
  ///   - baseSeq: The sequence number of the version it was made from.
  ///   - record: The new version.
  public init(changeID: String, baseSeq: Int64, record: SyncRecord) {
    self.changeID = changeID
    self.baseSeq = baseSeq
    self.record = record
  }
}

/// One entity as the server holds it, pulled by a device.
public struct PulledRecord: Equatable, Sendable {
  /// The server sequence number of the change that made this version.
  public var seq: Int64
  /// The id of that change, as the device that pushed it gave it.
  public var changeID: String
  /// The version.
  public var record: SyncRecord

  /// Creates a pulled record.
  ///
  /// - Parameters:
  ///   - seq: The sequence number of the change that made it.
  ///   - changeID: That change's id.
  ///   - record: The version.
  public init(seq: Int64, changeID: String, record: SyncRecord) {
    self.seq = seq
    self.changeID = changeID
    self.record = record
  }
}
