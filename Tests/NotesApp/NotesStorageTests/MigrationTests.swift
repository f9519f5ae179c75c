import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

@Suite(.noLiveBindings)
@MainActor
struct MigrationTests {
  typealias F = Fixtures

  @Test func migrationsAreNumberedFromOneWithoutGaps() {
    #expect(Migration.allCases.map(\.rawValue) == Array(1...Migration.latestVersion))
    #expect(NotesDatabase.supportedSchemaVersion == 10)
  }

  @Test func anEmptyFileMigratesFromVersionZero() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    #expect(try RawDatabase.userVersion(path) == 0)

    let database = try NotesDatabase(path: path)
    let model = Model(try database.loadState(), storage: database)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk"), into: \.notes)
    }
    #expect(try database.search("milk") == F.noteIDs(2))
    database.close()
    #expect(try RawDatabase.userVersion(path) == Int64(NotesDatabase.supportedSchemaVersion))
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func aVersionOneFileKeepsItsDataAndBecomesSearchable() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let old = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true, schemaVersion: 1)
    let model = Model(NotesState(), storage: old)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk and honey"), into: \.notes)
      try transaction.insert(
        F.note(3, in: 1, "Plants", "water the fern", pinned: true), into: \.notes)
      transaction.set(\.lastAssignedID, to: 3)
      transaction.set(\.sync, to: .idle(lastSynced: F.date(9)))
    }
    // The time of the last sync, as the sync engine records it (files before schema version
    // 3 count seconds since 1970); the model's status is never written.
    try old.connection.run(
      """
      INSERT OR REPLACE INTO meta(key, value)
      VALUES ('lastSynced', \(F.date(9).timeIntervalSince1970))
      """)
    #expect(old.searchMethod == .substring)
    old.close()
    #expect(try RawDatabase.userVersion(path) == 1)

    let database = try NotesDatabase(path: path)
    defer { database.close() }
    #expect(
      try database.connection.int64("PRAGMA user_version")
        == Int64(NotesDatabase.supportedSchemaVersion))
    #expect(database.searchMethod == .fullText)
    #expect(try database.loadState() == model.state)
    #expect(try database.search("honey") == F.noteIDs(2))
    #expect(try database.search("fern") == F.noteIDs(3))
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func aVersionTwoFileKeepsEveryDateThroughTheEpochChange() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let old = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true, schemaVersion: 2)
    // Whole seconds since 1970 convert to the 2001 epoch exactly.
    let model = Model(NotesState(), storage: old)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk"), into: \.notes)
      transaction.set(\.lastAssignedID, to: 2)
      transaction.set(\.sync, to: .idle(lastSynced: F.date(9)))
    }
    // As the sync engine records it: seconds since 1970 in this schema.
    try old.connection.run(
      """
      INSERT OR REPLACE INTO meta(key, value)
      VALUES ('lastSynced', \(F.date(9).timeIntervalSince1970))
      """)
    old.close()
    #expect(try RawDatabase.userVersion(path) == 2)
    let database = try NotesDatabase(path: path)
    defer { database.close() }
    #expect(try RawDatabase.userVersion(path) == Int64(NotesDatabase.supportedSchemaVersion))
    #expect(try database.loadState() == model.state)
    #expect(try database.search("milk") == F.noteIDs(2))
  }

  @Test func aFileWrittenWithoutFTS5GetsItsIndexWhenFTS5IsAvailable() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let plain = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: false, schemaVersion: 2)
    let model = Model(NotesState(), storage: plain)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk 100% fresh"), into: \.notes)
    }
    #expect(plain.searchMethod == .substring)
    #expect(try plain.search("100%") == F.noteIDs(2))
    #expect(try plain.search("GROC") == F.noteIDs(2))
    #expect(try plain.search("10_").isEmpty)
    plain.close()

    let indexed = try NotesDatabase(path: path)
    #expect(indexed.searchMethod == .fullText)
    #expect(try indexed.search("fresh") == F.noteIDs(2))
    indexed.close()

    // Going back to an SQLite without FTS5 would leave the index stale, so it is refused.
    #expect(throws: NotesStorageError.self) {
      try NotesDatabase(
        path: path, durability: .survivesAppCrash, fullTextSearch: false, schemaVersion: 2)
    }
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func aVersionThreeFileTradesItsIndexTriggersForARecordOfChanges() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let old = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true, schemaVersion: 3)
    let model = Model(NotesState(), storage: old)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk"), into: \.notes)
      try transaction.insert(F.note(3, in: 1, "Plants", "water the fern"), into: \.notes)
    }
    try model.write(origin: .background("test")) {
      try $0.update(NoteID(rawValue: 2), in: \.notes) { $0.body = "milk and honey" }
    }
    #expect(!old.recordsIndexChanges)
    old.close()
    #expect(try RawDatabase.triggerNames(path) == RawDatabase.version2Triggers)
    #expect(try !RawDatabase.hasTable(path, "notes_fts_pending"))

    let database = try NotesDatabase(path: path)
    #expect(try RawDatabase.triggerNames(path) == RawDatabase.recordingTriggers)
    // The old triggers left the index exact: nothing is recorded, nothing is missing.
    #expect(try RawDatabase.recordedChangeCount(path) == 0)
    try RawDatabase.checkIndexMatchesNotes(path)
    #expect(database.recordsIndexChanges)
    #expect(try database.search("honey") == F.noteIDs(2))

    let current = Model(try database.loadState(), storage: database)
    try current.write(origin: .background("test")) {
      try $0.update(NoteID(rawValue: 3), in: \.notes) { $0.body = "repot the cactus" }
    }
    #expect(try RawDatabase.recordedChangeCount(path) == 1)
    #expect(try database.search("fern").isEmpty)
    #expect(try database.search("cactus") == F.noteIDs(3))
    database.close()
    try RawDatabase.checkIndexMatchesNotes(path)
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func aFileWithoutFTS5GetsTheCurrentIndexDesignWhenFTS5IsAvailable() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let latest = NotesDatabase.supportedSchemaVersion
    let plain = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: false, schemaVersion: latest)
    let model = Model(NotesState(), storage: plain)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk"), into: \.notes)
    }
    try model.write(origin: .background("test")) {
      try $0.update(NoteID(rawValue: 2), in: \.notes) { $0.body = "fresh milk" }
    }
    // Migration 4 left the file alone: no index, no record, no triggers.
    #expect(plain.searchMethod == .substring)
    #expect(!plain.recordsIndexChanges)
    #expect(try plain.search("fresh") == F.noteIDs(2))
    plain.close()
    #expect(try RawDatabase.userVersion(path) == Int64(latest))
    #expect(try RawDatabase.triggerNames(path).isEmpty)
    #expect(try !RawDatabase.hasTable(path, "notes_fts_pending"))

    let indexed = try NotesDatabase(path: path)
    #expect(indexed.searchMethod == .fullText)
    #expect(indexed.recordsIndexChanges)
    #expect(try RawDatabase.triggerNames(path) == RawDatabase.recordingTriggers)
    try RawDatabase.checkIndexMatchesNotes(path)
    #expect(try indexed.search("fresh") == F.noteIDs(2))
    let current = Model(try indexed.loadState(), storage: indexed)
    try current.write(origin: .background("test")) {
      try $0.update(NoteID(rawValue: 2), in: \.notes) { $0.body = "oat milk" }
    }
    #expect(try indexed.search("fresh").isEmpty)
    #expect(try indexed.search("oat") == F.noteIDs(2))
    indexed.close()
    try RawDatabase.checkIndexMatchesNotes(path)
  }

  @Test func anIndexInstalledForAnOlderVersionIsThatVersionsDesign() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: false, schemaVersion: 2
    ).close()
    // Installed at version 3, the index has version 2's triggers, so that migration 4
    // finds what it expects.
    try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true, schemaVersion: 3
    ).close()
    #expect(try RawDatabase.triggerNames(path) == RawDatabase.version2Triggers)
    try NotesDatabase(path: path).close()
    #expect(try RawDatabase.hasTable(path, "notes_fts_pending"))
    #expect(try RawDatabase.triggerNames(path) == RawDatabase.recordingTriggers)
  }

  @Test func aVersionFourFileGainsAnEmptyChangeLogAndKeepsEveryRow() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let old = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true, schemaVersion: 4)
    let model = Model(NotesState(), storage: old)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk"), into: \.notes)
      transaction.set(\.lastAssignedID, to: 2)
    }
    let before = try old.loadState()
    old.close()
    #expect(try !RawDatabase.hasTable(path, "change_log"))

    let database = try NotesDatabase(path: path)
    defer { database.close() }
    #expect(try RawDatabase.userVersion(path) == Int64(NotesDatabase.supportedSchemaVersion))
    #expect(try RawDatabase.int64(path, "SELECT count(*) FROM change_log") == 0)
    #expect(try database.loadState() == before)
    // Commits are logged from now on, one entry per row and one for the metadata.
    let current = Model(try database.loadState(), storage: database)
    try current.write(origin: .background("test")) { transaction in
      try transaction.insert(F.note(3, in: 1, "Plants", ""), into: \.notes)
      transaction.set(\.lastAssignedID, to: 3)
    }
    #expect(try RawDatabase.int64(path, "SELECT count(*) FROM change_log") == 2)
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func aVersionFiveFileGivesEveryRowAUniqueIDAndMarksItForTheFirstSync() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let old = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true, schemaVersion: 5)
    let model = Model(NotesState(), storage: old)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.notebook(2, "Work"), into: \.notebooks)
      for id in Int64(3)...12 {
        try transaction.insert(
          F.note(id, in: id % 2 + 1, "Note \(id)", "body \(id)"), into: \.notes)
      }
      transaction.set(\.lastAssignedID, to: 12)
    }
    let before = try old.loadState()
    old.close()
    #expect(try !RawDatabase.hasTable(path, "sync_pending"))

    let database = try NotesDatabase(path: path)
    defer { database.close() }
    #expect(try RawDatabase.userVersion(path) == Int64(NotesDatabase.supportedSchemaVersion))
    // Nothing lost, nothing changed.
    #expect(try database.loadState() == before)
    // Every row has a uid, unique across both tables, shaped as a UUID.
    let uids = try RawDatabase.strings(
      path, "SELECT uid FROM notebooks UNION ALL SELECT uid FROM notes")
    #expect(uids.count == 12)
    #expect(Set(uids).count == 12)
    #expect(uids.allSatisfy { UUID(uuidString: $0) != nil })
    // The library has a device id, and the first sync pushes every row.
    let device = try #require(
      try RawDatabase.strings(path, "SELECT value FROM meta WHERE key = 'deviceID'").first)
    #expect(UUID(uuidString: device) != nil)
    #expect(try RawDatabase.int64(path, "SELECT count(*) FROM sync_pending") == 12)
    #expect(try RawDatabase.int64(path, "SELECT count(*) FROM sync_base") == 0)
    // A note created now gets a time-ordered (version 7) uid and is pending too.
    let current = Model(try database.loadState(), storage: database)
    try current.write(origin: .background("test")) { transaction in
      try transaction.insert(F.note(13, in: 1, "New", ""), into: \.notes)
      transaction.set(\.lastAssignedID, to: 13)
    }
    let fresh = try #require(
      try RawDatabase.strings(path, "SELECT uid FROM notes WHERE id = 13").first)
    #expect(fresh.count == 36 && Array(fresh)[14] == "7")
    #expect(try RawDatabase.int64(path, "SELECT count(*) FROM sync_pending") == 13)
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func aVersionSixFileGainsAnEmptyListOfVersionsKeptAsideAndKeepsItsSyncState() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let old = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true, schemaVersion: 6)
    let model = Model(NotesState(), storage: old)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk"), into: \.notes)
      transaction.set(\.lastAssignedID, to: 2)
    }
    let before = try old.loadState()
    old.close()
    let device = try RawDatabase.strings(path, "SELECT value FROM meta WHERE key = 'deviceID'")
    #expect(try !RawDatabase.hasTable(path, "sync_kept_aside"))

    let database = try NotesDatabase(path: path)
    defer { database.close() }
    #expect(try RawDatabase.userVersion(path) == Int64(Migration.latestVersion))
    #expect(try RawDatabase.int64(path, "SELECT count(*) FROM sync_kept_aside") == 0)
    // Nothing lost: the rows, the device id and what waits for the first sync.
    #expect(try database.loadState() == before)
    #expect(
      try RawDatabase.strings(path, "SELECT value FROM meta WHERE key = 'deviceID'") == device)
    #expect(try RawDatabase.int64(path, "SELECT count(*) FROM sync_pending") == 2)
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func aVersionSevenFileKeepsItsChangeLogAndHeadNumberedByRowid() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let old = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true, schemaVersion: 7)
    let model = Model(NotesState(), storage: old)
    for id in 1...3 {
      try model.write(origin: .background("test")) { transaction in
        try transaction.insert(F.notebook(Int64(id), "Notebook \(id)"), into: \.notebooks)
        transaction.set(\.lastAssignedID, to: Int64(id))
      }
    }
    old.close()
    let entries = try RawDatabase.strings(
      path, "SELECT seq || ' ' || entity || ' ' || row_id FROM change_log ORDER BY seq")
    let head = try RawDatabase.int64(
      path, "SELECT seq FROM sqlite_sequence WHERE name = 'change_log'")
    #expect(head == Int64(entries.count))

    let database = try NotesDatabase(path: path)
    #expect(try RawDatabase.userVersion(path) == Int64(Migration.latestVersion))
    // Every entry kept with its number, the head where it was, no AUTOINCREMENT left.
    #expect(
      try RawDatabase.strings(
        path, "SELECT seq || ' ' || entity || ' ' || row_id FROM change_log ORDER BY seq")
        == entries)
    #expect(try RawDatabase.int64(path, "SELECT max(seq) FROM change_log") == head)
    #expect(
      try RawDatabase.int64(
        path, "SELECT count(*) FROM sqlite_sequence WHERE name = 'change_log'") == 0)
    // The next commit's entry comes after the head.
    let next = Model(try database.loadState(), storage: database)
    try next.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(9, "After"), into: \.notebooks)
      transaction.set(\.lastAssignedID, to: 9)
    }
    database.close()
    #expect(
      try RawDatabase.int64(path, "SELECT min(seq) FROM change_log WHERE row_id = 9") ?? 0 > head
        ?? 0)
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func aVersionEightFileGainsAnEmptyRecentlyDeletedAndKeepsEverything() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let old = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true, schemaVersion: 8)
    let model = Model(NotesState(), storage: old)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk"), into: \.notes)
      transaction.set(\.lastAssignedID, to: 2)
    }
    // A version-8 file cannot hold Recently Deleted: deleting there is refused, not lost.
    #expect(throws: (any Error).self) {
      try model.write(origin: .background("test")) { transaction in
        _ = try DeleteNote(id: NoteID(rawValue: 2)).perform(in: &transaction)
      }
    }
    let before = try old.loadState()
    old.close()
    #expect(try !RawDatabase.hasTable(path, "deleted_notes"))

    let database = try NotesDatabase(path: path)
    defer { database.close() }
    #expect(try RawDatabase.userVersion(path) == Int64(Migration.latestVersion))
    #expect(try RawDatabase.int64(path, "SELECT count(*) FROM deleted_notes") == 0)
    #expect(try database.loadState() == before)
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }

  @Test func aVersionNineFileGainsAnEmptyHistoryAndANoteStartsOneAtItsNextChange() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let old = try NotesDatabase(
      path: path, durability: .survivesAppCrash, fullTextSearch: true, schemaVersion: 9)
    let model = Model(NotesState(), storage: old)
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(F.notebook(1, "Home"), into: \.notebooks)
      try transaction.insert(F.note(2, in: 1, "Groceries", "milk"), into: \.notes)
      transaction.set(\.lastAssignedID, to: 2)
    }
    // A version-9 file keeps no history: an edit there saves, with nothing kept.
    #expect(
      ActionDispatcher(model: model).dispatch(
        EditNoteBody(id: NoteID(rawValue: 2), body: "eggs", now: F.date(10))
      ).isCommitted)
    #expect(try old.history(of: NoteID(rawValue: 2)).isEmpty)
    let before = try old.loadState()
    old.close()
    #expect(try !RawDatabase.hasTable(path, "note_versions"))

    let database = try NotesDatabase(path: path)
    defer { database.close() }
    #expect(try RawDatabase.userVersion(path) == 10)
    #expect(try database.loadState() == before)
    let reopened = Model(before, storage: database)
    #expect(
      ActionDispatcher(model: reopened).dispatch(
        EditNoteBody(id: NoteID(rawValue: 2), body: "bread", now: F.date(20))
      ).isCommitted)
    #expect(try database.history(of: NoteID(rawValue: 2)).map(\.body) == ["bread", "eggs"])
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }
}
