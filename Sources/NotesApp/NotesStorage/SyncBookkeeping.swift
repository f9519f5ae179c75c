internal import Foundation

/// The tables a library keeps for sync, and the ids that never collide.
///
/// ## Guarantees
///
/// - Every notebook and note has a `uid`, unique across every device: rows created from
///   schema version 6 on get a time-ordered UUID (version 7: 48 bits of milliseconds, then
///   74 random bits), rows that existed before get a random one (version 4) in the
///   migration, and so does a row some other writer inserts without one (a trigger). The
///   library has a `deviceID` (a UUID, in `meta`) from the same migration.
/// - `sync_pending` names every entity changed since the server last accepted it. Triggers
///   fill it in the same transaction as the change, whoever writes (this process, another
///   one, the sync engine), so a pending change survives a kill: the outbox is never a
///   separate step that can be lost. A pending row with a `change_id` holds the exact
///   version being pushed under that id, so a retry after a lost acknowledgement sends the
///   same change again and the server recognises it.
/// - `sync_base` holds, per entity, the last version the server accepted that this library
///   knows (the ancestor of the next merge) and its server sequence number.
/// - `sync_notices` holds what sync told the user (a conflict copy, an edit that beat a
///   delete), until the user acknowledges it.
/// - `sync_kept_aside` (schema version 7) holds, per entity, the latest version pulled from
///   the server that broke the app's rules: its sequence number, change id and reasons,
///   never its content. It stays until a valid version of the entity replaces it on the
///   server; the user's acknowledgement only marks it read.
enum SyncBookkeeping {
  /// A SQL expression for a random (version 4) UUID, evaluated per row.
  private static let randomUUID = """
    (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4'
      || substr(lower(hex(randomblob(2))), 2) || '-'
      || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2)
      || '-' || lower(hex(randomblob(6))))
    """

  /// The columns of a version: the fields of `SyncFields` and whether it is a deletion.
  private static let versionColumns = """
    deleted INTEGER NOT NULL DEFAULT 0,
      notebook_uid TEXT,
      title TEXT,
      body TEXT,
      pinned INTEGER,
      created REAL,
      modified REAL
    """

  /// Schema version 6.
  static let createScript = """
    ALTER TABLE notebooks ADD COLUMN uid TEXT;
    ALTER TABLE notes ADD COLUMN uid TEXT;
    UPDATE notebooks SET uid = \(randomUUID);
    UPDATE notes SET uid = \(randomUUID);
    CREATE UNIQUE INDEX notebooks_by_uid ON notebooks(uid);
    CREATE UNIQUE INDEX notes_by_uid ON notes(uid);
    INSERT OR REPLACE INTO meta(key, value) VALUES ('\(MetaKey.deviceID)', \(randomUUID));
    CREATE TABLE sync_base(
      uid TEXT PRIMARY KEY,
      entity TEXT NOT NULL,
      seq INTEGER NOT NULL,
      \(versionColumns)
    );
    CREATE TABLE sync_pending(
      uid TEXT PRIMARY KEY,
      entity TEXT NOT NULL,
      change_id TEXT,
      base_seq INTEGER,
      \(versionColumns)
    );
    CREATE TABLE sync_notices(
      id INTEGER PRIMARY KEY,
      created REAL NOT NULL,
      message TEXT NOT NULL
    );
    INSERT INTO sync_pending(uid, entity) SELECT uid, 'notebook' FROM notebooks;
    INSERT INTO sync_pending(uid, entity) SELECT uid, 'note' FROM notes;
    CREATE TRIGGER notebooks_sync_insert AFTER INSERT ON notebooks WHEN new.uid IS NOT NULL BEGIN
      INSERT OR IGNORE INTO sync_pending(uid, entity) VALUES (new.uid, 'notebook');
    END;
    CREATE TRIGGER notebooks_sync_uid AFTER INSERT ON notebooks WHEN new.uid IS NULL BEGIN
      UPDATE notebooks SET uid = \(randomUUID) WHERE id = new.id;
    END;
    CREATE TRIGGER notebooks_sync_update AFTER UPDATE ON notebooks WHEN new.uid IS NOT NULL BEGIN
      INSERT OR IGNORE INTO sync_pending(uid, entity) VALUES (new.uid, 'notebook');
    END;
    CREATE TRIGGER notebooks_sync_delete AFTER DELETE ON notebooks WHEN old.uid IS NOT NULL BEGIN
      INSERT OR IGNORE INTO sync_pending(uid, entity) VALUES (old.uid, 'notebook');
    END;
    CREATE TRIGGER notes_sync_insert AFTER INSERT ON notes WHEN new.uid IS NOT NULL BEGIN
      INSERT OR IGNORE INTO sync_pending(uid, entity) VALUES (new.uid, 'note');
    END;
    CREATE TRIGGER notes_sync_uid AFTER INSERT ON notes WHEN new.uid IS NULL BEGIN
      UPDATE notes SET uid = \(randomUUID) WHERE id = new.id;
    END;
    CREATE TRIGGER notes_sync_update AFTER UPDATE ON notes WHEN new.uid IS NOT NULL BEGIN
      INSERT OR IGNORE INTO sync_pending(uid, entity) VALUES (new.uid, 'note');
    END;
    CREATE TRIGGER notes_sync_delete AFTER DELETE ON notes WHEN old.uid IS NOT NULL BEGIN
      INSERT OR IGNORE INTO sync_pending(uid, entity) VALUES (old.uid, 'note');
    END;
    """

  /// Schema version 7.
  static let keptAsideScript = """
    CREATE TABLE sync_kept_aside(
      entity TEXT NOT NULL,
      uid TEXT NOT NULL,
      seq INTEGER NOT NULL,
      change_id TEXT NOT NULL,
      reasons TEXT NOT NULL,
      created REAL NOT NULL,
      acknowledged INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (entity, uid)
    );
    """

  /// A new time-ordered UUID (version 7), lower-case.
  ///
  /// Two draws of the system's random generator supply the 74 random bits: each draw is a
  /// system call, and a draw per byte would be a large share of an import's time.
  static func newUID(now: Date = Date()) -> String {
    let milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
    var generator = SystemRandomNumberGenerator()
    let (high, low) = (generator.next() as UInt64, generator.next() as UInt64)
    var bytes = (0..<16).map { index -> UInt8 in
      switch index {
      case 0..<6: UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * index))
      case 6..<8: UInt8(truncatingIfNeeded: high >> (8 * (index - 6)))
      default: UInt8(truncatingIfNeeded: low >> (8 * (index - 8)))
      }
    }
    bytes[6] = 0x70 | (bytes[6] & 0x0F)
    bytes[8] = 0x80 | (bytes[8] & 0x3F)
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(36)
    for (index, byte) in bytes.enumerated() {
      if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
