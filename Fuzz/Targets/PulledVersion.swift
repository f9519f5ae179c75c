// Fuzz target: one row as the sync server sends it for a pulled version, through the
// device's reader (`SyncServer.version(_:from:)`) and the app's rules.
//
// The input is the row a server (or whoever controls it) answers: the first byte's low bit
// picks the kind (note or notebook), the rest is the row's 19 columns separated by NUL; a
// column that is the single byte 0xFF is SQL NULL, missing columns are NULL, invalid UTF-8
// is repaired (libpq's text is read as UTF-8). Nothing ties the columns to each other: a
// hostile server can send any combination.
//
// Contract checked for every input:
// - Reading never crashes, whatever the row holds.
// - An accepted version keeps the app's rules (`SyncRules` finds nothing, its id is a
//   UUID), holds exactly the text the row sent, and is read back the same when the device
//   pushes it and pulls it again (the row a server answers for what the device pushed).
// - A refused version has at least one reason, none empty, and what the user is shown of
//   it (`summary`) holds no control character, so it cannot drive the terminal.

import Foundation
import NotesCore

@testable import NotesServer

/// The columns a pull's row has (`SyncServer+Versions`).
private let columnCount = 19

private func check(_ bytes: Data) {
  guard let first = bytes.first else { return }
  let kind: SyncEntityKind = first & 1 == 0 ? .note : .notebook
  var row: [String?] = bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false)
    .prefix(columnCount).map { column in
      column.elementsEqual([0xFF]) ? nil : String(decoding: column, as: UTF8.self)
    }
  while row.count < columnCount { row.append(nil) }
  switch SyncServer.version(kind, from: row) {
  case .accepted(let pulled):
    let record = pulled.record
    expect(record.kind == kind, "accepted as the wrong kind")
    expect(SyncRules.issues(in: record).isEmpty, "accepted a version the rules refuse")
    expect(SyncRules.uidIssues(record.uid, kind: kind).isEmpty, "accepted a bad id")
    if let fields = record.fields {
      expect(fields.title == row[11], "the title is not the text the server sent")
      if kind == .note {
        expect(fields.body == row[13], "the body is not the text the server sent")
      } else {
        expect(fields.body.isEmpty && fields.notebook == nil, "a notebook with a note's fields")
      }
    }
    let again = SyncServer.version(
      kind, from: rowOfPush(record, seq: pulled.seq, changeID: pulled.changeID))
    expect(again == .accepted(pulled), "pushed and pulled again, the version changed")
  case .refused(let refused):
    expect(!refused.reasons.isEmpty, "refused without a reason")
    expect(refused.reasons.allSatisfy { !$0.isEmpty }, "refused with an empty reason")
    expect(
      !refused.summary.unicodeScalars.contains {
        $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
      }, "a control character in what the user is shown")
  }
}

/// The row a server answers for `record` once this device pushed it: its payload as the
/// push writes it (`SyncServer.PushBatch`), read as `SyncServer+Versions` reads it.
private func rowOfPush(_ record: SyncRecord, seq: Int64, changeID: String) -> [String?] {
  var row = [String?](repeating: nil, count: columnCount)
  row[0] = String(seq)
  row[1] = changeID
  row[2] = String(record.uid.prefix(SyncServer.idByteLimit))
  row[3] = String(record.uid.utf8.count)
  guard let fields = record.fields else { return row }
  row[4] = "object"
  row[5] = "string"
  row[6] = "string"
  row[7] = fields.notebook == nil ? "null" : "string"
  row[8] = "boolean"
  row[9] = "number"
  row[10] = "number"
  row[11] = fields.title
  row[12] = String(fields.title.utf8.count)
  row[13] = fields.body
  row[14] = String(fields.body.utf8.count)
  row[15] = fields.notebook
  row[16] = fields.isPinned ? "true" : "false"
  row[17] = "\(fields.created)"
  row[18] = "\(fields.modified)"
  return row
}

/// libFuzzer's entry point: checks the contract on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  check(Data(bytes: start, count: count))
  return 0
}
