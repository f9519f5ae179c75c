// Fuzz target: the import document (`notes import`), from raw bytes to a saved library.
//
// Contract checked for every input:
// - Reading never crashes. Bytes that are not UTF-8, text that is not a version 1 export
//   and documents with refused items are rejected with exit code 65 and at least one
//   non-empty reason, and the library is left exactly as it was.
// - What is accepted round-trips: the library exported after the import imports again
//   into an empty library, every note comes through, and exporting that gives the same
//   text.

import Airframe
import Foundation
import NotesCore
import NotesFiles
import NotesPresentation

@testable import NotesCommandLine

@MainActor
private func check(_ bytes: Data) {
  let model = Model(NotesState())
  guard
    let text = accepted({ () throws(CommandFailure) in
      try CommandInput.text(bytes, from: "fuzz input")
    })
  else { return }
  guard
    let document = accepted({ () throws(CommandFailure) in
      try CommandFailure.files { () throws(FileFailure) in
        try LibraryDocument(json: text, from: "fuzz input")
      }
    })
  else { return }
  guard
    let counts = accepted({ () throws(CommandFailure) in
      try importing(document, into: model)
    })
  else {
    expect(model.state == NotesState(), "a rejected import changed the library")
    return
  }
  expect(counts.notes == document.notes.count, "an accepted import left out notes")
  expect(model.state.notes.count == document.notes.count, "the library lacks notes")

  // Round trip: export, import into an empty library, export again.
  let exported = mustSucceed { () throws(FileFailure) in
    try JSONCoding.text(LibraryDocument(model.state))
  }
  let again = Model(NotesState())
  let exportedDocument = mustSucceed { () throws(FileFailure) in
    try LibraryDocument(json: exported, from: "the export")
  }
  mustSucceed { () throws(CommandFailure) in _ = try importing(exportedDocument, into: again) }
  let reexported = mustSucceed { () throws(FileFailure) in
    try JSONCoding.text(LibraryDocument(again.state))
  }
  expect(reexported == exported, "export → import → export changed the text")
}

/// Imports `document` into `model` as `notes import` does.
@MainActor
private func importing(
  _ document: LibraryDocument, into model: Model<NotesState>
) throws(CommandFailure) -> ImportSummary {
  let session = NotesSession(
    model: model, sync: SyncDriver(model: model, service: NoSyncService()))
  defer { session.close() }
  return try WriteCommands.imported(document, into: session)
}

/// The value, or `nil` after checking that the failure is a clear rejection.
private func accepted<Value>(_ body: () throws(CommandFailure) -> Value) -> Value? {
  do {
    return try body()
  } catch {
    expect(error.code == .invalidData, "rejected with exit code \(error.code), not 65")
    expect(
      !error.lines.isEmpty && error.lines.allSatisfy { !$0.isEmpty },
      "rejected without a reason")
    return nil
  }
}

/// The value; a failure breaks the contract.
@discardableResult
private func mustSucceed<Value, Failure: Error>(_ body: () throws(Failure) -> Value) -> Value {
  do {
    return try body()
  } catch {
    fail("the round trip failed: \(error)")
  }
}

/// libFuzzer's entry point: checks the contract on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Data(bytes: start, count: count)
  MainActor.assumeIsolated { check(bytes) }
  return 0
}
